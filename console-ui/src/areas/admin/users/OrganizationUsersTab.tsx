import { useQuery } from '@apollo/client/react';
import { useMemo } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Button } from '../../../components/Button';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { OrganizationUsersDocument, type OrganizationUsersQuery } from './OrganizationUsersTab.generated';
import { useMessages } from '../../../i18n/messages';
import { ShortList, type ShortListColumn } from '../../../lists/ShortList';
import { usePermissions } from '../../../session/usePermissions';
import { expiryText } from '../user-invites/invite-expiry';
import { rightOfName, rightsText } from './rights';

type UserRow = OrganizationUsersQuery['users']['rows'][number];
type InviteRow = OrganizationUsersQuery['userInvites']['rows'][number];

/**
 * An organisation's users tab (/admin/organizations/{hashId}/users): its users and its open
 * invites, each exportable, and "Invite users" into it (Ops). An organisation with more than one
 * answer holds links to the full lists, filtered to it.
 */
export function OrganizationUsersTab() {
  const t = useMessages();
  const navigate = useNavigate();
  const { may } = usePermissions();
  const { hashId = '' } = useParams();
  const { data, error, refetch } = useQuery(OrganizationUsersDocument, { variables: { organizationHashId: hashId }, fetchPolicy: 'cache-and-network' });
  useQueryErrorSnackbar(error);
  const filtered = `organizationHashId=${encodeURIComponent(hashId)}`;

  const userColumns = useMemo<ShortListColumn<UserRow>[]>(
    () => [
      { header: t('user.list.name'), text: (row) => row.name, cell: (row) => <Link to={`/admin/users/${row.hashId}/general`}>{row.name}</Link> },
      { header: t('user.list.email'), text: (row) => row.email },
      { header: t('user.list.rights'), text: (row) => rightsText(t, row.rights) },
    ],
    [t],
  );
  const inviteColumns = useMemo<ShortListColumn<InviteRow>[]>(
    () => [
      {
        header: t('userInvite.list.email'),
        text: (row) => row.email,
        cell: (row) => <Link to={`/admin/user-invites?${filtered}&invite=${row.hashId}`}>{row.email}</Link>,
      },
      { header: t('userInvite.list.rights'), text: (row) => rightsText(t, row.rights.map(rightOfName)) },
      { header: t('userInvite.list.expires'), text: (row) => expiryText(t, row.expiresAt) },
    ],
    [t, filtered],
  );
  const failed = error !== undefined;
  const retry = () => void refetch().catch(() => undefined);

  return (
    <>
      <ShortList
        title={t('user.ofOrganization.title')}
        columns={userColumns}
        rows={data?.users.rows}
        rowKey={(row) => row.hashId}
        failed={failed}
        onRetry={retry}
        empty={t('user.ofOrganization.empty')}
        exportName={`users-${hashId}`}
        footer={
          data !== undefined &&
          data.users.nextPageOffset !== null && (
            <p>
              {t('user.ofOrganization.more', { count: data.users.rows.length })}{' '}
              <Link to={`/admin/users?${filtered}`}>{t('user.ofOrganization.allUsers')}</Link>
            </p>
          )
        }
      />
      <ShortList
        title={t('user.ofOrganization.invites')}
        columns={inviteColumns}
        rows={data?.userInvites.rows}
        rowKey={(row) => row.hashId}
        failed={failed}
        onRetry={retry}
        empty={t('user.ofOrganization.invites.empty')}
        exportName={`user-invites-${hashId}`}
        actions={
          <Button permitted={may('userInvite.create')} onClick={() => navigate(`/admin/user-invites/add?${filtered}`)}>
            {t('user.ofOrganization.invite')}
          </Button>
        }
        footer={
          data !== undefined &&
          data.userInvites.nextPageOffset !== null && (
            <p>
              {t('user.ofOrganization.more', { count: data.userInvites.rows.length })}{' '}
              <Link to={`/admin/user-invites?${filtered}`}>{t('user.ofOrganization.allInvites')}</Link>
            </p>
          )
        }
      />
    </>
  );
}
