import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { CreateApiKeyDocument, type ApiKeyCreateInput, type CreateApiKeyMutation } from './useCreateApiKey.generated';

export type ApiKeySecret = CreateApiKeyMutation['createApiKey'];

/** Makes an API key; answers its hash id and its secret, which is shown this once. */
export function useCreateApiKey(): (input: ApiKeyCreateInput) => Promise<ApiKeySecret> {
  const [mutate] = useMutation(CreateApiKeyDocument);
  return useCallback(
    async (input: ApiKeyCreateInput) => {
      const { data } = await mutate({ variables: { input } });
      if (!data) {
        throw new Error('createApiKey answered no data');
      }
      return data.createApiKey;
    },
    [mutate],
  );
}
