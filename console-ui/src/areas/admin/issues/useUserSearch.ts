import { useQuery } from '@apollo/client/react';
import { useDebouncedValue } from '../../../components/useDebouncedValue';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { UserPickerUsersDocument, type UserPickerUsersQuery } from './UserPicker.generated';

export type FoundUser = UserPickerUsersQuery['users']['rows'][number];

/** Users whose name or email contains `filter` (the first few), for choosing one, asked once typing pauses; `searched` once an answer came. */
export function useUserSearch(filter: string, { skip = false }: { skip?: boolean } = {}): { users: readonly FoundUser[]; searched: boolean } {
  const trimmed = useDebouncedValue(filter.trim());
  const { data, error } = useQuery(UserPickerUsersDocument, { variables: { filter: trimmed === '' ? null : trimmed }, skip });
  useQueryErrorSnackbar(error);
  return { users: data?.users.rows ?? [], searched: data !== undefined };
}
