import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { anAdminDevice, withListViewport } from '../../../test-support/devices';
import { aMessageItem, anIssue } from '../../../test-support/issues';
import { graphqlBodyOf, graphqlData as answer, staffServer, variablesOf } from '../../../test-support/graphql';
import { renderConsole } from '../../../test-support/render';
import type * as csv from '../../../lists/csv';
import { downloadCsv } from '../../../lists/csv';

jest.mock('../../../lists/csv', () => ({ ...jest.requireActual<typeof csv>('../../../lists/csv'), downloadCsv: jest.fn() }));

/** Reads the snackbar showing and closes it, so the next one shows at once. */
async function notice(text: string): Promise<void> {
  const bar = await screen.findByRole('status');
  expect(bar).toHaveTextContent(text);
  await userEvent.click(within(bar).getByRole('button', { name: 'Close' }));
}

const aListedDevice = (hashId: string, name: string) => ({
  __typename: 'Device',
  hashId,
  name,
  identifier: 'gw-7',
  isOnline: false,
  inProduction: true,
  isExposedToCustomer: true,
  iccid: null,
  deviceGroupHashId: null,
  nominalActivePowerSum: 0,
  organization: { __typename: 'Organization', hashId: 'o1', name: 'Harbour' },
});

/** Olivia Ops and the issue screens' answers (one issue, i1), with file uploads. */
function issueServer({ resolvedElsewhere = false } = {}) {
  let issue: Record<string, unknown> = anIssue();
  return staffServer(
    ['gridport.ops'],
    (operationName, variables, call) => {
      if (call.path === '/console/v1/file/upload') {
        return { status: 201, body: { url: '/console/v1/file/f1', fileIdentifier: 'f1' } };
      }
      switch (operationName) {
        case 'AdminIssueList':
          return answer({ issues: { __typename: 'IssuePage', rows: [issue], nextPageOffset: null } });
        case 'AdminIssue':
          return answer({ issue });
        case 'IssueTimeline':
          return answer({
            issueTimeline: {
              __typename: 'IssueTimelinePage',
              rows: [
                aMessageItem('m1', 'The gateway is offline.'),
                aMessageItem('m2', 'Called the site: a breaker tripped.', {
                  source: 'USER',
                  isInternal: true,
                  user: { __typename: 'IssueUser', hashId: 'u9', name: 'Olivia Ops' },
                }),
              ],
              nextPageOffset: null,
            },
          });
        case 'UpdateIssue': {
          const input = variables.input as Record<string, unknown>;
          issue = { ...issue, ...input };
          return answer({ updateIssue: { __typename: 'Issue', hashId: 'i1' } });
        }
        case 'ResolveIssue':
          issue = { ...issue, status: 'RESOLVED', closedAt: '2026-11-22T06:00:00.000Z' };
          if (resolvedElsewhere) {
            return { status: 200, body: { data: null, errors: [{ message: 'already_resolved', extensions: { code: 'already_resolved' } }] } };
          }
          return answer({ resolveIssue: { __typename: 'Issue', hashId: 'i1' } });
        case 'AddIssueMessage':
          return answer({ addIssueMessage: { __typename: 'IssueMessage', hashId: 'm3' } });
        case 'UpdateIssueMessage':
          return answer({ updateIssueMessage: { __typename: 'IssueMessage', hashId: 'm2' } });
        case 'UserPickerUsers':
          return answer({
            users: {
              __typename: 'UserPage',
              rows: [
                {
                  __typename: 'User',
                  hashId: 'u5',
                  name: 'Sam Site',
                  email: 'sam@harbour.example',
                  organization: { __typename: 'Organization', name: 'Harbour' },
                },
              ],
            },
          });
        case 'IssueUserFilterUser':
          if (variables.hashId !== 'u5') {
            return { status: 200, body: { data: null, errors: [{ message: 'Not found.', path: ['user'], extensions: { code: 'not_found' } }] } };
          }
          return answer({ user: { __typename: 'User', hashId: 'u5', name: 'Sam Site', email: 'sam@harbour.example' } });
        case 'AdminDeviceList':
          return answer({
            devices: {
              __typename: 'DevicePage',
              rows: variables.hashId === undefined || variables.hashId === 'd7' ? [aListedDevice('d7', 'Harbour battery')] : [],
              nextPageOffset: null,
            },
          });
        case 'AddIssueSubscribers':
          issue = { ...issue, subscribers: [{ __typename: 'IssueUser', hashId: 'u5', name: 'Sam Site', email: 'sam@harbour.example' }] };
          return answer({ addIssueSubscribers: { __typename: 'Issue', hashId: 'i1' } });
        case 'RemoveIssueSubscribers':
          issue = { ...issue, subscribers: [] };
          return answer({ removeIssueSubscribers: { __typename: 'Issue', hashId: 'i1' } });
        default:
          return undefined;
      }
    },
    'Olivia Ops',
  );
}

