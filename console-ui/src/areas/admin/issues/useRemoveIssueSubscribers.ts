import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { RemoveIssueSubscribersDocument } from './useRemoveIssueSubscribers.generated';

/** Unsubscribes users from an issue. */
export function useRemoveIssueSubscribers(): (hashId: string, userHashIds: string[]) => Promise<void> {
  const [mutate] = useMutation(RemoveIssueSubscribersDocument);
  return useCallback(
    async (hashId: string, userHashIds: string[]) => {
      await mutate({ variables: { hashId, userHashIds } });
    },
    [mutate],
  );
}
