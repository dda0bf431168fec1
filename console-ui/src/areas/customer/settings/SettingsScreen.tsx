import styled from 'styled-components';
import { useSession } from '../../../session/useSession';
import { useMessages } from '../../../i18n/messages';
import { Facts } from '../access/Facts';
import { TwoFactorSettings } from './TwoFactorSettings';

/** /settings: the signed-in user's profile (read-only: no profile writes exist for customers) and two-factor. */
export function SettingsScreen() {
  const t = useMessages();
  const { profile } = useSession();
  return (
    <section>
      <h1>{t('settings.title')}</h1>
      <h2>{t('settings.profile')}</h2>
      {profile !== null && (
        <Facts>
          <dt>{t('settings.name')}</dt>
          <dd data-testid="profile-name">{profile.user.name}</dd>
          <dt>{t('settings.email')}</dt>
          <dd data-testid="profile-email">{profile.user.email}</dd>
          <dt>{t('settings.organization')}</dt>
          <dd data-testid="profile-organization">{profile.organization.name}</dd>
        </Facts>
      )}
      <Divider />
      <TwoFactorSettings />
    </section>
  );
}

const Divider = styled.hr`
  margin: 24px 0;
  border: none;
  border-top: 1px solid ${({ theme }) => theme.colors.border};
`;
