import { useQuery } from '@apollo/client/react';
import { NavLink } from 'react-router-dom';
import styled from 'styled-components';
import { DeviceCountsDocument, MyOrganizationDocument } from '../../../graphql/operations';
import { useMessages, type MessageKey } from '../../../i18n/messages';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { Facts } from './Facts';
import { PartnershipList } from './PartnershipList';

/** The tabs of /access-management (console.md section 2), as they read in the address. */
export const accessTabs = ['my-organization', 'my-partnerships', 'accepted-partnerships'] as const;
export type AccessTab = (typeof accessTabs)[number];

const tabTitles: Record<AccessTab, MessageKey> = {
  'my-organization': 'accessManagement.myOrganization',
  'my-partnerships': 'accessManagement.myPartnerships',
  'accepted-partnerships': 'accessManagement.acceptedPartnerships',
};

/**
 * /access-management/{tab}: the user's organisation and what the user may do there, and the
 * partnerships on either side. Read-only: customers may list partnerships but not change them
 * (console.md section 6); Gridport's staff set them up.
 */
export function AccessManagementScreen({ tab }: { tab: AccessTab }) {
  const t = useMessages();
  return (
    <section>
      <h1>{t('accessManagement.title')}</h1>
      <Tabs aria-label={t('access.tabs')}>
        {accessTabs.map((each) => (
          <NavLink key={each} to={`/access-management/${each}`}>
            {t(tabTitles[each])}
          </NavLink>
        ))}
      </Tabs>
      <h2>{t(tabTitles[tab])}</h2>
      {tab === 'my-organization' && <MyOrganization />}
      {tab === 'my-partnerships' && <PartnershipList kind="OWN" />}
      {tab === 'accepted-partnerships' && <PartnershipList kind="ACCEPTED" />}
    </section>
  );
}

function MyOrganization() {
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
        <dd data-testid="organization-type">{organization.type === null ? t('access.organization.type.none') : t(`access.organization.type.${organization.type}`)}</dd>
      </Facts>
      <h3>{t('access.rights.title')}</h3>
      <ul data-testid="rights">
        {actor.rights.includes('CUSTOMER_READ') && <li>{t('access.rights.read')}</li>}
        <li>{canWrite ? t('access.rights.write') : t('access.rights.readOnly')}</li>
      </ul>
      {total !== undefined && (
        <p data-testid="visible-devices">{t('access.devices', { count: total.totalCount, operational: total.operationalCount, inactive: total.inactiveCount })}</p>
      )}
    </>
  );
}

const Tabs = styled.nav`
  display: flex;
  gap: 4px;
  margin-bottom: 16px;
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  a {
    padding: 8px 14px;
    color: ${({ theme }) => theme.colors.textMuted};
    text-decoration: none;
    border-bottom: 2px solid transparent;
  }
  a.active {
    color: ${({ theme }) => theme.colors.text};
    border-bottom-color: ${({ theme }) => theme.colors.primary};
  }
`;
