import { ComingSoon } from '../../../shell/ComingSoon';

/** Placeholder until built (issue 17). */
export function OrganizationPartnershipsTab() {
  return <ComingSoon title="organizations.title" />;
}
