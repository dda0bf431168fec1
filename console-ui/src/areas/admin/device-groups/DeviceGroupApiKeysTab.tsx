import { ComingSoon } from '../../../shell/ComingSoon';

/** Placeholder until built (issue 17). */
export function DeviceGroupApiKeysTab() {
  return <ComingSoon title="deviceGroups.title" />;
}
