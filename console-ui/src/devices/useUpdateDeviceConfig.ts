import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { ConfigEditor_DeviceFragment } from './ConfigEditor.generated';
import { UpdateDeviceConfigDocument } from './useUpdateDeviceConfig.generated';

/** Saves a device's config (updateDevice with only config); answers the device as saved. */
export function useUpdateDeviceConfig(): [(hashId: string, config: unknown) => Promise<ConfigEditor_DeviceFragment | null>, { loading: boolean }] {
  const [mutate, { loading }] = useMutation(UpdateDeviceConfigDocument);
  const save = useCallback(
    async (hashId: string, config: unknown) => {
      const { data } = await mutate({ variables: { hashId, config } });
      return data?.updateDevice ?? null;
    },
    [mutate],
  );
  return [save, { loading }];
}
