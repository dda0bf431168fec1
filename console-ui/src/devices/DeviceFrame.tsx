import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import styled from 'styled-components';
import { useMessages } from '../i18n/messages';
import { OnlineState } from './OnlineState';

export interface DeviceTab {
  /** The tab's path below the device. */
  to: string;
  label: string;
}

export interface DeviceFrameProps {
  name: string;
  identifier: string;
  online: boolean;
  tabs: readonly DeviceTab[];
  children: ReactNode;
}

/** A device's screen in either area: its name, identifier and state, the tabs, the tab shown. */
export function DeviceFrame({ name, identifier, online, tabs, children }: DeviceFrameProps) {
  const t = useMessages();
  return (
    <section>
      <Header>
        <h1>{name === '' ? identifier : name}</h1>
        <OnlineState online={online} onlineText={t('device.online')} offlineText={t('device.offline')} />
      </Header>
      <Identifier data-testid="device-identifier">{identifier}</Identifier>
      <Tabs>
        {tabs.map((tab) => (
          <NavLink key={tab.to} to={tab.to}>
            {tab.label}
          </NavLink>
        ))}
      </Tabs>
      {children}
    </section>
  );
}

const Header = styled.div`
  display: flex;
  align-items: baseline;
  gap: 16px;
  flex-wrap: wrap;
  h1 {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

const Identifier = styled.p`
  margin: 4px 0 12px;
  color: ${({ theme }) => theme.colors.textMuted};
  overflow-wrap: anywhere;
`;

const Tabs = styled.nav`
  display: flex;
  gap: 4px;
  overflow-x: auto;
  margin-bottom: 16px;
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  a {
    padding: 10px 14px;
    color: ${({ theme }) => theme.colors.textMuted};
    text-decoration: none;
    border-bottom: 2px solid transparent;
    white-space: nowrap;
  }
  a.active {
    color: ${({ theme }) => theme.colors.primary};
    border-bottom-color: ${({ theme }) => theme.colors.primary};
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
`;

/** A panel of a tab: a titled card. */
export const Panel = styled.section`
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius}px;
  padding: 16px;
  margin-bottom: 16px;
  min-width: 0;
  h2 {
    margin: 0 0 12px;
    font-size: 18px;
  }
`;
