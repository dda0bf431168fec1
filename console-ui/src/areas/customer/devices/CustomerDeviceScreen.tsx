import { useQuery } from '@apollo/client/react';
import { useParams } from 'react-router-dom';
import { hasAnyRight } from '../../../../../contracts/rights';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { DeviceScreenDocument } from './CustomerDeviceScreen.generated';
import { useMessages } from '../../../i18n/messages';
import { useSession } from '../../../session/useSession';
import { DeviceFrame, Panel } from '../../../devices/DeviceFrame';
import { GeneralTab } from './GeneralTab';
import { LazyConfigEditor } from '../../../devices/LazyConfigEditor';
import { deviceWriters } from '../../../devices/device-rights';
import { useOnline } from '../../../devices/useOnline';

export type CustomerDeviceTab = 'general' | 'configuration';

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
