import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { Button } from '../../../components/Button';
import { CustomerPartnershipsDocument, type PartnershipKind, type PartnershipRowFragment } from '../../../graphql/operations';
import { useMessages } from '../../../i18n/messages';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';

/** Rows asked per page: the API's most, so an organisation's partnerships rarely take two calls. */
export const partnershipPageSize = 500;

interface Loaded {
  rows: readonly PartnershipRowFragment[];
  next: string | null;
  loading: boolean;
}

/** The partnerships of one side, a page at a time; answers for another side are dropped. */
function usePartnerships(kind: PartnershipKind) {
  const client = useApolloClient();
  const showError = useApolloErrorSnackbar();
  const [loaded, setLoaded] = useState<Loaded & { kind: PartnershipKind }>({ kind, rows: [], next: null, loading: true });

  const load = useCallback(
    async (offset: string | null) => {
      setLoaded((now) => (now.kind === kind ? { ...now, loading: true } : { kind, rows: [], next: null, loading: true }));
      try {
        const { data } = await client.query({ query: CustomerPartnershipsDocument, variables: { kind, offset, rowsPerPage: partnershipPageSize }, fetchPolicy: 'no-cache' });
        const page = data?.partnerships ?? { rows: [], nextPageOffset: null };
        setLoaded((now) => (now.kind === kind ? { kind, rows: [...now.rows, ...page.rows], next: page.nextPageOffset, loading: false } : now));
      } catch (error) {
        setLoaded((now) => (now.kind === kind ? { ...now, loading: false } : now));
        showError(error);
      }
    },
    [client, kind, showError],
  );

  useEffect(() => {
    void load(null);
  }, [load]);

  const current = loaded.kind === kind ? loaded : { rows: [], next: null, loading: true };
  return { ...current, loadMore: () => (current.next === null || current.loading ? undefined : void load(current.next)) };
}

/**
 * The partnerships where the user's organisation is the owner (OWN: who sees our teleports)
 * or the partner (ACCEPTED: whose teleports we see): the other organisation, the role and the
 * teleports shared, all or the listed ones.
 */
export function PartnershipList({ kind }: { kind: PartnershipKind }) {
  const t = useMessages();
  const { rows, next, loading, loadMore } = usePartnerships(kind);
  const own = kind === 'OWN';
  return (
    <>
      <p>{own ? t('access.partnerships.own.help') : t('access.partnerships.accepted.help')}</p>
      <Table aria-label={own ? t('accessManagement.myPartnerships') : t('accessManagement.acceptedPartnerships')}>
        <thead>
          <tr>
            <th scope="col">{own ? t('access.partnerships.partner') : t('access.partnerships.owner')}</th>
            <th scope="col">{t('access.partnerships.role')}</th>
            <th scope="col">{t('access.partnerships.devices')}</th>
            <th scope="col">{t('access.partnerships.description')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.hashId}>
              <td>{own ? row.partner.name : row.owner.name}</td>
              <td>{t(`access.role.${row.role}`)}</td>
              <td>
                <SharedDevices partnership={row} />
              </td>
              <td>{row.description}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      {rows.length === 0 && <p>{loading ? t('access.loading') : t('access.partnerships.empty')}</p>}
      {next !== null && (
        <Button variant="text" loading={loading} onClick={loadMore}>
          {t('access.partnerships.more')}
        </Button>
      )}
    </>
  );
}

/** All teleports, or the listed ones as links to their screens (both sides may open them). */
function SharedDevices({ partnership }: { partnership: PartnershipRowFragment }) {
  const t = useMessages();
  if (partnership.allDevices) {
    return <>{t('access.partnerships.allDevices')}</>;
  }
  return (
    <details>
      <summary>{t('access.partnerships.someDevices', { count: partnership.deviceCount })}</summary>
      <DeviceLinks>
        {partnership.deviceHashIds.map((hashId) => (
          <li key={hashId}>
            <Link to={`/teleports/${hashId}/general`}>{hashId}</Link>
          </li>
        ))}
      </DeviceLinks>
    </details>
  );
}

const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  margin-bottom: 12px;
  th,
  td {
    padding: 8px;
    text-align: left;
    vertical-align: top;
    border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  }
  th {
    color: ${({ theme }) => theme.colors.textMuted};
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
`;

const DeviceLinks = styled.ul`
  margin: 4px 0 0;
  padding-left: 18px;
  font-family: monospace;
`;
