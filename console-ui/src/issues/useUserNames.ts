import type { ApolloClient, TypedDocumentNode } from '@apollo/client';
import { CombinedGraphQLErrors } from '@apollo/client';
import { useApolloClient } from '@apollo/client/react';
import { Kind, parse, type DefinitionNode, type DocumentNode } from 'graphql';
import { useEffect, useMemo, useRef, useState } from 'react';
import { accessVerdict, type Right } from '../../../contracts/rights';
import { useApolloErrorSnackbar } from '../components/useErrorSnackbar';
import { UseUserNames_UserFragmentDoc, UserNamesOfOrganizationDocument, type UseUserNames_UserFragment } from '../graphql/operations';
import { useSession } from '../session/useSession';

/**
 * Which users the caller may read, as the API rules it (contracts/rights.ts): staff any user
 * (`user.read`), a customer those of their own organisation (`user.listOwn`: `user` answers
 * another's, staff included, as not_found), anyone else nobody.
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

type UserNamesResult = Record<string, UseUserNames_UserFragment>;
type UserNamesVariables = Record<string, string>;

const alias = (index: number) => `u${index}`;

/**
 * One request for the users of `count` hash ids: the user query aliased once per user (u0, u1, ...),
 * each with the useUserNames_user fragment (typed by codegen; its validity is tested against the schema).
 */
export function userNamesDocument(count: number): TypedDocumentNode<UserNamesResult, UserNamesVariables> {
  const indexes = Array.from({ length: count }, (_, index) => index);
  const variables = indexes.map((index) => `$${alias(index)}: ID!`).join(', ');
  const fields = indexes.map((index) => `${alias(index)}: user(hashId: $${alias(index)}) { ...useUserNames_user }`).join(' ');
  const query = parse(`query UserNames(${variables}) { ${fields} }`);
  const fragments: readonly DefinitionNode[] = (UseUserNames_UserFragmentDoc as DocumentNode).definitions;
  return { kind: Kind.DOCUMENT, definitions: [...query.definitions, ...fragments] };
}

/** The index of the alias a not_found error is about (a user gone, or not one the caller may read); null for any other error. */
function notFoundIndex(error: CombinedGraphQLErrors['errors'][number]): number | null {
  const field = error.path?.[0];
  if (error.extensions?.code !== 'not_found' || typeof field !== 'string' || !/^u\d+$/.test(field)) {
    return null;
  }
  return Number(field.slice(1));
}

/**
 * The names of users by hash id, read in one request. `user` is non-null, so a user gone makes
 * the whole answer fail (with that alias's not_found): such a user is left unnamed and the rest
 * asked again. Users are not deleted, so that is rare.
 */
async function readAnyUsers(client: ApolloClient, hashIds: readonly string[]): Promise<Map<string, string | null>> {
  const names = new Map<string, string | null>();
  let remaining = [...hashIds];
  while (remaining.length > 0) {
    const asked = remaining;
    const { data, error } = await client.query({
      query: userNamesDocument(asked.length),
      variables: Object.fromEntries(asked.map((hashId, index) => [alias(index), hashId])),
      fetchPolicy: 'no-cache',
      errorPolicy: 'all',
    });
    if (data !== undefined && data !== null && error === undefined) {
      asked.forEach((hashId, index) => names.set(hashId, data[alias(index)]?.name ?? null));
      return names;
    }
    const gone = new Set(CombinedGraphQLErrors.is(error) ? error.errors.map(notFoundIndex).filter((index) => index !== null) : []);
    if (gone.size === 0) {
      throw error ?? new Error('no users in the answer');
    }
    remaining = asked.filter((hashId, index) => {
      if (gone.has(index)) {
        names.set(hashId, null);
        return false;
      }
      return true;
    });
  }
  return names;
}

/** The names of the users of the caller's organisation among `hashIds`, reading its users a page at a time until all are found or none are left. */
async function readOwnOrganizationUsers(client: ApolloClient, hashIds: readonly string[]): Promise<Map<string, string | null>> {
  const wanted = new Set(hashIds);
  const names = new Map<string, string | null>();
  let offset: string | null = null;
  do {
    const { data }: { data?: { users: { rows: UseUserNames_UserFragment[]; nextPageOffset: string | null } } } = await client.query({
      query: UserNamesOfOrganizationDocument,
      variables: { offset },
      fetchPolicy: 'no-cache',
    });
    for (const user of data?.users.rows ?? []) {
      if (wanted.delete(user.hashId)) {
        names.set(user.hashId, user.name);
      }
    }
    offset = data?.users.nextPageOffset ?? null;
  } while (offset !== null && wanted.size > 0);
  for (const hashId of wanted) {
    names.set(hashId, null);
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
    const read = directory === 'any' ? readAnyUsers(client, batch) : readOwnOrganizationUsers(client, batch);
    read.then(learn, (error: unknown) => {
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
