import type { ReactNode } from 'react';
import styled from 'styled-components';
import { useMessages } from '../i18n/messages';

export interface TimelineItemProps {
  /** What happened: a change type, a message's sender. */
  title: ReactNode;
  /** Who did it, when known. */
  by?: string | null;
  /** When, as an ISO date. */
  at: string;
  /** An internal message: staff only, marked so. */
  internal?: boolean;
  /** Controls beside the title (edit a message). */
  actions?: ReactNode;
  children?: ReactNode;
  testId?: string;
}

/** One entry of a timeline (a device's audit entries, an issue's messages and changes): what, who, when, then its body. */
export function TimelineItem({ title, by, at, internal = false, actions, children, testId = 'timeline-entry' }: TimelineItemProps) {
  const t = useMessages();
  return (
    <Item data-testid={testId} $internal={internal}>
      <Head>
        <Title>{title}</Title>
        {internal && <Badge>{t('timeline.internal')}</Badge>}
        {by !== undefined && by !== null && by !== '' && <span>{t('audit.by', { name: by })}</span>}
        <time dateTime={at}>{new Date(at).toLocaleString()}</time>
        {actions !== undefined && <Actions>{actions}</Actions>}
      </Head>
      {children}
    </Item>
  );
}

/** What an empty timeline says: still loading, or nothing yet. */
export function TimelineEmpty({ loading }: { loading: boolean }) {
  const t = useMessages();
  return <Empty>{loading ? t('timeline.loading') : t('timeline.empty')}</Empty>;
}

const Empty = styled.p`
  color: ${({ theme }) => theme.colors.textMuted};
  margin: 0 0 8px;
`;

/** The list a timeline's items go in, newest first or oldest first as its owner orders them. */
export const TimelineList = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
`;

const Item = styled.li<{ $internal: boolean }>`
  padding: 8px 0 8px ${({ $internal }) => ($internal ? '10px' : '0')};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  border-left: ${({ theme, $internal }) => ($internal ? `3px solid ${theme.colors.warning}` : 'none')};
`;

const Head = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: baseline;
  gap: 4px 12px;
  span,
  time {
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const Title = styled.strong`
  font-weight: ${({ theme }) => theme.fontWeights.semibold};
`;

const Badge = styled.em`
  font-style: normal;
  font-size: 12px;
  padding: 0 6px;
  border-radius: 10px;
  color: ${({ theme }) => theme.colors.onPrimary};
  background: ${({ theme }) => theme.colors.warning};
`;

const Actions = styled.span`
  margin-left: auto;
`;
