import { useOutletContext } from 'react-router-dom';
import type { DeviceGroupQuery } from './DeviceGroupFrame.generated';

export type DeviceGroup = DeviceGroupQuery['deviceGroup'];

/** What the group's frame hands its tabs: the group as last read, and a way to read it again after a write. */
export interface DeviceGroupOutlet {
  group: DeviceGroup;
  reload: () => Promise<unknown>;
}

/** The group of the frame around the tab. */
export function useDeviceGroup(): DeviceGroupOutlet {
  return useOutletContext<DeviceGroupOutlet>();
}
