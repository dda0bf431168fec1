import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { ReopenIssueDocument } from './useReopenIssue.generated';

/** Reopens a resolved issue, silently or not (console.md section 4). */
export function useReopenIssue(): (hashId: string, silent: boolean) => Promise<void> {
  const [mutate] = useMutation(ReopenIssueDocument);
  return useCallback(
    async (hashId: string, silent: boolean) => {
      await mutate({ variables: { hashId, silent } });
    },
    [mutate],
  );
}
