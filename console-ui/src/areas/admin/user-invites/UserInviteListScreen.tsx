import { useApolloClient } from '@apollo/client/react';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Button } from '../../../components/Button';
import { useConfirm } from '../../../components/ConfirmDialog';
import { Dialog } from '../../../components/Dialog';
import { useSnackbar } from '../../../components/Snackbars';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';
import {
  AdminUserInviteListDocument,
  type AdminUserInviteListQueryVariables,
  type UserInviteListScreen_InviteFragment,
} from './UserInviteListScreen.generated';
import { useMessages } from '../../../i18n/messages';
import { ListScreen, type ListColumn, type ListFilter, type ListPageLoader } from '../../../lists/ListScreen';
import { usePermissions } from '../../../session/usePermissions';
import { rightOfName, rightsText } from '../users/rights';
import { expiryText } from './invite-expiry';
import { useRevokeUserInvite } from './useRevokeUserInvite';

/** The filters of the invite list, as named in GraphQL and in the address. */
export const userInviteListFilters = ['filter', 'organizationHashId'] as const;

/** The address parameter naming the invite whose details (and Revoke) are open. */
const inviteParameter = 'invite';

type Row = UserInviteListScreen_InviteFragment;

/**
 * The open invites (/admin/user-invites): by email and organisation, with their rights and when
 * they expire. A row opens the invite's details over the list (named in the address, so the
 * filters stay), where Ops revoke it.
 */
export function UserInviteListScreen() {
  const t = useMessages();
  const client = useApolloClient();
  const navigate = useNavigate();
  const { may } = usePermissions();
  const [search, setSearch] = useSearchParams();
  // The list starts over (a new mount of ListScreen) after a revocation, without the revoked invite.
  const [revocations, setRevocations] = useState(0);
  // The rows loaded so far, for the details of the one opened; a count, so that the details of an
  // invite named by the address show once the page holding it arrives.
  const seen = useRef(new Map<string, Row>());
  const [, setSeenCount] = useState(0);
  const loadPage = useCallback<ListPageLoader<Row>>(
    async (filters, offset, rowsPerPage) => {
      const variables: AdminUserInviteListQueryVariables = { ...filters, offset, rowsPerPage };
      const { data } = await client.query({ query: AdminUserInviteListDocument, variables, fetchPolicy: 'no-cache' });
      const page = data?.userInvites ?? { rows: [], nextPageOffset: null };
      for (const row of page.rows) {
        seen.current.set(row.hashId, row);
      }
      setSeenCount(seen.current.size);
      return page;
    },
    [client],
  );
  const filters = useMemo<ListFilter[]>(() => userInviteListFilters.map((name) => ({ name, label: t(`userInvite.filter.${name}`) })), [t]);
  const columns = useMemo<ListColumn<Row>[]>(
    () => [
      { header: t('userInvite.list.email'), width: 'minmax(160px, 2fr)', text: (row) => row.email },
      { header: t('userInvite.list.organization'), width: 'minmax(120px, 1.5fr)', text: (row) => row.organization.name, optional: true },
      { header: t('userInvite.list.rights'), width: 'minmax(100px, 1fr)', text: (row) => rightsText(t, row.rights.map(rightOfName)), optional: true },
      { header: t('userInvite.list.expires'), width: 'minmax(150px, 1fr)', text: (row) => expiryText(t, row.expiresAt) },
    ],
    [t],
  );
  const linkTo = (hashId: string | null) => {
    const next = new URLSearchParams(search);
    if (hashId === null) {
      next.delete(inviteParameter);
    } else {
      next.set(inviteParameter, hashId);
    }
    return next;
  };
  const opened = search.get(inviteParameter);

  return (
    <>
      <ListScreen
        key={revocations}
        title={t('userInvites.title')}
        filters={filters}
        columns={columns}
        loadPage={loadPage}
        rowKey={(row) => row.hashId}
        rowLink={(row) => `/admin/user-invites?${linkTo(row.hashId).toString()}`}
        exportName="user-invites"
        empty={t('userInvite.list.empty')}
        actions={
          <Button permitted={may('userInvite.create')} onClick={() => navigate('/admin/user-invites/add')}>
            {t('userInvite.add')}
          </Button>
        }
      />
      {opened !== null && (
        <InviteDetails
          hashId={opened}
          invite={seen.current.get(opened)}
          onClose={() => setSearch(linkTo(null))}
          onRevoked={() => {
            setSearch(linkTo(null));
            setRevocations((count) => count + 1);
          }}
        />
      )}
    </>
  );
}

interface InviteDetailsProps {
  hashId: string;
  /** The invite as the list showed it; unknown when the address named one not loaded (yet). */
  invite: Row | undefined;
  onClose: () => void;
  onRevoked: () => void;
}

/** An invite's details over the list, with Revoke (Ops) after a confirmation. */
function InviteDetails({ hashId, invite, onClose, onRevoked }: InviteDetailsProps) {
  const t = useMessages();
  const { may } = usePermissions();
  const confirm = useConfirm();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const revoke = useRevokeUserInvite();
  const email = invite?.email ?? hashId;
  const onRevoke = async () => {
    const confirmed = await confirm({
      type: 'danger',
      title: t('userInvite.revoke.title'),
      message: t('userInvite.revoke.message', { email }),
      confirmText: t('userInvite.revoke'),
      waitForConfirm: true,
      onConfirm: async () => {
        try {
          await revoke(hashId);
        } catch (error) {
          // Shown here; the confirmation stays open to try again or cancel.
          showError(error);
          throw error;
        }
      },
    });
    if (confirmed) {
      snackbar.show({ tone: 'success', message: t('userInvite.revoked') });
      onRevoked();
    }
  };
  return (
    <Dialog
      title={invite === undefined ? t('userInvite.details.unknown', { hashId }) : t('userInvite.details.title', { email: invite.email })}
      onRequestClose={onClose}
      actions={
        <Button variant="danger" permitted={may('userInvite.revoke')} onClick={() => void onRevoke()}>
          {t('userInvite.revoke')}
        </Button>
      }
    >
      {invite !== undefined && (
        <dl>
          <dt>{t('userInvite.list.organization')}</dt>
          <dd>{invite.organization.name}</dd>
          <dt>{t('userInvite.list.rights')}</dt>
          <dd>{rightsText(t, invite.rights.map(rightOfName))}</dd>
          <dt>{t('userInvite.list.expires')}</dt>
          <dd>{expiryText(t, invite.expiresAt)}</dd>
        </dl>
      )}
    </Dialog>
  );
}
