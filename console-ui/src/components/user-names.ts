import { createContext, useContext } from 'react';
import type { DiffEntry } from '../../../contracts/audit-log';

/** The audit object type of users: diffs link users by their hash ids. */
export const usersObjectType = 'users';

/** Names of users by hash id, for the diffs below (those missing show as their hash id). */
export const UserNamesContext = createContext<ReadonlyMap<string, string>>(new Map());

/** The name of the user of a hash id, when known. */
export function useUserName(objectType: string, hashId: string): string | undefined {
  const names = useContext(UserNamesContext);
  return objectType === usersObjectType ? names.get(hashId) : undefined;
}

/** The hash ids of the users that diff entries link to (link and link-many entries of users). */
export function userHashIdsOf(entries: readonly DiffEntry[]): string[] {
  const hashIds = entries.flatMap((entry) => {
    if (entry.type === 'link' && entry.objectType === usersObjectType) {
      return [entry.oldHashId, entry.newHashId].filter((hashId): hashId is string => hashId !== null);
    }
    if (entry.type === 'link-many' && entry.objectType === usersObjectType) {
      return [...entry.addedHashIds, ...entry.removedHashIds];
    }
    return [];
  });
  return [...new Set(hashIds)];
}
