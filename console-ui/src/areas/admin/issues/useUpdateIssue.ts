import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { UpdateIssueDocument, type IssueUpdateInput } from './useUpdateIssue.generated';

/** Saves an issue's fields (only those given change: title, flags, assignee, next activity). */
export function useUpdateIssue(): (hashId: string, input: IssueUpdateInput) => Promise<void> {
  const [mutate] = useMutation(UpdateIssueDocument);
  return useCallback(
    async (hashId: string, input: IssueUpdateInput) => {
      await mutate({ variables: { hashId, input } });
    },
    [mutate],
  );
}
