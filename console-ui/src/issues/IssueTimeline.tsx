import type { ReactNode } from 'react';
import styled from 'styled-components';
import { AuditEntry } from '../components/AuditEntry';
import type { LinkTo } from '../components/DiffList';
import { TimelineItem, TimelineList } from '../components/TimelineItem';
import type { IssueTimeline_ItemFragment } from './IssueTimeline.generated';
import type { IssueMessageSource } from '../graphql/schema-types';
import { useMessages, type MessageKey } from '../i18n/messages';

export type IssueTimelineMessage = NonNullable<IssueTimeline_ItemFragment['message']>;

const sourceLabels: Record<IssueMessageSource, MessageKey> = {
  MONITORING: 'issue.source.MONITORING',
  CLOUD: 'issue.source.CLOUD',
  USER: 'issue.source.USER',
  INCOMING_EMAIL: 'issue.source.INCOMING_EMAIL',
  GITHUB: 'issue.source.GITHUB',
};

/** The key of an item: where it stands in the timeline. */
export function timelineItemKey(item: IssueTimeline_ItemFragment): string {
  return item.cursor;
}

function MessageItem({ message, actions }: { message: IssueTimelineMessage; actions?: ReactNode }) {
  const t = useMessages();
  const from = message.emailHeaders === null ? null : t('issue.message.email', { from: message.emailHeaders.from });
  return (
    <TimelineItem
      title={message.user?.name ?? from ?? t(sourceLabels[message.source])}
      at={message.createdAt}
      internal={message.isInternal}
      actions={actions}
      testId="issue-message"
    >
      {message.to.length > 0 && <Recipients>{t('issue.message.to', { to: message.to.join(', ') })}</Recipients>}
      {message.cc.length > 0 && <Recipients>{t('issue.message.cc', { cc: message.cc.join(', ') })}</Recipients>}
      <Text>{message.message}</Text>
      {message.files.length > 0 && (
        <Files aria-label={t('issue.message.files')}>
          {message.files.map((file) => (
            <li key={file.identifier}>
              <a href={file.url} target="_blank" rel="noreferrer">
                {file.name}
              </a>
            </li>
          ))}
        </Files>
      )}
    </TimelineItem>
  );
}

export interface IssueTimelineProps {
  items: readonly IssueTimeline_ItemFragment[];
  linkTo?: LinkTo;
  /** Controls beside a message (staff edit internal messages). */
  messageActions?: (message: IssueTimelineMessage) => ReactNode;
}

/** An issue's timeline, oldest first: its messages and the audit entries of its changes. */
export function IssueTimeline({ items, linkTo, messageActions }: IssueTimelineProps) {
  const t = useMessages();
  return (
    <TimelineList aria-label={t('issue.timeline')}>
      {items.map((item) => {
        if (item.message !== null) {
          return <MessageItem key={timelineItemKey(item)} message={item.message} actions={messageActions?.(item.message)} />;
        }
        if (item.auditEntry !== null) {
          return <AuditEntry key={timelineItemKey(item)} entry={item.auditEntry} linkTo={linkTo} />;
        }
        return null;
      })}
    </TimelineList>
  );
}

const Text = styled.p`
  margin: 6px 0 0;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
`;

const Recipients = styled.p`
  margin: 2px 0 0;
  font-size: 13px;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Files = styled.ul`
  margin: 6px 0 0;
  padding-left: 18px;
  font-size: 14px;
`;
