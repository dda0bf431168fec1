import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { SettingsTab_DeviceFragment } from './SettingsTab.generated';
import { UpdateDeviceSettingsDocument, type DeviceUpdateInput } from './useUpdateDeviceSettings.generated';

/** Saves some of a device's fields; resolves once saved, throws the refusal for the caller to show. */
export type DeviceSave = (input: DeviceUpdateInput) => Promise<void>;

/** Saves a device's fields (updateDevice with the fields given); answers the device as saved. */
export function useUpdateDeviceSettings(): [(hashId: string, input: DeviceUpdateInput) => Promise<SettingsTab_DeviceFragment | null>, { loading: boolean }] {
  const [mutate, { loading }] = useMutation(UpdateDeviceSettingsDocument);
  const save = useCallback(
    async (hashId: string, input: DeviceUpdateInput) => {
      const { data } = await mutate({ variables: { hashId, input } });
      return data?.updateDevice ?? null;
    },
    [mutate],
  );
  return [save, { loading }];
}
