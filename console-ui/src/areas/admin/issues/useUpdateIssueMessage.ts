import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { UpdateIssueMessageDocument } from './useUpdateIssueMessage.generated';

/** Saves the text of an internal message. */
export function useUpdateIssueMessage(): (hashId: string, message: string) => Promise<void> {
  const [mutate] = useMutation(UpdateIssueMessageDocument);
  return useCallback(
    async (hashId: string, message: string) => {
      await mutate({ variables: { hashId, message } });
    },
    [mutate],
  );
}
