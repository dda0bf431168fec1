import { useApolloClient } from '@apollo/client/react';
import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { organizationTypes } from '../../../../../contracts/organization';
import { Button } from '../../../components/Button';
import { pageSizeAt } from '../../../devices/device-page-size';
import { AdminOrganizationListDocument, type OrganizationListScreen_OrganizationFragment } from './OrganizationListScreen.generated';
import { useMessages, type MessageKey } from '../../../i18n/messages';
import { ListScreen, type ListColumn, type ListFilter, type ListPageLoader } from '../../../lists/ListScreen';
import { usePermissions } from '../../../session/usePermissions';
import { graphqlOrganizationType, organizationTypeOf } from './organization-form';

type Row = OrganizationListScreen_OrganizationFragment;

/** The staff organisation list (/admin/organizations): by name and type, newest first, each row opening the organisation. */
export function OrganizationListScreen() {
  const t = useMessages();
  const client = useApolloClient();
  const navigate = useNavigate();
  const { may } = usePermissions();
  const loadPage = useCallback<ListPageLoader<Row>>(
    async ({ filter, type }, offset, rowsPerPage) => {
      const { data } = await client.query({
        query: AdminOrganizationListDocument,
        // An unknown type in the address lists every type rather than failing the list.
        variables: { filter, type: graphqlOrganizationType(type), offset, rowsPerPage: rowsPerPage ?? pageSizeAt(offset) },
        fetchPolicy: 'no-cache',
      });
      return data?.organizations ?? { rows: [], nextPageOffset: null };
    },
    [client],
  );
  const filters = useMemo<ListFilter[]>(
    () => [
      { name: 'filter', label: t('organizations.filter.filter') },
      {
        name: 'type',
        label: t('organizations.filter.type'),
        options: [
          { value: '', label: t('organizations.filter.anyType') },
          ...organizationTypes.map((type) => ({ value: type, label: t(`organizations.type.${type}` as MessageKey) })),
        ],
      },
    ],
    [t],
  );
  const columns = useMemo<ListColumn<Row>[]>(() => {
    const typeText = (row: Row) => {
      const type = organizationTypeOf(row.type);
      return type === null ? '' : t(`organizations.type.${type}` as MessageKey);
    };
    return [
      { header: t('organizations.list.name'), width: 'minmax(160px, 3fr)', text: (row) => row.name },
      { header: t('organizations.list.type'), width: 'minmax(120px, 1.5fr)', text: typeText },
      { header: t('organizations.list.provider'), width: '90px', text: (row) => t(row.isProvider ? 'organizations.yes' : 'organizations.no'), optional: true },
      {
        header: t('organizations.list.invoiceFrequency'),
        width: '140px',
        text: (row) => t(row.invoiceFrequency === 'DAILY' ? 'organizations.frequency.daily' : 'organizations.frequency.monthly'),
        optional: true,
      },
      {
        header: t('organizations.list.created'),
        width: '120px',
        // The export keeps the exact time; the screen shows the day.
        text: (row) => row.createdAt,
        cell: (row) => <time dateTime={row.createdAt}>{new Date(row.createdAt).toLocaleDateString()}</time>,
        optional: true,
      },
    ];
  }, [t]);

  return (
    <ListScreen
      title={t('organizations.title')}
      filters={filters}
      columns={columns}
      loadPage={loadPage}
      rowKey={(row) => row.hashId}
      rowLink={(row) => `/admin/organizations/${row.hashId}/general`}
      exportName="organisations"
      empty={t('organizations.list.empty')}
      actions={
        <Button permitted={may('organization.create')} onClick={() => navigate('/admin/organizations/add')}>
          {t('organizations.add')}
        </Button>
      }
    />
  );
}
