import { Link } from 'react-router-dom';
import { Panel } from '../../../devices/DeviceFrame';
import type { DevicePartnerships_DeviceFragment } from './DevicePartnerships.generated';
import { useMessages } from '../../../i18n/messages';
import { ShortList, type ShortListColumn } from '../../../lists/ShortList';

type Partnership = DevicePartnerships_DeviceFragment['partnerships'][number];

/**
 * The partnerships through which the device is shared (all of the owner's devices, or this one
 * listed), each linked to its owner's partnerships tab, where it is edited.
 */
export function DevicePartnerships({ device }: { device: DevicePartnerships_DeviceFragment }) {
  const t = useMessages();
  const role = (partnership: Partnership) => t(partnership.role === 'OPERATOR' ? 'device.partnerships.operator' : 'device.partnerships.viewer');
  const devices = (partnership: Partnership) => t(partnership.allDevices ? 'device.partnerships.allDevices' : 'device.partnerships.listed');
  const columns: ShortListColumn<Partnership>[] = [
    {
      header: t('device.partnerships.owner'),
      text: (partnership) => partnership.owner.name,
      cell: (partnership) => <Link to={`/admin/organizations/${partnership.owner.hashId}/partnerships`}>{partnership.owner.name}</Link>,
    },
    {
      header: t('device.partnerships.partner'),
      text: (partnership) => partnership.partner.name,
      cell: (partnership) => <Link to={`/admin/organizations/${partnership.partner.hashId}/general`}>{partnership.partner.name}</Link>,
    },
    { header: t('device.partnerships.role'), text: role },
    { header: t('device.partnerships.devices'), text: devices },
    { header: t('device.partnerships.description'), text: (partnership) => partnership.description },
  ];
  return (
    <Panel>
      <ShortList
        title={t('device.partnerships.title')}
        columns={columns}
        rows={device.partnerships}
        rowKey={(partnership) => partnership.hashId}
        empty={t('device.partnerships.empty')}
        exportName={`device-${device.hashId}-partnerships`}
      />
    </Panel>
  );
}
