import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Right } from '../../../../../contracts/rights';
import { withListViewport } from '../../../test-support/devices';
import { adminOrganizationAnswer, graphqlBodyOf, graphqlData, graphqlRefusal, staffServer, variablesOf } from '../../../test-support/graphql';
import { renderConsole, type FakeHandler } from '../../../test-support/render';

withListViewport();

const harbour = { __typename: 'Organization', hashId: 'o1', name: 'Harbour', isProvider: false };
const gridport = { __typename: 'Organization', hashId: 'o0', name: 'Gridport', isProvider: true };

function aUser(overrides: Record<string, unknown> = {}) {
  return { __typename: 'User', hashId: 'u5', name: 'Sam Site', email: 'sam@harbour.example', rights: ['customer.read'], organization: harbour, ...overrides };
}

/** A staff session with `rights` and the GraphQL answers of the user screens; `onUpdate` answers updateUser. */
function server(
  rights: Right[],
  { user = aUser(), onUpdate }: { user?: ReturnType<typeof aUser>; onUpdate?: (input: Record<string, unknown>) => unknown } = {},
): FakeHandler {
  const answer = graphqlData;
  return staffServer(
    rights,
    (operationName, variables) => {
      switch (operationName) {
        case 'AdminOrganization':
          return adminOrganizationAnswer(variables, { name: 'Harbour' });
        case 'AdminUserList':
          return answer({
            users: {
              __typename: 'UserPage',
              rows: [aUser(), aUser({ hashId: 'u6', name: 'Olivia Ops', email: 'olivia@gridport.example', rights: ['gridport.ops'], organization: gridport })],
              nextPageOffset: null,
            },
          });
        case 'AdminUser':
          return answer({ user });
        case 'UpdateUser':
          return (
            (onUpdate?.(variables.input as Record<string, unknown>) as ReturnType<FakeHandler>) ??
            answer({ updateUser: { ...user, ...(variables.input as object), rights: user.rights } })
          );
        case 'OrganizationPickerOrganizations':
          return answer({ organizations: { __typename: 'OrganizationPage', rows: [harbour, { ...harbour, hashId: 'o2', name: 'Harbour North' }] } });
        case 'ObjectAuditLog':
          return answer({ auditLog: { __typename: 'AuditLogPage', rows: [], nextPageOffset: null } });
        case 'OrganizationUsers':
          return answer({
            users: { __typename: 'UserPage', rows: [aUser()], nextPageOffset: null },
            userInvites: {
              __typename: 'UserInvitePage',
              rows: [
                { __typename: 'UserInvite', hashId: 'i1', email: 'new@harbour.example', expiresAt: '2020-01-01T00:00:00.000Z', rights: ['CUSTOMER_READ'] },
              ],
              nextPageOffset: null,
            },
          });
        default:
          return undefined;
      }
    },
    'Olivia Ops',
  );
}

describe('the admin user list', () => {
  it('shows name, email, organisation and rights, filters by name and organisation, and links each user', async () => {
    const harness = renderConsole('/admin/users?organizationHashId=o1', server(['gridport.employee']));
    expect(await screen.findByText('Sam Site', {}, { timeout: 10_000 })).toBeInTheDocument();
    const row = screen.getByText('Sam Site').closest('a');
    expect(row).toHaveAttribute('href', '/admin/users/u5/general');
    expect(within(row as HTMLElement).getByText('Harbour')).toBeInTheDocument();
    expect(within(row as HTMLElement).getByText('Read')).toBeInTheDocument();
    expect(screen.getByText('Ops')).toBeInTheDocument();
    expect(variablesOf(harness.calls, 'AdminUserList')[0]).toMatchObject({ organizationHashId: 'o1' });
    await userEvent.type(screen.getByLabelText('Name or email'), 'sam');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(variablesOf(harness.calls, 'AdminUserList').at(-1)).toMatchObject({ filter: 'sam', organizationHashId: 'o1' }));
    expect(harness.router.state.location.search).toBe('?filter=sam&organizationHashId=o1');
  });

  it('offers "Invite users" to Ops only: an employee sees it disabled with the no-permission hint', async () => {
    renderConsole('/admin/users', server(['gridport.employee']));
    const invite = await screen.findByRole('button', { name: 'Invite users' }, { timeout: 10_000 });
    expect(invite).toBeDisabled();
    await userEvent.hover(invite.parentElement as HTMLElement);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('No permission');
  });
});

