import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import type { IssueFacts_IssueFragment } from './IssueFacts.generated';
import { useMessages, type Translate } from '../i18n/messages';
import { assigneeOf } from './IssueTable';

type Alarm = IssueFacts_IssueFragment['alarms'][number];

const when = (at: string) => new Date(at).toLocaleString();

function alarmState(alarm: Alarm, t: Translate): string {
  if (alarm.closedAt !== null) {
    return t('issue.alarm.closed', { at: when(alarm.closedAt) });
  }
  if (alarm.recoveringSince !== null) {
    return t('issue.alarm.recovering', { at: when(alarm.recoveringSince) });
  }
  return t('issue.alarm.open', { at: when(alarm.createdAt) });
}

export interface IssueFactsProps {
  issue: IssueFacts_IssueFragment;
  /** Where the issue's device opens in this area. */
  deviceLink: (hashId: string) => string;
  /** Facts and controls of the area after the common ones (staff: flags, next activity). */
  children?: ReactNode;
}

/** The facts of an issue both areas show: device, organisation, assignee, dates, alarms, subscribers. */
export function IssueFacts({ issue, deviceLink, children }: IssueFactsProps) {
  const t = useMessages();
  return (
    <>
      <Facts>
        <dt>{t('issue.device')}</dt>
        <dd>{issue.device === null ? '—' : <Link to={deviceLink(issue.device.hashId)}>{issue.device.name}</Link>}</dd>
        {issue.organization !== null && (
          <>
            <dt>{t('issue.organization')}</dt>
            <dd>{issue.organization.name}</dd>
          </>
        )}
        <dt>{t('issue.assignee')}</dt>
        <dd data-testid="issue-assignee">{assigneeOf(issue, t)}</dd>
        <dt>{t('issue.createdAt')}</dt>
        <dd>{when(issue.createdAt)}</dd>
        {issue.closedAt !== null && (
          <>
            <dt>{t('issue.closedAt')}</dt>
            <dd>{when(issue.closedAt)}</dd>
          </>
        )}
        <dt>{t('issue.subscribers')}</dt>
        <dd data-testid="issue-subscribers">
          {issue.subscribers.length === 0 ? t('issue.noSubscribers') : issue.subscribers.map((user) => user.name).join(', ')}
        </dd>
        {children}
      </Facts>
      <h3>{t('issue.alarms')}</h3>
      {issue.alarms.length === 0 ? (
        <Muted>{t('issue.noAlarms')}</Muted>
      ) : (
        <Alarms>
          {issue.alarms.map((alarm) => (
            <li key={alarm.hashId} data-testid="issue-alarm">
              <strong>{alarm.monitor}</strong>
              {alarm.assetIdentifier !== null && <span> {t('issue.alarm.asset', { identifier: alarm.assetIdentifier })}</span>}
              <Muted as="span"> — {alarmState(alarm, t)}</Muted>
            </li>
          ))}
        </Alarms>
      )}
    </>
  );
}

/** The facts list; an area adds its own rows (dt, dd) inside. */
const Facts = styled.dl`
  display: grid;
  grid-template-columns: max-content minmax(0, 1fr);
  gap: 6px 16px;
  margin: 0 0 12px;
  dt {
    color: ${({ theme }) => theme.colors.textMuted};
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

const Alarms = styled.ul`
  margin: 0;
  padding-left: 18px;
`;

const Muted = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.textMuted};
`;
