import type { DiffEntry, DiffEntryType } from '../../../contracts/audit-log';

const diffEntryTypes: Record<DiffEntryType, true> = {
  number: true,
  string: true,
  id: true,
  hidden: true,
  boolean: true,
  date: true,
  json: true,
  link: true,
  'link-many': true,
  'message-to-device': true,
};

function isDiffEntry(value: unknown): value is DiffEntry {
  if (value === null || typeof value !== 'object') {
    return false;
  }
  const { type, name } = value as { type?: unknown; name?: unknown };
  return typeof type === 'string' && type in diffEntryTypes && typeof name === 'string';
}

/**
 * The entries of an audit row's diff as GraphQL gives them (JSON): the server writes them as the
 * contract's DiffEntry; anything else (written by a later server) is left out rather than shown wrong.
 */
export function diffEntriesOf(diff: readonly unknown[]): DiffEntry[] {
  return diff.filter(isDiffEntry);
}