describe('one user', () => {
  it('lets Ops change a customer user: only the changed fields are sent, and the saved user shows', async () => {
    const harness = renderConsole('/admin/users/u5/general', server(['gridport.ops']));
    const name = await screen.findByLabelText('Name', {}, { timeout: 10_000 });
    expect(within(screen.getByTestId('object-subtitle')).getByRole('link', { name: 'Harbour' })).toHaveAttribute('href', '/admin/organizations/o1');
    await userEvent.clear(name);
    await userEvent.type(name, 'Sam Harbour');
    await userEvent.click(screen.getByLabelText('Write'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(variablesOf(harness.calls, 'UpdateUser')).toEqual([{ hashId: 'u5', input: { name: 'Sam Harbour', rights: ['CUSTOMER_READ', 'CUSTOMER_WRITE'] } }]),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Sam Harbour' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'History' })).toBeInTheDocument();
  });

  it('moves a user to another organisation chosen by name, and says the move signs them out', async () => {
    const harness = renderConsole('/admin/users/u5/general', server(['gridport.ops']));
    await userEvent.type(await screen.findByLabelText('Search organisations by name', {}, { timeout: 10_000 }), 'harbour');
    await userEvent.click(await screen.findByRole('button', { name: 'Harbour North' }));
    expect(screen.getByText('Moving a user to another organisation signs them out everywhere.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(variablesOf(harness.calls, 'UpdateUser')).toEqual([{ hashId: 'u5', input: { organizationHashId: 'o2' } }]));
  });

  it("shows user_exists naming the email, and the email rule's message before sending", async () => {
    const harness = renderConsole(
      '/admin/users/u5/general',
      server(['gridport.ops'], { onUpdate: (input) => graphqlRefusal('user_exists', { email: input.email }) }),
    );
    const email = await screen.findByLabelText('Email', {}, { timeout: 10_000 });
    await userEvent.clear(email);
    await userEvent.type(email, 'not an email');
    await userEvent.tab();
    expect(await screen.findByText('Invalid email (RFC 5322)')).toBeInTheDocument();
    await userEvent.clear(email);
    await userEvent.type(email, 'taken@harbour.example');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByTestId('user-refusal')).toHaveTextContent('Another user already has the email taken@harbour.example.');
    expect(variablesOf(harness.calls, 'UpdateUser')).toHaveLength(1);
  });

  it('leaves staff rights to Admin: Ops see a staff user read-only, Admin may tick them', async () => {
    const staffUser = aUser({ hashId: 'u6', name: 'Eve Employee', rights: ['gridport.employee'], organization: gridport });
    const ops = renderConsole('/admin/users/u6/general', server(['gridport.ops'], { user: staffUser }));
    const save = await screen.findByRole('button', { name: 'Save' }, { timeout: 10_000 });
    expect(save).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Admin' })).toBeDisabled();
    expect(screen.getByLabelText('Name')).toBeDisabled();
    expect(screen.getByText('Only an admin grants or removes staff rights, or changes a staff user.')).toBeInTheDocument();
    ops.unmount();

    renderConsole('/admin/users/u6/general', server(['gridport.admin'], { user: staffUser }));
    const ops2 = await screen.findByRole('checkbox', { name: 'Ops' }, { timeout: 10_000 });
    expect(ops2).toBeEnabled();
  });

  it('says so when the hash id names no user', async () => {
    const base = server(['gridport.employee']);
    renderConsole('/admin/users/nobody/general', (call) =>
      graphqlBodyOf(call).operationName === 'AdminUser' ? graphqlRefusal('not_found', { userHashId: 'nobody' }) : base(call),
    );
    expect(await screen.findByText('There is no such user.', {}, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('says when the user cannot be loaded, and tries again', async () => {
    let failures = 1;
    const base = server(['gridport.employee']);
    renderConsole('/admin/users/u5/general', (call) => {
      if (graphqlBodyOf(call).operationName === 'AdminUser' && failures > 0) {
        failures -= 1;
        return { status: 500, body: { key: 'internal_server_error' } };
      }
      return base(call);
    });
    expect(await screen.findByText('The user could not be loaded.', {}, { timeout: 10_000 })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sam Site' })).toBeInTheDocument();
  });

  it('lets an employee read a user but not change them', async () => {
    renderConsole('/admin/users/u5/general', server(['gridport.employee']));
    const save = await screen.findByRole('button', { name: 'Save' }, { timeout: 10_000 });
    expect(save).toBeDisabled();
    expect(screen.getByLabelText('Name')).toBeDisabled();
    await userEvent.hover(save.parentElement as HTMLElement);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('No permission');
  });
});

describe("an organisation's users tab", () => {
  it('lists its users and open invites (an expired one says so), and invites into it', async () => {
    const harness = renderConsole('/admin/organizations/o1/users', server(['gridport.ops']));
    const users = await screen.findByRole('table', { name: 'Users' }, { timeout: 10_000 });
    expect(within(users).getByRole('link', { name: 'Sam Site' })).toHaveAttribute('href', '/admin/users/u5/general');
    const invites = screen.getByRole('table', { name: 'Open invites' });
    expect(within(invites).getByText('new@harbour.example')).toBeInTheDocument();
    expect(within(invites).getByText(/^Expired /)).toBeInTheDocument();
    expect(variablesOf(harness.calls, 'OrganizationUsers')[0]).toEqual({ organizationHashId: 'o1' });
    await userEvent.click(screen.getByRole('button', { name: 'Invite users' }));
    await waitFor(() =>
      expect(`${harness.router.state.location.pathname}${harness.router.state.location.search}`).toBe('/admin/user-invites/add?organizationHashId=o1'),
    );
  });

  it('shows an error state with a retry when the lists cannot be loaded', async () => {
    let failures = 1;
    const base = server(['gridport.ops']);
    renderConsole('/admin/organizations/o1/users', (call) => {
      if (graphqlBodyOf(call).operationName === 'OrganizationUsers' && failures > 0) {
        failures -= 1;
        return { status: 500, body: { key: 'internal_server_error' } };
      }
      return base(call);
    });
    const alerts = await screen.findAllByText('The list could not be loaded.', {}, { timeout: 10_000 });
    expect(alerts).toHaveLength(2);
    await userEvent.click(screen.getAllByRole('button', { name: 'Try again' })[0] as HTMLElement);
    expect(await screen.findByRole('table', { name: 'Users' })).toBeInTheDocument();
  });
});
