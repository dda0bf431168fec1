import { useApolloClient } from '@apollo/client/react';
import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from '../../../components/Button';
import { DeviceGroupListDocument, type DeviceGroupListScreen_GroupFragment } from './DeviceGroupListScreen.generated';
import { useMessages } from '../../../i18n/messages';
import { ListScreen, type ListColumn, type ListFilter, type ListPageLoader } from '../../../lists/ListScreen';
import { usePermissions } from '../../../session/usePermissions';

type Row = DeviceGroupListScreen_GroupFragment;

/** The staff device group list (/admin/device-groups): by name and organisation, newest first. */
export function DeviceGroupListScreen() {
  const t = useMessages();
  const client = useApolloClient();
  const navigate = useNavigate();
  const { may } = usePermissions();
  const loadPage = useCallback<ListPageLoader<Row>>(
    async (filters, offset, rowsPerPage) => {
      const { data } = await client.query({
        query: DeviceGroupListDocument,
        variables: { filter: filters.filter, organizationHashId: filters.organizationHashId, offset, rowsPerPage },
        fetchPolicy: 'no-cache',
      });
      return data?.deviceGroups ?? { rows: [], nextPageOffset: null };
    },
    [client],
  );
  const filters = useMemo<ListFilter[]>(
    () => [
      { name: 'filter', label: t('deviceGroup.filter.filter') },
      { name: 'organizationHashId', label: t('deviceGroup.filter.organizationHashId') },
    ],
    [t],
  );
  const columns = useMemo<ListColumn<Row>[]>(
    () => [
      { header: t('deviceGroup.list.name'), width: 'minmax(140px, 2fr)', text: (row) => row.name },
      { header: t('deviceGroup.list.organization'), width: 'minmax(120px, 2fr)', text: (row) => row.organization.name, optional: true },
      { header: t('deviceGroup.list.devices'), width: '90px', text: (row) => String(row.deviceCount) },
      {
        header: t('deviceGroup.list.apiKeys'),
        width: 'minmax(120px, 2fr)',
        text: (row) => row.apiKeys.map((key) => key.name).join(', '),
        optional: true,
      },
    ],
    [t],
  );

  return (
    <ListScreen
      title={t('deviceGroups.title')}
      filters={filters}
      columns={columns}
      loadPage={loadPage}
      rowKey={(row) => row.hashId}
      rowLink={(row) => `/admin/device-groups/${row.hashId}/general`}
      exportName="device-groups"
      empty={t('deviceGroup.list.empty')}
      actions={
        <Button permitted={may('deviceGroup.create')} onClick={() => navigate('/admin/device-groups/add')}>
          {t('deviceGroup.add')}
        </Button>
      }
    />
  );
}
