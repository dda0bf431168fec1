import { useApolloClient } from '@apollo/client/react';
import { useCallback, useMemo } from 'react';
import { formatEuro } from '../../../../../contracts/billing-invoice';
import { formatPower } from '../../../format/power';
import { AdminDeviceListDocument, type AdminDeviceListQueryVariables, type AdminDeviceListScreen_DeviceFragment } from './AdminDeviceListScreen.generated';
import { useMessages, type MessageKey } from '../../../i18n/messages';
import { pageSizeAt } from '../../../devices/device-page-size';
import { OnlineState } from '../../../devices/OnlineState';
import { ListScreen, type ListColumn, type ListFilter, type ListPageLoader } from '../../../lists/ListScreen';

/** Every filter of the admin device list (console.md section 7), as named in GraphQL and in the address. */
export const adminDeviceFilters = [
  'filter',
  'hashId',
  'deviceGroupHashId',
  'organizationHashId',
  'assetType',
  'assetIdentifier',
  'iccid',
  'imsi',
  'activeControlType',
  'activeControlIdentifier',
] as const;

type Row = AdminDeviceListScreen_DeviceFragment;

/** The staff device list (/admin/devices): every filter the API offers, the devices virtualised. */
export function AdminDeviceListScreen() {
  const t = useMessages();
  const client = useApolloClient();
  const loadPage = useCallback<ListPageLoader<Row>>(
    async (filters, offset, rowsPerPage) => {
      const variables: AdminDeviceListQueryVariables = { ...filters, offset, rowsPerPage: rowsPerPage ?? pageSizeAt(offset) };
      const { data } = await client.query({ query: AdminDeviceListDocument, variables, fetchPolicy: 'no-cache' });
      return data?.devices ?? { rows: [], nextPageOffset: null };
    },
    [client],
  );
  const filters = useMemo<ListFilter[]>(() => adminDeviceFilters.map((name) => ({ name, label: t(`device.filter.${name}` as MessageKey) })), [t]);
  const columns = useMemo<ListColumn<Row>[]>(() => {
    const yesNo = (value: boolean) => t(value ? 'device.yes' : 'device.no');
    return [
      { header: t('device.list.name'), width: 'minmax(140px, 2fr)', text: (row) => row.name },
      { header: t('device.list.identifier'), width: 'minmax(120px, 2fr)', text: (row) => row.identifier, optional: true },
      { header: t('device.list.organization'), width: 'minmax(120px, 1.5fr)', text: (row) => row.organization?.name ?? '', optional: true },
      { header: t('device.list.power'), width: '110px', text: (row) => formatPower(row.nominalActivePowerSum), optional: true },
      { header: t('device.list.production'), width: '90px', text: (row) => yesNo(row.inProduction), optional: true },
      { header: t('device.list.exposed'), width: '80px', text: (row) => yesNo(row.isExposedToCustomer), optional: true },
      {
        header: t('billing.usage.column'),
        width: 'minmax(150px, 1.2fr)',
        text: (row) =>
          row.billingUsage === null
            ? ''
            : t('billing.usage.cell', { units: row.billingUsage.unitCount, price: formatEuro(Math.round(row.billingUsage.monthlyPrice * 100)) }),
        optional: true,
      },
      {
        header: t('device.list.state'),
        width: '80px',
        text: (row) => t(row.isOnline ? 'device.online' : 'device.offline'),
        cell: (row) => <OnlineState online={row.isOnline} onlineText={t('device.online')} offlineText={t('device.offline')} />,
      },
    ];
  }, [t]);

  return (
    <ListScreen
      title={t('devices.title')}
      filters={filters}
      columns={columns}
      loadPage={loadPage}
      rowKey={(row) => row.hashId}
      rowLink={(row) => `/admin/devices/${row.hashId}/timeline`}
      exportName="devices"
      empty={t('device.list.empty')}
    />
  );
}
