import { useQuery, useSubscription } from '@apollo/client/react';
import { useParams } from 'react-router-dom';
import { hasAnyRight } from '../../../../../contracts/rights';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { DevicePresenceDocument, DeviceScreenDocument } from '../../../graphql/operations';
import { useMessages } from '../../../i18n/messages';
import { useSession } from '../../../session/useSession';
import { DeviceFrame, Panel } from './DeviceFrame';
import { GeneralTab } from './GeneralTab';
import { LazyConfigEditor } from './LazyConfigEditor';
import { deviceWriters } from './device-rights';

export type CustomerDeviceTab = 'general' | 'configuration';

/** Whether the device's gateway is connected: as loaded, then as its presence events say. */
export function useOnline(hashId: string, loaded: boolean | undefined): boolean {
  const presence = useSubscription(DevicePresenceDocument, { variables: { hashId } });
  return presence.data?.devicePresence.online ?? loaded ?? false;
}

/** A device in the customer area (/teleports/{hashId}/general and /configuration). */
export function CustomerDeviceScreen({ tab }: { tab: CustomerDeviceTab }) {
  const t = useMessages();
  const { hashId = '' } = useParams();
  const { profile } = useSession();
  const { data, error } = useQuery(DeviceScreenDocument, { variables: { hashId } });
  useQueryErrorSnackbar(error);
  const online = useOnline(hashId, data?.device.isOnline);
  const device = data?.device;
  if (device === undefined) {
    return <p>{t('device.list.loading')}</p>;
  }
  const canSave = hasAnyRight(profile?.user.rights ?? [], deviceWriters);
  return (
    <DeviceFrame
      name={device.name}
      identifier={device.identifier}
      online={online}
      tabs={[
        { to: `/teleports/${hashId}/general`, label: t('device.tab.general') },
        { to: `/teleports/${hashId}/configuration`, label: t('device.tab.configuration') },
      ]}
    >
      {tab === 'general' ? (
        <GeneralTab device={device} />
      ) : (
        <Panel>
          <LazyConfigEditor key={device.hashId} device={device} canSave={canSave} />
        </Panel>
      )}
    </DeviceFrame>
  );
}
