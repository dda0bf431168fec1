import { ApolloLink } from '@apollo/client';
import { MockLink, MockSubscriptionLink } from '@apollo/client/testing';
import { act, screen, waitFor } from '@testing-library/react';
import { OperationTypeNode } from 'graphql';
import { IssueTimelineDocument } from './useIssueTimeline.generated';
import { renderWithApollo } from '../test-support/devices';
import { aMessageItem, anAuditItem } from '../test-support/issues';
import { inRouter } from '../test-support/render';
import { IssueTimelinePanel } from './IssueTimelinePanel';

describe('the live issue timeline', () => {
  it('shows the timeline oldest first, then appends what the subscription adds after the last item read, each item once', async () => {
    const subscriptions = new MockSubscriptionLink();
    const queries = new MockLink([
      {
        request: { query: IssueTimelineDocument, variables: { hashId: 'i1', offset: null, rowsPerPage: 50 } },
        result: { data: { issueTimeline: { __typename: 'IssueTimelinePage', rows: [aMessageItem('m1', 'The gateway is offline.')], nextPageOffset: null } } },
      },
    ]);
    const link = ApolloLink.split(({ operationType }) => operationType === OperationTypeNode.SUBSCRIPTION, subscriptions, queries);
    const added: string[] = [];
    await renderWithApollo(inRouter(<IssueTimelinePanel hashId="i1" userDirectory="any" onAdded={(item) => added.push(item.kind)} />), link);
    await screen.findByText('The gateway is offline.');
    // Subscribed once the pages are read, from the last item read: nothing missed, nothing twice.
    await waitFor(() => expect(subscriptions.operation?.variables).toEqual({ hashId: 'i1', after: 'c-m1' }));

    const push = (item: unknown) => act(() => subscriptions.simulateResult({ result: { data: { issueTimeline: item } } }));
    push(anAuditItem('a1', [{ type: 'boolean', name: 'closed', oldValue: false, newValue: true }], 'CONTROLLER_UPDATE'));
    push(aMessageItem('m2', 'The gateway is back.'));
    push(aMessageItem('m2', 'The gateway is back.'));
    await waitFor(() => expect(screen.getAllByTestId('issue-message')).toHaveLength(2));
    expect(screen.getAllByTestId('issue-message')[1]).toHaveTextContent('The gateway is back.');
    expect(screen.getByTestId('audit-entry')).toHaveTextContent('closed:No→Yes');
    expect(added).toEqual(['AUDIT', 'MESSAGE', 'MESSAGE']);
  });
});
