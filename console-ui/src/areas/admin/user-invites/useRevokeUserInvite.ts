import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { RevokeUserInviteDocument } from './useRevokeUserInvite.generated';

/** Revokes an open invite: its link stops working. */
export function useRevokeUserInvite(): (hashId: string) => Promise<void> {
  const [mutate] = useMutation(RevokeUserInviteDocument);
  return useCallback(
    async (hashId: string) => {
      await mutate({ variables: { hashId } });
    },
    [mutate],
  );
}
