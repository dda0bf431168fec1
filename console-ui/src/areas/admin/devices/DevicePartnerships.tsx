import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { Button } from '../../../components/Button';
import { Panel } from '../../../devices/DeviceFrame';
import type { DevicePartnerships_DeviceFragment } from './DevicePartnerships.generated';
import { useMessages } from '../../../i18n/messages';
import { downloadCsv, toCsv, type CsvColumn } from '../../../lists/csv';
import { ShortTable } from './short-table';

type Partnership = DevicePartnerships_DeviceFragment['partnerships'][number];

/**
 * The partnerships through which the device is shared (all of the owner's devices, or this one
 * listed), each linked to its owner's partnerships tab, where it is edited.
 */
export function DevicePartnerships({ device }: { device: DevicePartnerships_DeviceFragment }) {
  const t = useMessages();
  const role = (partnership: Partnership) => t(partnership.role === 'OPERATOR' ? 'device.partnerships.operator' : 'device.partnerships.viewer');
  const devices = (partnership: Partnership) => t(partnership.allDevices ? 'device.partnerships.allDevices' : 'device.partnerships.listed');
  const columns: CsvColumn<Partnership>[] = [
    { header: t('device.partnerships.owner'), text: (partnership) => partnership.owner.name },
    { header: t('device.partnerships.partner'), text: (partnership) => partnership.partner.name },
    { header: t('device.partnerships.role'), text: role },
    { header: t('device.partnerships.devices'), text: devices },
    { header: t('device.partnerships.description'), text: (partnership) => partnership.description },
  ];
  return (
    <Panel>
      <Title>
        <h2>{t('device.partnerships.title')}</h2>
        <Button
          variant="text"
          disabled={device.partnerships.length === 0}
          onClick={() => downloadCsv(`device-${device.hashId}-partnerships.csv`, toCsv(columns, device.partnerships))}
        >
          {t('list.export')}
        </Button>
      </Title>
      {device.partnerships.length === 0 ? (
        <p>{t('device.partnerships.empty')}</p>
      ) : (
        <ShortTable aria-label={t('device.partnerships.title')}>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.header}>{column.header}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {device.partnerships.map((partnership) => (
              <tr key={partnership.hashId}>
                <td>
                  <Link to={`/admin/organizations/${partnership.owner.hashId}/partnerships`}>{partnership.owner.name}</Link>
                </td>
                <td>
                  <Link to={`/admin/organizations/${partnership.partner.hashId}/general`}>{partnership.partner.name}</Link>
                </td>
                <td>{role(partnership)}</td>
                <td>{devices(partnership)}</td>
                <td>{partnership.description}</td>
              </tr>
            ))}
          </tbody>
        </ShortTable>
      )}
    </Panel>
  );
}

const Title = styled.div`
  display: flex;
  justify-content: space-between;
  align-items: baseline;
`;
