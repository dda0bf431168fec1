import { useApolloClient } from '@apollo/client/react';
import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from '../../../components/Button';
import { AdminUserListDocument, type AdminUserListQueryVariables, type UserListScreen_UserFragment } from './UserListScreen.generated';
import { useMessages } from '../../../i18n/messages';
import { ListScreen, type ListColumn, type ListFilter, type ListPageLoader } from '../../../lists/ListScreen';
import { usePermissions } from '../../../session/usePermissions';
import { rightsText } from './rights';

/** The filters of the user list, as named in GraphQL and in the address. */
export const userListFilters = ['filter', 'organizationHashId'] as const;

type Row = UserListScreen_UserFragment;

/** The staff user list (/admin/users): by name or email and by organisation, each row to the user's page. */
export function UserListScreen() {
  const t = useMessages();
  const client = useApolloClient();
  const navigate = useNavigate();
  const { may } = usePermissions();
  const loadPage = useCallback<ListPageLoader<Row>>(
    async (filters, offset, rowsPerPage) => {
      const variables: AdminUserListQueryVariables = { ...filters, offset, rowsPerPage };
      const { data } = await client.query({ query: AdminUserListDocument, variables, fetchPolicy: 'no-cache' });
      return data?.users ?? { rows: [], nextPageOffset: null };
    },
    [client],
  );
  const filters = useMemo<ListFilter[]>(() => userListFilters.map((name) => ({ name, label: t(`user.filter.${name}`) })), [t]);
  const columns = useMemo<ListColumn<Row>[]>(
    () => [
      { header: t('user.list.name'), width: 'minmax(140px, 2fr)', text: (row) => row.name },
      { header: t('user.list.email'), width: 'minmax(160px, 2fr)', text: (row) => row.email },
      { header: t('user.list.organization'), width: 'minmax(120px, 1.5fr)', text: (row) => row.organization.name, optional: true },
      { header: t('user.list.rights'), width: 'minmax(120px, 1.5fr)', text: (row) => rightsText(t, row.rights), optional: true },
    ],
    [t],
  );
  return (
    <ListScreen
      title={t('users.title')}
      filters={filters}
      columns={columns}
      loadPage={loadPage}
      rowKey={(row) => row.hashId}
      rowLink={(row) => `/admin/users/${row.hashId}/general`}
      exportName="users"
      empty={t('user.list.empty')}
      actions={
        <Button permitted={may('userInvite.create')} onClick={() => navigate('/admin/user-invites/add')}>
          {t('userInvite.add')}
        </Button>
      }
    />
  );
}
