import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import styled from 'styled-components';

export interface ObjectTab {
  /** The tab's path (absolute, or below the object). */
  to: string;
  label: string;
}

export interface ObjectFrameProps {
  title: string;
  /** Beside the title: a state, a badge. */
  aside?: ReactNode;
  /** Under the title: an identifier, the organisation. */
  subtitle?: ReactNode;
  /** Controls on the title's line (delete, ...). */
  actions?: ReactNode;
  tabs: readonly ObjectTab[];
  children: ReactNode;
}

/** An object's screen (a device, an organisation, a group): its title, the tabs, the tab shown. */
export function ObjectFrame({ title, aside, subtitle, actions, tabs, children }: ObjectFrameProps) {
  return (
    <section>
      <Header>
        <h1>{title}</h1>
        {aside}
        {actions !== undefined && <Actions>{actions}</Actions>}
      </Header>
      {subtitle !== undefined && <Subtitle data-testid="object-subtitle">{subtitle}</Subtitle>}
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

const Actions = styled.div`
  margin-left: auto;
  display: flex;
  gap: 8px;
`;

const Subtitle = styled.p`
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
