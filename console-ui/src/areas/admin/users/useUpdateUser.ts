import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { UserScreen_UserFragment } from './UserScreen.generated';
import { UpdateUserDocument, type UserUpdateInput } from './useUpdateUser.generated';

/** Saves what an admin changed of a user (updateUser with the fields given); answers the user as saved. */
export function useUpdateUser(): [(hashId: string, input: UserUpdateInput) => Promise<UserScreen_UserFragment | null>, { loading: boolean }] {
  const [mutate, { loading }] = useMutation(UpdateUserDocument);
  const save = useCallback(
    async (hashId: string, input: UserUpdateInput) => {
      const { data } = await mutate({ variables: { hashId, input } });
      return data?.updateUser ?? null;
    },
    [mutate],
  );
  return [save, { loading }];
}