describe('the admin issue screens', () => {
  withListViewport();

  it('filters and sorts the list through the address', async () => {
    const harness = renderConsole('/admin/issues', issueServer());
    await screen.findByRole('row', { name: /Harbour battery disconnected/ }, { timeout: 10_000 });
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'open');
    await userEvent.selectOptions(screen.getByLabelText('Owner'), 'gridport');
    await userEvent.selectOptions(screen.getByLabelText('Assignee'), 'me');
    await userEvent.selectOptions(screen.getByLabelText('Sort'), 'nextActivityDueAt');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(harness.router.state.location.search).toBe('?status=open&owner=gridport&assignee=me&sortBy=nextActivityDueAt');
    await waitFor(() =>
      expect(variablesOf(harness.calls, 'AdminIssueList')).toContainEqual({
        status: 'OPEN',
        deviceHashId: null,
        owner: 'GRIDPORT',
        assignee: 'me',
        subscriber: null,
        sortBy: 'NEXT_ACTIVITY_DUE_AT',
        offset: null,
        rowsPerPage: 50,
      }),
    );
    expect(screen.getByRole('row', { name: /Harbour battery disconnected/ })).toHaveAttribute('href', '/admin/issues/i1');

    // The export reads the list with the same filters, 500 a page.
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(downloadCsv).toHaveBeenCalledTimes(1));
    expect(variablesOf(harness.calls, 'AdminIssueList')).toContainEqual(
      expect.objectContaining({ status: 'OPEN', sortBy: 'NEXT_ACTIVITY_DUE_AT', rowsPerPage: 500 }),
    );
    const [fileName, text] = jest.mocked(downloadCsv).mock.calls[0] ?? [];
    expect(fileName).toBe('issues.csv');
    expect((text ?? '').split('\r\n')[0]).toBe('Title,Device,Assignee,Messages,Next activity,Created,Status');
    expect((text ?? '').split('\r\n')[1]).toMatch(/^Harbour battery disconnected,/);
  });

  it('filters by a user found by name for one filter and nobody for the other, and names the chosen user from the address', async () => {
    const harness = renderConsole('/admin/issues', issueServer());
    await screen.findByRole('row', { name: /Harbour battery disconnected/ }, { timeout: 10_000 });
    // Subscribers cannot be "nobody"; assignees can.
    expect(within(screen.getByLabelText('Subscriber')).queryByRole('option', { name: 'Nobody' })).toBeNull();
    await userEvent.selectOptions(screen.getByLabelText('Assignee'), 'none');
    await userEvent.selectOptions(screen.getByLabelText('Subscriber'), 'user');
    await userEvent.type(screen.getByLabelText('Subscriber: search users by name or email'), 'sam');
    const found = screen.getByRole('list', { name: 'Subscriber: users found' });
    await userEvent.click(await within(found).findByRole('button', { name: /Sam Site/ }));
    expect(within(found).getByRole('button', { name: /Sam Site/ })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(harness.router.state.location.search).toBe('?assignee=none&subscriber=u5');
    await waitFor(() => expect(variablesOf(harness.calls, 'AdminIssueList')).toContainEqual(expect.objectContaining({ assignee: 'none', subscriber: 'u5' })));
    // The search is the assign dialog's: by name or email, across organisations, asked once typing pauses.
    await waitFor(() => expect(variablesOf(harness.calls, 'UserPickerUsers')).toContainEqual({ filter: 'sam' }));
    // The chosen user is read back by hash id and named.
    await screen.findByText('Chosen: Sam Site <sam@harbour.example>');
    expect(variablesOf(harness.calls, 'IssueUserFilterUser')).toContainEqual({ hashId: 'u5' });

    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(harness.router.state.location.search).toBe('');
    expect(screen.getByLabelText('Assignee')).toHaveValue('any');
    expect(screen.getByLabelText('Subscriber')).toHaveValue('any');
  });

  it('filters by a device found by name, kept in the address as its hash id and named from it, and clears it', async () => {
    const harness = renderConsole('/admin/issues', issueServer());
    await screen.findByRole('row', { name: /Harbour battery disconnected/ }, { timeout: 10_000 });
    await userEvent.type(screen.getByLabelText('Device: search devices by name'), 'harbour');
    const found = await screen.findByRole('list', { name: 'Device: devices found' });
    await userEvent.click(await within(found).findByRole('button', { name: /Harbour battery \(gw-7\)/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(harness.router.state.location.search).toBe('?deviceHashId=d7');
    await waitFor(() => expect(variablesOf(harness.calls, 'AdminIssueList')).toContainEqual(expect.objectContaining({ deviceHashId: 'd7' })));
    expect(variablesOf(harness.calls, 'AdminDeviceList')).toContainEqual({ filter: 'harbour', rowsPerPage: 8 });
    await screen.findByText('Chosen: Harbour battery (gw-7)');

    await userEvent.click(screen.getByRole('button', { name: 'Clear the device' }));
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(harness.router.state.location.search).toBe('');
    await waitFor(() => expect(variablesOf(harness.calls, 'AdminIssueList').at(-1)).toMatchObject({ deviceHashId: null }));
  });

  it('names the device of the address', async () => {
    renderConsole('/admin/issues?deviceHashId=d7', issueServer());
    await screen.findByText('Chosen: Harbour battery (gw-7)', undefined, { timeout: 10_000 });
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(screen.getByText('Any device')).toBeInTheDocument();
  });

  it('shows a filter user the API does not answer by hash id', async () => {
    renderConsole('/admin/issues?assignee=gone1', issueServer());
    await screen.findByRole('row', { name: /Harbour battery disconnected/ }, { timeout: 10_000 });
    expect(screen.getByLabelText('Assignee')).toHaveValue('user');
    await screen.findByText('Chosen: gone1');
  });

  it('assigns to an email, posts an internal message and a mailed one, edits the internal one, and resolves silently', async () => {
    const harness = renderConsole('/admin/issues/i1', issueServer());
    await screen.findByRole('heading', { name: 'Harbour battery disconnected' }, { timeout: 10_000 });
    expect(screen.getByRole('link', { name: 'Harbour battery' })).toHaveAttribute('href', '/admin/devices/d7/timeline');
    // Ops may upload (50 MB).
    expect(screen.getByLabelText('Attach files')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Assign' }));
    const assign = await screen.findByRole('dialog', { name: 'Assign the issue' });
    await userEvent.type(within(assign).getByLabelText('Or an email address'), 'field@installer.example');
    await userEvent.click(within(assign).getByRole('button', { name: 'Assign' }));
    await notice('The issue was assigned.');
    expect(variablesOf(harness.calls, 'UpdateIssue')).toEqual([{ hashId: 'i1', input: { assignedEmail: 'field@installer.example' } }]);
    await waitFor(() => expect(screen.getByTestId('issue-assignee')).toHaveTextContent('field@installer.example'));

    // Only a message that is not internal is mailed: the recipients show when it is not.
    expect(screen.getByLabelText('Internal (staff only)')).toBeChecked();
    expect(screen.queryByLabelText('Mail to (comma-separated)')).toBeNull();
    await userEvent.click(screen.getByLabelText('Internal (staff only)'));
    expect(screen.getByLabelText('Mail to (comma-separated)')).toBeInTheDocument();
    await userEvent.click(screen.getByLabelText('Internal (staff only)'));
    await userEvent.type(screen.getByLabelText('Message'), 'Waiting for the installer.');
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    await notice('Your message was added.');
    expect(variablesOf(harness.calls, 'AddIssueMessage')).toEqual([
      { input: { issueHashId: 'i1', message: 'Waiting for the installer.', isInternal: true, to: [], cc: [], fileIdentifiers: [] } },
    ]);

    // A message that is not internal goes out by mail to its recipients.
    await userEvent.click(screen.getByLabelText('Internal (staff only)'));
    await userEvent.type(screen.getByLabelText('Message'), 'An engineer visits tomorrow.');
    await userEvent.type(screen.getByLabelText('Mail to (comma-separated)'), 'site@harbour.example, ops@harbour.example');
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    await notice('Your message was added.');
    expect(variablesOf(harness.calls, 'AddIssueMessage')[1]).toEqual({
      input: {
        issueHashId: 'i1',
        message: 'An engineer visits tomorrow.',
        isInternal: false,
        to: ['site@harbour.example', 'ops@harbour.example'],
        cc: [],
        fileIdentifiers: [],
      },
    });

    const [, internal] = await screen.findAllByTestId('issue-message');
    expect(internal).toHaveTextContent('Internal');
    expect(within(screen.getAllByTestId('issue-message')[0] as HTMLElement).queryByRole('button', { name: 'Edit' })).toBeNull();
    await userEvent.click(within(internal as HTMLElement).getByRole('button', { name: 'Edit' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit the internal message' });
    await userEvent.clear(within(edit).getByLabelText('Message'));
    await userEvent.type(within(edit).getByLabelText('Message'), 'A breaker tripped; the installer resets it.');
    await userEvent.click(within(edit).getByRole('button', { name: 'Save' }));
    await notice('The message was saved.');
    expect(variablesOf(harness.calls, 'UpdateIssueMessage')).toEqual([{ hashId: 'm2', message: 'A breaker tripped; the installer resets it.' }]);

    await userEvent.click(screen.getByRole('button', { name: 'Resolve' }));
    const confirm = await screen.findByRole('dialog', { name: 'Resolve this issue?' });
    await userEvent.click(within(confirm).getByLabelText('Silently: no timeline message, nobody told'));
    await userEvent.click(within(confirm).getByRole('button', { name: 'Resolve' }));
    await notice('The issue was resolved.');
    expect(variablesOf(harness.calls, 'ResolveIssue')).toEqual([{ hashId: 'i1', silent: true }]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Reopen' })).toBeInTheDocument());
    expect(screen.getAllByTestId('issue-status')[0]).toHaveTextContent('Resolved');
  });

  it('edits the flags and the next activity due date, sending only what changed', async () => {
    const harness = renderConsole('/admin/issues/i1', issueServer());
    await screen.findByRole('heading', { name: 'Harbour battery disconnected' }, { timeout: 10_000 });
    expect(screen.getByTestId('issue-next-activity')).toHaveTextContent('None');
    await userEvent.click(screen.getByRole('button', { name: 'Edit issue' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit the issue' });
    await userEvent.click(within(edit).getByLabelText('Gridport handles it'));
    await userEvent.type(within(edit).getByLabelText('Next activity due (local time)'), '2030-01-02T09:30');
    await userEvent.click(within(edit).getByRole('button', { name: 'Save' }));
    await notice('The issue was saved.');
    expect(variablesOf(harness.calls, 'UpdateIssue')).toEqual([
      { hashId: 'i1', input: { gridportIssueOwner: false, nextActivityDueAt: new Date('2030-01-02T09:30').toISOString() } },
    ]);
    await waitFor(() => expect(screen.getByTestId('issue-next-activity')).toHaveTextContent(new Date('2030-01-02T09:30').toLocaleString()));
  });

  it('adds a subscriber found by search and removes one after confirming', async () => {
    const harness = renderConsole('/admin/issues/i1', issueServer());
    await screen.findByRole('heading', { name: 'Harbour battery disconnected' }, { timeout: 10_000 });
    await userEvent.click(screen.getByRole('button', { name: 'Add subscribers' }));
    const add = await screen.findByRole('dialog', { name: 'Add subscribers' });
    await userEvent.type(within(add).getByLabelText('Search users by name or email'), 'Sam');
    await userEvent.click(await within(add).findByLabelText(/Sam Site/));
    await userEvent.click(within(add).getByRole('button', { name: 'Add subscribers' }));
    await notice('The subscribers were added.');
    expect(variablesOf(harness.calls, 'AddIssueSubscribers')).toEqual([{ hashId: 'i1', userHashIds: ['u5'] }]);
    expect(await screen.findByTestId('issue-subscriber')).toHaveTextContent('Sam Site <sam@harbour.example>');

    await userEvent.click(screen.getByRole('button', { name: 'Remove Sam Site' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove this subscriber?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    await notice('The subscriber was removed.');
    expect(variablesOf(harness.calls, 'RemoveIssueSubscribers')).toEqual([{ hashId: 'i1', userHashIds: ['u5'] }]);
    await waitFor(() => expect(screen.queryByTestId('issue-subscriber')).toBeNull());
  });

  it('uploads an attached file as a data URL and sends the message with its identifier', async () => {
    const harness = renderConsole('/admin/issues/i1', issueServer());
    await screen.findByRole('heading', { name: 'Harbour battery disconnected' }, { timeout: 10_000 });
    await userEvent.upload(screen.getByLabelText('Attach files'), new File(['Breaker B2 tripped.'], 'breaker.txt', { type: 'text/plain' }));
    expect(await screen.findByRole('link', { name: 'breaker.txt' })).toHaveAttribute('href', '/console/v1/file/f1');
    const uploads = harness.calls.filter((call) => call.path === '/console/v1/file/upload');
    expect(uploads.map((call) => call.body)).toEqual([{ dataUrl: `data:text/plain;base64,${btoa('Breaker B2 tripped.')}`, name: 'breaker.txt' }]);

    await userEvent.type(screen.getByLabelText('Message'), 'The breaker log.');
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    await notice('Your message was added.');
    expect(variablesOf(harness.calls, 'AddIssueMessage')).toEqual([
      { input: { issueHashId: 'i1', message: 'The breaker log.', isInternal: true, to: [], cc: [], fileIdentifiers: ['f1'] } },
    ]);
    await waitFor(() => expect(screen.queryByRole('link', { name: 'breaker.txt' })).toBeNull());
  });

  it('shows an issue someone else resolved meanwhile as resolved, with the refusal', async () => {
    renderConsole('/admin/issues/i1', issueServer({ resolvedElsewhere: true }));
    await screen.findByRole('heading', { name: 'Harbour battery disconnected' }, { timeout: 10_000 });
    await userEvent.click(screen.getByRole('button', { name: 'Resolve' }));
    const confirm = await screen.findByRole('dialog', { name: 'Resolve this issue?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Resolve' }));
    await notice('The request failed: The issue is already resolved.');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByRole('button', { name: 'Reopen' })).toBeInTheDocument();
  });

  it("lists a device's issues in its issues tab", async () => {
    const harness = renderConsole('/admin/devices/d7/issues', (call) => {
      if (graphqlBodyOf(call).operationName === 'AdminDeviceSettings') {
        return {
          status: 200,
          body: {
            data: {
              device: anAdminDevice(),
            },
          },
        };
      }
      return issueServer()(call);
    });
    await screen.findByRole('heading', { name: 'Issues of this device' }, { timeout: 10_000 });
    await screen.findByRole('row', { name: /Harbour battery disconnected/ });
    expect(screen.queryByRole('group', { name: 'Device' })).toBeNull();
    expect(variablesOf(harness.calls, 'AdminIssueList')[0]).toMatchObject({ deviceHashId: 'd7' });
  });
});
