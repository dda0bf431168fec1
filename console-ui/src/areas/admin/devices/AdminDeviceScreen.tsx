import { useQuery } from '@apollo/client/react';
import { useParams } from 'react-router-dom';
import styled from 'styled-components';
import { AdminDeviceSettingsDocument } from './AdminDeviceScreen.generated';
import { useMessages } from '../../../i18n/messages';
import { useOnline } from '../../../devices/useOnline';
import { DeviceFrame, Panel } from '../../../devices/DeviceFrame';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { up } from '../../../theme/theme';
import { LazyAdminIssueList } from '../../../issues/lazy-screens';
import { ObjectAuditLog } from '../audit/ObjectAuditLog';
import { DebuggingTab } from './DebuggingTab';
import { DeviceTimeline } from './DeviceTimeline';
import { SettingsTab } from './SettingsTab';
import { lazyScreen } from '../../../shell/lazy-screen';
import type { DeviceBillingSection } from '../billing/sections';

// The billing tab brings its forms and lists: it loads when first shown.
const DeviceBillingTab = lazyScreen(async () => (await import('../billing/DeviceBillingTab')).DeviceBillingTab);

export type AdminDeviceTab = 'timeline' | 'issues' | 'settings' | 'debugging' | 'billing';

/** A device in the admin area (/admin/devices/{hashId}/timeline, issues, settings, debugging, billing/...). */
export function AdminDeviceScreen({ tab, billing = 'subscription' }: { tab: AdminDeviceTab; billing?: DeviceBillingSection }) {
  const t = useMessages();
  const { hashId = '' } = useParams();
  const { data, error } = useQuery(AdminDeviceSettingsDocument, { variables: { hashId } });
  useQueryErrorSnackbar(error);
  const online = useOnline(hashId, data?.device.isOnline);
  const device = data?.device;
  if (device === undefined) {
    return <p>{t('device.list.loading')}</p>;
  }
  const base = `/admin/devices/${hashId}`;
  return (
    <DeviceFrame
      name={device.name}
      identifier={device.identifier}
      online={online}
      tabs={[
        { to: `${base}/timeline`, label: t('device.tab.timeline') },
        { to: `${base}/issues`, label: t('device.tab.issues') },
        { to: `${base}/settings`, label: t('device.tab.settings') },
        { to: `${base}/debugging`, label: t('device.tab.debugging') },
        { to: `${base}/billing`, label: t('device.tab.billing') },
      ]}
    >
      {tab === 'timeline' && (
        <Columns>
          <Panel>
            <h2>{t('device.history.title')}</h2>
            <ObjectAuditLog objectType="DEVICES" hashId={hashId} label={t('device.history.title')} />
          </Panel>
          <Panel>
            <h2>{t('device.timeline.title')}</h2>
            <DeviceTimeline hashId={hashId} />
          </Panel>
        </Columns>
      )}
      {tab === 'issues' && (
        <Panel>
          <h2>{t('device.issues.title')}</h2>
          <LazyAdminIssueList deviceHashId={hashId} />
        </Panel>
      )}
      {tab === 'settings' && <SettingsTab device={device} />}
      {tab === 'debugging' && <DebuggingTab hashId={hashId} />}
      {tab === 'billing' && <DeviceBillingTab hashId={hashId} section={billing} />}
    </DeviceFrame>
  );
}

/** The history beside the live reports on a wide screen, one above the other on a narrow one. */
const Columns = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 0 16px;
  ${up('lg')} {
    grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
    align-items: start;
  }
`;
