import type { ReactNode } from 'react';
import styled from 'styled-components';
import { useMessages } from '../i18n/messages';
import { Button } from './Button';

export interface LoadFailedProps {
  /** What could not be loaded ("The list could not be loaded."). */
  message: string;
  onRetry: () => void;
  /** More under the retry (a way back to the list). */
  children?: ReactNode;
}

/** What a screen or list shows instead of what it could not load: the message and Try again. */
export function LoadFailed({ message, onRetry, children }: LoadFailedProps) {
  const t = useMessages();
  return (
    <Failed role="alert">
      <p>{message}</p>
      <Button variant="text" onClick={onRetry}>
        {t('action.retry')}
      </Button>
      {children}
    </Failed>
  );
}

const Failed = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 8px;
  padding: 24px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius}px;
  p {
    margin: 0;
  }
`;
