import { useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import styled from 'styled-components';
import { Button } from '../components/Button';
import { useErrorSnackbar } from '../components/useErrorSnackbar';
import { useMessages, type MessageKey } from '../i18n/messages';
import { useSession } from '../session/useSession';
import { Icon, type IconName } from '../theme/Icon';
import { mobile } from '../theme/theme';
import { useConsoleServices } from './console-services';

/** An entry of an area's navigation. */
export interface NavItem {
  to: string;
  label: MessageKey;
  icon: IconName;
}

/** The frame of a signed-in area: the top bar with the user and sign-out, the area's navigation, the screen. */
export function AreaShell({ nav, label }: { nav: readonly NavItem[]; label: string }) {
  const t = useMessages();
  const { profile } = useSession();
  const { session } = useConsoleServices();
  const navigate = useNavigate();
  const showError = useErrorSnackbar();
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const [menuPath, setMenuPath] = useState(location.pathname);
  // The phone menu closes when a navigation happens.
  if (menuPath !== location.pathname) {
    setMenuPath(location.pathname);
    setMenuOpen(false);
  }

  const signOut = async () => {
    try {
      await session.logout();
    } catch (error) {
      showError(error);
    }
    await navigate('/login');
  };

  return (
    <Frame>
      <TopBar>
        <MenuButton type="button" aria-label="Menu" aria-expanded={menuOpen} onClick={() => setMenuOpen((open) => !open)}>
          <Icon name="menu" />
        </MenuButton>
        <Brand>
          {t('app.name')} <AreaLabel>{label}</AreaLabel>
        </Brand>
        <Spacer />
        <User data-testid="signed-in-user">
          <span>{profile?.user.name}</span>
          <Muted>{profile?.organization.name}</Muted>
        </User>
        <Button variant="text" onClick={() => void signOut()}>
          <Icon name="logout" />
          {t('action.signOut')}
        </Button>
      </TopBar>
      <Body>
        <Nav aria-label={label} $open={menuOpen}>
          {nav.map((item) => (
            <NavLink key={item.to} to={item.to}>
              <Icon name={item.icon} />
              {t(item.label)}
            </NavLink>
          ))}
        </Nav>
        <Main>
          <Outlet />
        </Main>
      </Body>
    </Frame>
  );
}

const Frame = styled.div`
  display: flex;
  flex-direction: column;
  min-height: 100%;
`;

const TopBar = styled.header`
  display: flex;
  align-items: center;
  gap: 12px;
  height: 56px;
  padding: 0 16px;
  background: ${({ theme }) => theme.colors.primary};
  color: ${({ theme }) => theme.colors.onPrimary};
  button {
    color: inherit;
  }
`;

const MenuButton = styled.button`
  display: none;
  border: 0;
  background: transparent;
  color: inherit;
  ${mobile} {
    display: inline-flex;
  }
`;

const Brand = styled.div`
  font-weight: ${({ theme }) => theme.fontWeights.semibold};
  font-size: 18px;
`;

const AreaLabel = styled.span`
  font-weight: ${({ theme }) => theme.fontWeights.regular};
  font-size: 14px;
  opacity: 0.8;
`;

const Spacer = styled.div`
  flex: 1;
`;

const User = styled.div`
  display: flex;
  flex-direction: column;
  align-items: flex-end;
  line-height: 1.2;
  ${mobile} {
    display: none;
  }
`;

const Muted = styled.span`
  font-size: 12px;
  opacity: 0.8;
`;

const Body = styled.div`
  display: flex;
  flex: 1;
  ${mobile} {
    flex-direction: column;
  }
`;

const Nav = styled.nav<{ $open: boolean }>`
  display: flex;
  flex-direction: column;
  gap: 2px;
  width: 232px;
  padding: 12px 8px;
  background: ${({ theme }) => theme.colors.surface};
  border-right: 1px solid ${({ theme }) => theme.colors.border};
  a {
    display: flex;
    align-items: center;
    gap: 12px;
    padding: 8px 12px;
    border-radius: 6px;
    color: ${({ theme }) => theme.colors.text};
    text-decoration: none;
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
  a.active {
    background: rgba(31, 79, 214, 0.1);
    color: ${({ theme }) => theme.colors.primary};
  }
  ${mobile} {
    display: ${({ $open }) => ($open ? 'flex' : 'none')};
    width: 100%;
    border-right: 0;
    border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  }
`;

const Main = styled.main`
  flex: 1;
  min-width: 0;
  padding: 24px;
  ${mobile} {
    padding: 16px 12px;
  }
`;
