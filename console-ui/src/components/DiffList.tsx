import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import type { DiffEntry } from '../../../contracts/audit-log';
import { useMessages, type Translate } from '../i18n/messages';
import { diffEntriesOf } from './diff-entries';
import { useUserName } from './user-names';

/** Where a linked object opens, by its audit object type (devices, users, ...); null: not a link. */
export type LinkTo = (objectType: string, hashId: string) => string | null;

export interface DiffListProps {
  /** The diff of an audit row as GraphQL gives it (JSON entries of the contract's DiffEntry). */
  diff: readonly unknown[];
  linkTo?: LinkTo;
}

const noLinks: LinkTo = () => null;

/** A plain value of a field: none, yes or no, a date, a number, a text or JSON. */
function plainValue(entry: DiffEntry, value: unknown, t: Translate): ReactNode {
  if (value === null || value === undefined) {
    return <None>{t('diff.none')}</None>;
  }
  switch (entry.type) {
    case 'boolean':
      return t(value === true ? 'diff.yes' : 'diff.no');
    case 'date':
      return <time dateTime={String(value)}>{new Date(String(value)).toLocaleString()}</time>;
    case 'id':
    case 'json':
      return <code>{JSON.stringify(value)}</code>;
    default:
      return String(value);
  }
}

/** A linked object: a user by name when known (UserNamesContext), anything else by hash id. */
function HashId({ objectType, hashId, linkTo }: { objectType: string; hashId: string; linkTo: LinkTo }) {
  const name = useUserName(objectType, hashId);
  const to = linkTo(objectType, hashId);
  const label = name === undefined ? <code>{hashId}</code> : <span title={hashId}>{name}</span>;
  return to === null ? label : <Link to={to}>{label}</Link>;
}

function hashIds(objectType: string, ids: readonly string[], linkTo: LinkTo): ReactNode {
  return ids.map((hashId, index) => (
    <span key={hashId}>
      {index > 0 && ', '}
      <HashId objectType={objectType} hashId={hashId} linkTo={linkTo} />
    </span>
  ));
}

function Change({ entry, linkTo, t }: { entry: DiffEntry; linkTo: LinkTo; t: Translate }) {
  switch (entry.type) {
    case 'hidden':
      return <span>{t('diff.hidden')}</span>;
    case 'link':
      return (
        <>
          <del>
            {entry.oldHashId === null ? <None>{t('diff.none')}</None> : <HashId objectType={entry.objectType} hashId={entry.oldHashId} linkTo={linkTo} />}
          </del>
          <Arrow aria-hidden="true">→</Arrow>
          <ins>
            {entry.newHashId === null ? <None>{t('diff.none')}</None> : <HashId objectType={entry.objectType} hashId={entry.newHashId} linkTo={linkTo} />}
          </ins>
        </>
      );
    case 'link-many':
      return (
        <>
          {entry.addedHashIds.length > 0 && (
            <ins>
              {t('diff.added')} {hashIds(entry.objectType, entry.addedHashIds, linkTo)}
            </ins>
          )}
          {entry.addedHashIds.length > 0 && entry.removedHashIds.length > 0 && '; '}
          {entry.removedHashIds.length > 0 && (
            <del>
              {t('diff.removed')} {hashIds(entry.objectType, entry.removedHashIds, linkTo)}
            </del>
          )}
        </>
      );
    case 'message-to-device':
      return <Json>{JSON.stringify(entry.message)}</Json>;
    default:
      return (
        <>
          <del>{plainValue(entry, entry.oldValue, t)}</del>
          <Arrow aria-hidden="true">→</Arrow>
          <ins>{plainValue(entry, entry.newValue, t)}</ins>
        </>
      );
  }
}

/**
 * The typed diff of an audit entry (console.md section 3): each field with its old and new value
 * (number, string, id, boolean, date, json; hidden ones without values), links and link lists by
 * hash id (users by name where UserNamesContext knows them), and a message sent to a device.
 */
export function DiffList({ diff, linkTo = noLinks }: DiffListProps) {
  const t = useMessages();
  const entries = diffEntriesOf(diff);
  if (entries.length === 0) {
    return <None>{t('audit.noChanges')}</None>;
  }
  return (
    <List>
      {entries.map((entry, index) => (
        <li key={`${entry.name}-${index}`} data-testid="diff-entry" data-type={entry.type}>
          <Name>{entry.type === 'message-to-device' ? t('diff.message', { type: entry.name }) : entry.name}:</Name>
          <Change entry={entry} linkTo={linkTo} t={t} />
        </li>
      ))}
    </List>
  );
}

const List = styled.ul`
  list-style: none;
  margin: 4px 0 0;
  padding: 0;
  font-size: 13px;
  li {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 4px 6px;
    padding: 2px 0;
    overflow-wrap: anywhere;
  }
  del {
    color: ${({ theme }) => theme.colors.error};
  }
  ins {
    color: ${({ theme }) => theme.colors.success};
    text-decoration: none;
  }
  code {
    font-size: 12px;
  }
`;

const Name = styled.span`
  font-weight: ${({ theme }) => theme.fontWeights.medium};
`;

const Arrow = styled.span`
  color: ${({ theme }) => theme.colors.textMuted};
`;

const None = styled.span`
  color: ${({ theme }) => theme.colors.textMuted};
  font-style: italic;
`;

const Json = styled.code`
  display: block;
  width: 100%;
  font-size: 12px;
  color: ${({ theme }) => theme.colors.textMuted};
`;
