import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { SubscribeToIssueDocument } from './useSubscribeToIssue.generated';

/** Subscribes the signed-in user to an issue; the issue's cached facts take the new subscribers. */
export function useSubscribeToIssue(): [(hashId: string) => Promise<void>, { loading: boolean }] {
  const [mutate, { loading }] = useMutation(SubscribeToIssueDocument);
  const subscribe = useCallback(
    async (hashId: string) => {
      await mutate({ variables: { hashId } });
    },
    [mutate],
  );
  return [subscribe, { loading }];
}
