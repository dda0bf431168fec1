import { useMemo } from 'react';
import { permissionsOf, type Permissions } from './permissions';
import { useSession } from './useSession';

/** The signed-in user's permission flags (none when signed out). */
export function usePermissions(): Permissions {
  const { profile } = useSession();
  return useMemo(() => permissionsOf(profile?.user.rights ?? []), [profile]);
}
