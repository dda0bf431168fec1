import { ApolloLink } from '@apollo/client';
import { MockLink, MockSubscriptionLink } from '@apollo/client/testing';
import { act, screen, waitFor, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, OperationTypeNode, validate, type FormattedExecutionResult } from 'graphql';
import { IssueTimelineDocument, UserNamesOfOrganizationDocument } from '../graphql/operations';
import { renderWithApollo } from '../test-support/devices';
import { anAuditItem } from '../test-support/issues';
import { inRouter } from '../test-support/render';
import { IssueTimelinePanel } from './IssueTimelinePanel';
import { userDirectoryOf, userNamesDocument, type UserDirectory } from './useUserNames';

const assigned = (from: string | null, to: string | null) => ({ type: 'link', name: 'assignedUser', objectType: 'users', oldHashId: from, newHashId: to });
const subscribers = (added: string[], removed: string[]) => ({
  type: 'link-many',
  name: 'subscribers',
  objectType: 'users',
  addedHashIds: added,
  removedHashIds: removed,
});
const aUser = (hashId: string, name: string) => ({ __typename: 'User', hashId, name });

const timelinePage = (rows: unknown[]) => ({
  request: { query: IssueTimelineDocument, variables: { hashId: 'i1', offset: null, rowsPerPage: 50 } },
  result: { data: { issueTimeline: { __typename: 'IssueTimelinePage', rows, nextPageOffset: null } } },
});

/** The aliased user query of these hash ids (u0, u1, ... in the order given), answered with `data`. */
function userNames(hashIds: string[], result: FormattedExecutionResult) {
  const variables = Object.fromEntries(hashIds.map((hashId, index) => [`u${index}`, hashId]));
  return { request: { query: userNamesDocument(hashIds.length), variables }, result };
}

async function renderTimeline(mocks: ConstructorParameters<typeof MockLink>[0], userDirectory: UserDirectory) {
  const subscriptions = new MockSubscriptionLink();
  const queries = new MockLink(mocks);
  const asked: string[] = [];
  const counting = new ApolloLink((operation, forward) => {
    asked.push(operation.operationName ?? '');
    return forward(operation);
  });
  const link = ApolloLink.split(({ operationType }) => operationType === OperationTypeNode.SUBSCRIPTION, subscriptions, counting.concat(queries));
  await renderWithApollo(inRouter(<IssueTimelinePanel hashId="i1" userDirectory={userDirectory} />), link, 'admin');
  return { subscriptions, asked };
}

const entries = () => screen.getAllByTestId('diff-entry');
/** The diff entry at `index` (of every entry on the timeline). */
function entryAt(index: number): HTMLElement {
  const entry = entries()[index];
  expect(entry).toBeDefined();
  return entry as HTMLElement;
}

describe('the names of the users an issue timeline links to', () => {
  it('reads the users of a whole page in one request and names them; a user brought live is read alone, a known one not again', async () => {
    const { subscriptions, asked } = await renderTimeline(
      [
        timelinePage([anAuditItem('a1', [assigned(null, 'u2')]), anAuditItem('a2', [assigned('u2', 'u3'), subscribers(['u3', 'u1'], ['u2'])])]),
        userNames(['u1', 'u2', 'u3'], { data: { u0: aUser('u1', 'Casey Customer'), u1: aUser('u2', 'Olivia Ops'), u2: aUser('u3', 'Sam Site') } }),
        userNames(['u4'], { data: { u0: aUser('u4', 'Nora Night') } }),
      ],
      'any',
    );
    await waitFor(() => expect(entries()[0]).toHaveTextContent('assignedUser:none→Olivia Ops'));
    expect(entries()[1]).toHaveTextContent('assignedUser:Olivia Ops→Sam Site');
    expect(entries()[2]).toHaveTextContent('subscribers:added Sam Site, Casey Customer; removed Olivia Ops');
    expect(within(entryAt(1)).getByText('Sam Site')).toHaveAttribute('title', 'u3');
    expect(asked.filter((name) => name === 'UserNames')).toHaveLength(1);

    await waitFor(() => expect(subscriptions.operation).toBeDefined());
    act(() => subscriptions.simulateResult({ result: { data: { issueTimeline: anAuditItem('a3', [assigned('u3', 'u4')]) } } }));
    await waitFor(() => expect(entries()[3]).toHaveTextContent('assignedUser:Sam Site→Nora Night'));
    expect(asked.filter((name) => name === 'UserNames')).toHaveLength(2);
  });

  it('shows a user who is gone by hash id, and names the rest', async () => {
    const notFound = { message: 'Not found.', path: ['u1'], extensions: { code: 'not_found', details: { userHashId: 'gone' } } };
    await renderTimeline(
      [
        timelinePage([anAuditItem('a1', [assigned('gone', 'u2')])]),
        // `user` is non-null: one user gone fails the whole answer, which names the alias.
        userNames(['gone', 'u2'], { data: null, errors: [{ ...notFound, path: ['u0'] }] }),
        userNames(['u2'], { data: { u0: aUser('u2', 'Olivia Ops') } }),
      ],
      'any',
    );
    await waitFor(() => expect(entries()[0]).toHaveTextContent('assignedUser:gone→Olivia Ops'));
    expect(within(entryAt(0)).getByText('gone').tagName).toBe('CODE');
  });

  it('names for a customer only the users of their own organisation, read from its user list, and never asks for staff', async () => {
    const { asked } = await renderTimeline(
      [
        timelinePage([anAuditItem('a1', [assigned(null, 'staff1')]), anAuditItem('a2', [subscribers(['u1'], [])])]),
        {
          request: { query: UserNamesOfOrganizationDocument, variables: { offset: null } },
          result: { data: { users: { __typename: 'UserPage', rows: [aUser('u1', 'Casey Customer'), aUser('u7', 'Wim West')], nextPageOffset: null } } },
        },
      ],
      'ownOrganization',
    );
    await waitFor(() => expect(entries()[1]).toHaveTextContent('subscribers:added Casey Customer'));
    expect(entries()[0]).toHaveTextContent('assignedUser:none→staff1');
    expect(asked).not.toContain('UserNames');
    expect(asked.filter((name) => name === 'UserNamesOfOrganization')).toHaveLength(1);
  });

  it('follows the API: staff read any user, customers their organisation', () => {
    expect(userDirectoryOf(['gridport.sales'])).toBe('any');
    expect(userDirectoryOf(['customer.read'])).toBe('ownOrganization');
    expect(userDirectoryOf([])).toBe('none');
  });

  it('asks in a query the schema accepts', () => {
    const schema = buildSchema(readFileSync(join(__dirname, '../../../schema.graphql'), 'utf8'));
    expect(validate(schema, userNamesDocument(3))).toEqual([]);
  });
});
