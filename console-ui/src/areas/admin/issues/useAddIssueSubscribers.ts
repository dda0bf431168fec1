import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { AddIssueSubscribersDocument } from './useAddIssueSubscribers.generated';

/** Subscribes users to an issue (each must be able to see it). */
export function useAddIssueSubscribers(): (hashId: string, userHashIds: string[]) => Promise<void> {
  const [mutate] = useMutation(AddIssueSubscribersDocument);
  return useCallback(
    async (hashId: string, userHashIds: string[]) => {
      await mutate({ variables: { hashId, userHashIds } });
    },
    [mutate],
  );
}
