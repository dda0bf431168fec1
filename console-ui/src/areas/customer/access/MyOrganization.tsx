import { useQuery } from '@apollo/client/react';
import { useMemo } from 'react';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { MyOrganizationDocument, MyOrganizationMembersDocument, type MyOrganizationMembersQuery } from './MyOrganization.generated';
import { DeviceCountsDocument } from '../devices/DeviceListScreen.generated';
import { useMessages, type MessageKey } from '../../../i18n/messages';
import { ShortList, type ShortListColumn } from '../../../lists/ShortList';
import { Facts } from './Facts';

type MemberRow = MyOrganizationMembersQuery['users']['rows'][number];
type InviteRow = MyOrganizationMembersQuery['userInvites']['rows'][number];

/**
 * The my-organization tab: the user's organisation, what the user may do there, the teleports the
 * user may see, and the organisation's users and open invites.
 */
export function MyOrganization() {
  const t = useMessages();
  const me = useQuery(MyOrganizationDocument, { fetchPolicy: 'cache-and-network' });
  const counts = useQuery(DeviceCountsDocument, { fetchPolicy: 'cache-and-network' });
  useQueryErrorSnackbar(me.error);
  useQueryErrorSnackbar(counts.error);

  const actor = me.data?.me;
  if (actor === undefined) {
    return <p>{t('access.loading')}</p>;
  }
  const organization = actor?.organization ?? null;
  if (actor === null || organization === null) {
    return <p>{t('access.organization.none')}</p>;
  }
  const canWrite = actor.rights.includes('CUSTOMER_WRITE');
  const total = counts.data?.deviceCount;
  return (
    <>
      <Facts>
        <dt>{t('access.organization.name')}</dt>
        <dd data-testid="organization-name">{organization.name}</dd>
        <dt>{t('access.organization.type')}</dt>
        <dd data-testid="organization-type">
          {organization.type === null ? t('access.organization.type.none') : t(`access.organization.type.${organization.type}`)}
        </dd>
      </Facts>
      <h3>{t('access.rights.title')}</h3>
      <ul data-testid="rights">
        {actor.rights.includes('CUSTOMER_READ') && <li>{t('access.rights.read')}</li>}
        <li>{canWrite ? t('access.rights.write') : t('access.rights.readOnly')}</li>
      </ul>
      {total !== undefined && (
        <p data-testid="visible-devices">
          {t('access.devices', { count: total.totalCount, operational: total.operationalCount, inactive: total.inactiveCount })}
        </p>
      )}
      <Members />
    </>
  );
}

/**
 * The organisation's users and open invites, read-only: customers list them (console.md section
 * 6); Gridport's Ops invite, revoke and change rights, which the help text says.
 */
function Members() {
  const t = useMessages();
  const { data, error, refetch } = useQuery(MyOrganizationMembersDocument, { fetchPolicy: 'cache-and-network' });
  useQueryErrorSnackbar(error);
  const userColumns = useMemo<ShortListColumn<MemberRow>[]>(
    () => [
      { header: t('access.members.name'), text: (row) => row.name },
      { header: t('access.members.email'), text: (row) => row.email },
      {
        header: t('access.members.rights'),
        text: (row) => row.rights.map((right) => t(`access.members.right.${right}` as MessageKey)).join(', '),
      },
    ],
    [t],
  );
  const inviteColumns = useMemo<ShortListColumn<InviteRow>[]>(
    () => [
      { header: t('access.members.email'), text: (row) => row.email },
      {
        header: t('access.members.expires'),
        text: (row) => {
          const at = new Date(row.expiresAt);
          return at.getTime() <= Date.now() ? t('access.members.expired', { at: at.toLocaleString() }) : at.toLocaleString();
        },
      },
    ],
    [t],
  );
  const failed = error !== undefined;
  const retry = () => void refetch().catch(() => undefined);
  const more = (count: number) => <p>{t('access.members.more', { count })}</p>;
  return (
    <>
      <p data-testid="members-help">{t('access.members.help')}</p>
      <ShortList
        title={t('access.members.users')}
        columns={userColumns}
        rows={data?.users.rows}
        rowKey={(row) => row.hashId}
        failed={failed}
        onRetry={retry}
        empty={t('access.members.users.empty')}
        exportName="users"
        footer={data !== undefined && data.users.nextPageOffset !== null && more(data.users.rows.length)}
      />
      <ShortList
        title={t('access.members.invites')}
        columns={inviteColumns}
        rows={data?.userInvites.rows}
        rowKey={(row) => row.hashId}
        failed={failed}
        onRetry={retry}
        empty={t('access.members.invites.empty')}
        exportName="user-invites"
        footer={data !== undefined && data.userInvites.nextPageOffset !== null && more(data.userInvites.rows.length)}
      />
    </>
  );
}
