import type { ApolloClient } from '@apollo/client';
import { useApolloClient } from '@apollo/client/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { accessVerdict, type Right } from '../../../contracts/rights';
import { userListHashIdsMax } from '../../../contracts/user';
import { useApolloErrorSnackbar } from '../components/useErrorSnackbar';
import { UserNamesDocument } from './useUserNames.generated';
import { useSession } from '../session/useSession';

/**
 * Which users the caller may read, as the API rules it (contracts/rights.ts): staff any user
 * (`user.read`), a customer those of their own organisation (`user.listOwn`: the `users` list
 * leaves another's, staff included, out), anyone else nobody (and is not asked).
 */
export type UserDirectory = 'any' | 'ownOrganization' | 'none';

export function userDirectoryOf(rights: readonly Right[]): UserDirectory {
  if (accessVerdict('user', rights, ['user.read']) === null) {
    return 'any';
  }
  return accessVerdict('user', rights, ['user.listOwn']) === null ? 'ownOrganization' : 'none';
}

/** The users the signed-in user may read. */
export function useUserDirectory(): UserDirectory {
  const { profile } = useSession();
  return userDirectoryOf(profile?.user.rights ?? []);
}

/**
 * The names of the users of `hashIds` the caller may read, in one request (more only past the
 * API's limit of hash ids a request): the API scopes the answer (staff any user, a customer
 * their organisation's) and leaves out a user gone or not readable, who stays unnamed (null).
 */
async function readUserNames(client: ApolloClient, hashIds: readonly string[]): Promise<Map<string, string | null>> {
  const names = new Map<string, string | null>(hashIds.map((hashId) => [hashId, null]));
  for (let start = 0; start < hashIds.length; start += userListHashIdsMax) {
    const batch = hashIds.slice(start, start + userListHashIdsMax);
    const { data, error } = await client.query({
      query: UserNamesDocument,
      variables: { hashIds: batch, rowsPerPage: batch.length },
      fetchPolicy: 'no-cache',
    });
    if (error !== undefined || data === undefined) {
      throw error ?? new Error('no users in the answer');
    }
    for (const user of data.users.rows) {
      names.set(user.hashId, user.name);
    }
  }
  return names;
}

/**
 * Names of the users of `hashIds` (those a diff links to), as far as the caller may read them:
 * the ids not known yet are read together, in one request for each new batch (a page of a
 * timeline, an item brought live), never one per entry. A user gone or not readable stays
 * out of the map (shown by hash id); a user read once is not asked again.
 */
export function useUserNames(hashIds: readonly string[], directory: UserDirectory): ReadonlyMap<string, string> {
  const client = useApolloClient();
  const showError = useApolloErrorSnackbar();
  const [known, setKnown] = useState<ReadonlyMap<string, string | null>>(new Map());
  const asked = useRef(new Set<string>());
  const missing = hashIds.filter((hashId) => !known.has(hashId) && !asked.current.has(hashId));
  const missingKey = [...new Set(missing)].sort().join(' ');

  useEffect(() => {
    const batch = missingKey === '' ? [] : missingKey.split(' ');
    if (batch.length === 0) {
      return;
    }
    batch.forEach((hashId) => asked.current.add(hashId));
    const learn = (names: ReadonlyMap<string, string | null>) => setKnown((current) => new Map([...current, ...names]));
    if (directory === 'none') {
      learn(new Map(batch.map((hashId) => [hashId, null])));
      return;
    }
    readUserNames(client, batch).then(learn, (error: unknown) => {
      learn(new Map(batch.map((hashId) => [hashId, null])));
      showError(error);
    });
  }, [client, directory, missingKey, showError]);

  return useMemo(() => {
    const names = new Map<string, string>();
    for (const [hashId, name] of known) {
      if (name !== null) {
        names.set(hashId, name);
      }
    }
    return names;
  }, [known]);
}
