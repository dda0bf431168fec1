import { ApolloLink } from '@apollo/client';
import { MockLink, MockSubscriptionLink } from '@apollo/client/testing';
import { act, screen, waitFor, within } from '@testing-library/react';
import { OperationTypeNode, type FormattedExecutionResult } from 'graphql';
import { IssueTimelineDocument } from './useIssueTimeline.generated';
import { UserNamesDocument } from './useUserNames.generated';
import { renderWithApollo } from '../test-support/devices';
import { anAuditItem } from '../test-support/issues';
import { inRouter } from '../test-support/render';
import { IssueTimelinePanel } from './IssueTimelinePanel';
import { userDirectoryOf, type UserDirectory } from './useUserNames';

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

/** The users query of these hash ids (in the order asked: sorted), answered with `result`. */
function userNames(hashIds: string[], result: FormattedExecutionResult) {
  return { request: { query: UserNamesDocument, variables: { hashIds, rowsPerPage: hashIds.length } }, result };
}

/** An answer of the users query with these users (those left out were not found or not readable). */
const usersAnswer = (...users: ReturnType<typeof aUser>[]) => ({ data: { users: { __typename: 'UserPage', rows: users } } });

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
        userNames(['u1', 'u2', 'u3'], usersAnswer(aUser('u1', 'Casey Customer'), aUser('u2', 'Olivia Ops'), aUser('u3', 'Sam Site'))),
        userNames(['u4'], usersAnswer(aUser('u4', 'Nora Night'))),
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

  it('shows a user who is gone by hash id, and names the rest, in one request', async () => {
    const { asked } = await renderTimeline(
      [
        timelinePage([anAuditItem('a1', [assigned('gone', 'u2')])]),
        // The list leaves a user it does not find out of the answer.
        userNames(['gone', 'u2'], usersAnswer(aUser('u2', 'Olivia Ops'))),
      ],
      'any',
    );
    await waitFor(() => expect(entries()[0]).toHaveTextContent('assignedUser:gone→Olivia Ops'));
    expect(within(entryAt(0)).getByText('gone').tagName).toBe('CODE');
    expect(asked.filter((name) => name === 'UserNames')).toHaveLength(1);
  });

  it('asks for a customer the same one request, and shows by hash id the staff the API leaves out', async () => {
    const { asked } = await renderTimeline(
      [
        timelinePage([anAuditItem('a1', [assigned(null, 'staff1')]), anAuditItem('a2', [subscribers(['u1'], [])])]),
        userNames(['staff1', 'u1'], usersAnswer(aUser('u1', 'Casey Customer'))),
      ],
      'ownOrganization',
    );
    await waitFor(() => expect(entries()[1]).toHaveTextContent('subscribers:added Casey Customer'));
    expect(entries()[0]).toHaveTextContent('assignedUser:none→staff1');
    expect(asked.filter((name) => name === 'UserNames')).toHaveLength(1);
  });

  it('asks for more users than one request may name (100) in as few requests as the limit allows', async () => {
    const many = Array.from({ length: 101 }, (_, index) => `u${String(index).padStart(3, '0')}`);
    const { asked } = await renderTimeline(
      [
        timelinePage([anAuditItem('a1', [subscribers(many, [])])]),
        userNames(many.slice(0, 100), usersAnswer(aUser('u000', 'Casey Customer'))),
        userNames(many.slice(100), usersAnswer(aUser('u100', 'Nora Night'))),
      ],
      'any',
    );
    await waitFor(() => expect(entries()[0]).toHaveTextContent(/^subscribers:added Casey Customer, u001, .*, Nora Night$/));
    expect(asked.filter((name) => name === 'UserNames')).toHaveLength(2);
  });

  it('asks nothing of a caller who may read no user, and shows everyone by hash id', async () => {
    const { asked } = await renderTimeline([timelinePage([anAuditItem('a1', [assigned(null, 'u2')])])], 'none');
    await waitFor(() => expect(entries()[0]).toHaveTextContent('assignedUser:none→u2'));
    expect(asked).not.toContain('UserNames');
  });

  it('follows the API: staff read any user, customers their organisation', () => {
    expect(userDirectoryOf(['gridport.sales'])).toBe('any');
    expect(userDirectoryOf(['customer.read'])).toBe('ownOrganization');
    expect(userDirectoryOf([])).toBe('none');
  });
});
