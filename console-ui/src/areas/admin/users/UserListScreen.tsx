import { ComingSoon } from '../../../shell/ComingSoon';

/** Placeholder until built (issue 17). */
export function UserListScreen() {
  return <ComingSoon title="users.title" />;
}
