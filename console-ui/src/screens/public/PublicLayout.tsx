import type { ReactNode } from 'react';
import { Outlet } from 'react-router-dom';
import styled from 'styled-components';
import type { Tone } from '../../theme/theme';

/** The frame of the screens before sign-in: a card in the middle of the page. */
export function PublicLayout() {
  return (
    <Page>
      <Card>
        <Outlet />
      </Card>
    </Page>
  );
}

/** A message inside a form (a refused sign-in, a sent link). */
export function FormMessage({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <Message role={tone === 'error' ? 'alert' : 'status'} $tone={tone}>
      {children}
    </Message>
  );
}

export const Actions = styled.div`
  display: flex;
  flex-direction: column;
  gap: 8px;
  margin-top: 8px;
`;

const Page = styled.div`
  display: flex;
  align-items: center;
  justify-content: center;
  min-height: 100%;
  padding: 24px 12px;
`;

const Card = styled.div`
  width: 100%;
  max-width: 420px;
  padding: 28px 24px;
  border-radius: ${({ theme }) => theme.radius * 1.5}px;
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: 0 8px 32px rgba(23, 33, 47, 0.08);
`;

const Message = styled.p<{ $tone: Tone }>`
  margin: 0 0 14px;
  padding: 10px 12px;
  border-radius: 6px;
  border-left: 4px solid ${({ theme, $tone }) => theme.colors[$tone]};
  background: ${({ theme }) => theme.colors.background};
`;
