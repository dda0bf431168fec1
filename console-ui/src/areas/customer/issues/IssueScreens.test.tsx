import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { aMessageItem, anAuditItem, anIssue } from '../../../test-support/issues';
import { profile, renderConsole, type SeenCall } from '../../../test-support/render';
import { withListViewport } from '../../../test-support/devices';

interface GraphqlBody {
  operationName?: string;
  variables?: Record<string, unknown>;
}

const operation = (call: SeenCall) => (call.body ?? {}) as GraphqlBody;

function customerServer(extra: (body: GraphqlBody) => unknown = () => undefined) {
  let subscribed = false;
  return (call: SeenCall) => {
    if (call.path === '/console-shared/v1/authentication/whoami') {
      return { status: 200, body: profile() };
    }
    const body = operation(call);
    const data = extra(body);
    if (data !== undefined) {
      return { status: 200, body: { data } };
    }
    switch (body.operationName) {
      case 'CustomerIssueCounts':
        return {
          status: 200,
          body: { data: { issueCount: { __typename: 'IssueCount', openCount: 3, assignedToMeCount: 1, assignedToMyOrganizationCount: 2 } } },
        };
      case 'CustomerIssueList':
        return { status: 200, body: { data: { issues: { __typename: 'IssuePage', rows: [anIssue()], nextPageOffset: null } } } };
      case 'CustomerIssue':
        return {
          status: 200,
          body: { data: { issue: anIssue({ subscribers: subscribed ? [{ __typename: 'IssueUser', hashId: 'u1', name: 'Casey Customer' }] : [] }) } },
        };
      case 'IssueTimeline':
        return {
          status: 200,
          body: {
            data: {
              issueTimeline: {
                __typename: 'IssueTimelinePage',
                rows: [
                  aMessageItem('m1', 'The gateway has been offline for 10 minutes.'),
                  anAuditItem('a1', [{ type: 'id', name: 'assignedUser', oldValue: null, newValue: 'u9' }]),
                ],
                nextPageOffset: null,
              },
            },
          },
        };
      case 'AddIssueMessage':
        return { status: 200, body: { data: { addIssueMessage: { __typename: 'IssueMessage', hashId: 'm2' } } } };
      case 'SubscribeToIssue':
        subscribed = true;
        return { status: 200, body: { data: { subscribeToIssue: anIssue() } } };
      default:
        return undefined;
    }
  };
}

describe('the customer issue screens', () => {
  withListViewport();

  it('lists the issues with the counts, and filters by assignee and status through the address', async () => {
    const harness = renderConsole('/issues', customerServer());
    await screen.findByRole('button', { name: 'Me (1)' }, { timeout: 10_000 });
    expect(screen.getByRole('button', { name: 'My organisation (2)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open (3)' })).toBeInTheDocument();
    const row = await screen.findByRole('row', { name: /Harbour battery disconnected/ });
    expect(row).toHaveAttribute('href', '/issues/i1');
    expect(within(row).getByTestId('issue-status')).toHaveTextContent('Open');

    await userEvent.click(screen.getByRole('button', { name: 'Me (1)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Open (3)' }));
    expect(harness.router.state.location.search).toBe('?assignee=me&status=open');
    await waitFor(() =>
      expect(harness.calls.filter((call) => operation(call).operationName === 'CustomerIssueList').map((call) => operation(call).variables)).toContainEqual({
        assignee: 'me',
        status: 'OPEN',
        offset: null,
        rowsPerPage: 50,
      }),
    );
  });

  it('shows an issue with its alarms and timeline, posts a message without an attach control, and subscribes', async () => {
    const harness = renderConsole('/issues/i1', customerServer());
    await screen.findByRole('heading', { name: 'Harbour battery disconnected' }, { timeout: 10_000 });
    expect(screen.getByRole('link', { name: 'Harbour battery' })).toHaveAttribute('href', '/teleports/d7/general');
    expect(screen.getByTestId('issue-alarm')).toHaveTextContent('device.disconnect.duration');
    // Nobody assigned, and the provider handles it.
    expect(screen.getByTestId('issue-assignee')).toHaveTextContent('Gridport');
    expect(await screen.findByTestId('issue-message')).toHaveTextContent('The gateway has been offline for 10 minutes.');
    expect(screen.getByTestId('issue-message')).toHaveTextContent('Monitoring');
    expect(screen.getByTestId('audit-entry')).toHaveTextContent('assignedUser:none→"u9"');
    // Customers may not upload (their limit is 0): no attach control.
    expect(screen.queryByLabelText('Attach files')).toBeNull();

    await userEvent.type(screen.getByLabelText('Message'), 'Our site lost power; it is back now.');
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    await screen.findByText('Your message was added.');
    const sent = harness.calls.filter((call) => operation(call).operationName === 'AddIssueMessage');
    expect(sent.map((call) => operation(call).variables)).toEqual([
      { input: { issueHashId: 'i1', message: 'Our site lost power; it is back now.', fileIdentifiers: [] } },
    ]);
    await waitFor(() => expect(screen.getByLabelText('Message')).toHaveValue(''));

    await userEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    await screen.findByRole('button', { name: 'Unsubscribe' });
    expect(screen.getByTestId('issue-subscribers')).toHaveTextContent('Casey Customer');
  });
});
