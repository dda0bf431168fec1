import { NavLink } from 'react-router-dom';
import styled from 'styled-components';
import { useMessages, type MessageKey } from '../../../i18n/messages';
import { MessageDestinationList } from './MessageDestinationList';
import { MyOrganization } from './MyOrganization';
import { PartnershipList } from './PartnershipList';

/** The tabs of /access-management (console.md section 2), as they read in the address. */
export const accessTabs = ['my-organization', 'my-partnerships', 'accepted-partnerships', 'message-destinations'] as const;
export type AccessTab = (typeof accessTabs)[number];

const tabTitles: Record<AccessTab, MessageKey> = {
  'my-organization': 'accessManagement.myOrganization',
  'my-partnerships': 'accessManagement.myPartnerships',
  'accepted-partnerships': 'accessManagement.acceptedPartnerships',
  'message-destinations': 'accessManagement.messageDestinations',
};

/**
 * /access-management/{tab}: the user's organisation and what the user may do there, and the
 * partnerships on either side, and where its data is forwarded (message destinations). Read-only: customers may list partnerships but not change them
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
      {tab === 'message-destinations' && <MessageDestinationList />}
    </section>
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
