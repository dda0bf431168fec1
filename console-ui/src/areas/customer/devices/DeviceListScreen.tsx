import { useApolloClient, useQuery } from '@apollo/client/react';
import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import styled from 'styled-components';
import { Chip, ChipGroup } from '../../../components/Chip';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';
import { formatPower } from '../../../format/power';
import { CustomerDeviceListDocument, DeviceCountsDocument, type DeviceListScreen_DeviceFragment, type DeviceStatus } from './DeviceListScreen.generated';
import { useMessages } from '../../../i18n/messages';
import { pageSizeAt } from '../../../devices/device-page-size';
import { usePagedRows } from '../../../devices/usePagedRows';
import { VirtualList, type VirtualListColumn } from '../../../components/VirtualList';
import { OnlineState } from '../../../devices/OnlineState';
import { CsvExportButton } from '../../../lists/CsvExportButton';
import type { ListColumn } from '../../../lists/ListScreen';

/** The status filter as it reads in the address (console.md section 7) and in GraphQL. */
const statuses = {
  operational: 'OPERATIONAL',
  'operational-with-issues': 'OPERATIONAL_WITH_ISSUES',
  'non-operational': 'NON_OPERATIONAL',
} as const satisfies Record<string, DeviceStatus>;
type StatusParam = keyof typeof statuses;

function isStatusParam(value: string | null): value is StatusParam {
  return value !== null && value in statuses;
}

/** The customer's device list (/teleports): a status filter with the counts, the devices virtualised. */
export function DeviceListScreen() {
  const t = useMessages();
  const client = useApolloClient();
  const showError = useApolloErrorSnackbar();
  const [search, setSearch] = useSearchParams();
  const statusParam = search.get('status');
  const status = isStatusParam(statusParam) ? statuses[statusParam] : null;
  const counts = useQuery(DeviceCountsDocument, { fetchPolicy: 'cache-and-network' });

  const loadPage = useCallback(
    async (offset: string | null, rowsPerPage = pageSizeAt(offset)) => {
      const { data } = await client.query({
        query: CustomerDeviceListDocument,
        variables: { status, offset, rowsPerPage },
        fetchPolicy: 'no-cache',
      });
      return data?.devices ?? { rows: [], nextPageOffset: null };
    },
    [client, status],
  );
  const list = usePagedRows<DeviceListScreen_DeviceFragment>(status ?? 'all', loadPage);
  useEffect(() => {
    if (list.error !== null) {
      showError(list.error);
    }
  }, [list.error, showError]);

  const csvColumns = useMemo<ListColumn<DeviceListScreen_DeviceFragment>[]>(
    () => [
      { header: t('device.list.name'), width: 'minmax(140px, 2fr)', text: (row) => row.name },
      { header: t('device.list.identifier'), width: 'minmax(120px, 2fr)', text: (row) => row.identifier, optional: true },
      { header: t('device.list.organization'), width: 'minmax(120px, 1.5fr)', text: (row) => row.organization?.name ?? '', optional: true },
      { header: t('device.list.power'), width: '120px', text: (row) => formatPower(row.nominalActivePowerSum), optional: true },
      {
        header: t('device.list.state'),
        width: '90px',
        text: (row) => t(row.isOnline ? 'device.online' : 'device.offline'),
        cell: (row) => <OnlineState online={row.isOnline} onlineText={t('device.online')} offlineText={t('device.offline')} />,
      },
    ],
    [t],
  );
  const columns = useMemo<VirtualListColumn<DeviceListScreen_DeviceFragment>[]>(
    () => csvColumns.map((column) => ({ ...column, cell: column.cell ?? column.text })),
    [csvColumns],
  );

  const total = counts.data?.deviceCount;
  const choices: { param: StatusParam | null; label: string }[] = [
    { param: null, label: t('device.status.all', { count: total?.totalCount ?? '…' }) },
    { param: 'operational', label: t('device.status.operational', { count: total?.operationalCount ?? '…' }) },
    { param: 'operational-with-issues', label: t('device.status.operationalWithIssues', { count: total?.operationalWithIssuesCount ?? '…' }) },
    { param: 'non-operational', label: t('device.status.nonOperational', { count: total?.inactiveCount ?? '…' }) },
  ];
  const chosen = isStatusParam(statusParam) ? statusParam : null;

  return (
    <section>
      <h1>{t('teleports.title')}</h1>
      <ChipGroup role="group" aria-label={t('device.status.label')}>
        {choices.map((choice) => (
          <Chip
            key={choice.param ?? 'all'}
            aria-pressed={chosen === choice.param}
            onClick={() => setSearch(choice.param === null ? {} : { status: choice.param })}
          >
            {choice.label}
          </Chip>
        ))}
      </ChipGroup>
      <CountBar>
        <Count data-testid="device-count">{list.count === null ? t('device.list.loading') : t('device.list.count', { count: list.count })}</Count>
        <CsvExportButton loadPage={loadPage} columns={csvColumns} fileName="teleports" />
      </CountBar>
      <VirtualList
        label={t('teleports.title')}
        rows={list.rows}
        columns={columns}
        rowKey={(row) => row.hashId}
        rowLink={(row) => `/teleports/${row.hashId}/general`}
        onNearEnd={list.loadMore}
        empty={list.loading ? t('device.list.loading') : t('device.list.empty')}
      />
    </section>
  );
}

const CountBar = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 8px;
`;

const Count = styled.p`
  margin: 0 0 8px;
  color: ${({ theme }) => theme.colors.textMuted};
`;
