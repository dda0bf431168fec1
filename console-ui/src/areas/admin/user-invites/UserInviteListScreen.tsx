import { ComingSoon } from '../../../shell/ComingSoon';

/** Placeholder until built (issue 17). */
export function UserInviteListScreen() {
  return <ComingSoon title="userInvites.title" />;
}
