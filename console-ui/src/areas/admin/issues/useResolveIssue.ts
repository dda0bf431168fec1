import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { ResolveIssueDocument } from './useResolveIssue.generated';

/** Resolves an open issue, silently or not (console.md section 4). */
export function useResolveIssue(): (hashId: string, silent: boolean) => Promise<void> {
  const [mutate] = useMutation(ResolveIssueDocument);
  return useCallback(
    async (hashId: string, silent: boolean) => {
      await mutate({ variables: { hashId, silent } });
    },
    [mutate],
  );
}
