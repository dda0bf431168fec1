import { ComingSoon } from '../../../shell/ComingSoon';

/** Placeholder until built (issue 17). */
export function DeviceGroupGeneralTab() {
  return <ComingSoon title="deviceGroups.title" />;
}
