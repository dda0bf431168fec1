import { ComingSoon } from '../../../shell/ComingSoon';

/** Placeholder until built (issue 17). */
export function UserInviteAddScreen() {
  return <ComingSoon title="userInvites.title" />;
}
