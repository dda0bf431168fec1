import { ComingSoon } from '../../../shell/ComingSoon';

/** Placeholder until built (issue 17). */
export function UserScreen() {
  return <ComingSoon title="users.title" />;
}
