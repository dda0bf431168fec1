import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { UnsubscribeFromIssueDocument } from './useUnsubscribeFromIssue.generated';

/** Unsubscribes the signed-in user from an issue; the issue's cached facts take the new subscribers. */
export function useUnsubscribeFromIssue(): [(hashId: string) => Promise<void>, { loading: boolean }] {
  const [mutate, { loading }] = useMutation(UnsubscribeFromIssueDocument);
  const unsubscribe = useCallback(
    async (hashId: string) => {
      await mutate({ variables: { hashId } });
    },
    [mutate],
  );
  return [unsubscribe, { loading }];
}
