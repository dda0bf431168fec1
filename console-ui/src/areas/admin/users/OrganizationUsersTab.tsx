import { ComingSoon } from '../../../shell/ComingSoon';

/** Placeholder until built (issue 17). */
export function OrganizationUsersTab() {
  return <ComingSoon title="organizations.title" />;
}
