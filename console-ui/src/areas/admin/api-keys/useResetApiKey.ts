import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { ResetApiKeyDocument } from './useResetApiKey.generated';
import type { ApiKeySecret } from './useCreateApiKey';

/** Gives a key a new secret (the old one stops working); answers it, shown this once. */
export function useResetApiKey(): (hashId: string) => Promise<ApiKeySecret> {
  const [mutate] = useMutation(ResetApiKeyDocument);
  return useCallback(
    async (hashId: string) => {
      const { data } = await mutate({ variables: { hashId } });
      if (!data) {
        throw new Error('resetApiKey answered no data');
      }
      return data.resetApiKey;
    },
    [mutate],
  );
}
