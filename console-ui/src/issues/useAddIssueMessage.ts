import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { AddIssueMessageDocument, type IssueMessageInput } from './useAddIssueMessage.generated';

/** Posts a message to an issue; the timeline shows it as the subscription brings it. */
export function useAddIssueMessage(): (input: IssueMessageInput) => Promise<void> {
  const [mutate] = useMutation(AddIssueMessageDocument);
  return useCallback(
    async (input: IssueMessageInput) => {
      await mutate({ variables: { input } });
    },
    [mutate],
  );
}
