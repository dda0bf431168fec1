import { useSubscription } from '@apollo/client/react';
import { DevicePresenceDocument } from './useOnline.generated';

/** Whether the device's gateway is connected: as loaded, then as its presence events say. */
export function useOnline(hashId: string, loaded: boolean | undefined): boolean {
  const presence = useSubscription(DevicePresenceDocument, { variables: { hashId } });
  return presence.data?.devicePresence.online ?? loaded ?? false;
}
