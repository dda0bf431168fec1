import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { UpdateApiKeyDocument, type ApiKeyUpdateInput } from './useUpdateApiKey.generated';

/** Saves a key's name, IP ranges or public key (only the fields given change; publicKey null removes it). */
export function useUpdateApiKey(): (hashId: string, input: ApiKeyUpdateInput) => Promise<void> {
  const [mutate] = useMutation(UpdateApiKeyDocument);
  return useCallback(
    async (hashId: string, input: ApiKeyUpdateInput) => {
      await mutate({ variables: { hashId, input } });
    },
    [mutate],
  );
}
