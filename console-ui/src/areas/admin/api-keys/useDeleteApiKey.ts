import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { DeleteApiKeyDocument } from './useDeleteApiKey.generated';

/** Deletes a key: calls with its secret are refused from then on. */
export function useDeleteApiKey(): (hashId: string) => Promise<void> {
  const [mutate] = useMutation(DeleteApiKeyDocument);
  return useCallback(
    async (hashId: string) => {
      await mutate({ variables: { hashId } });
    },
    [mutate],
  );
}
