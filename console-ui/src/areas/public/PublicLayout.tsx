import { Outlet } from 'react-router-dom';
import styled from 'styled-components';

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
