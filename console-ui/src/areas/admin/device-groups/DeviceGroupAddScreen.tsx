import { ComingSoon } from '../../../shell/ComingSoon';

/** Placeholder until built (issue 17). */
export function DeviceGroupAddScreen() {
  return <ComingSoon title="deviceGroups.title" />;
}
