import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Right } from '../../../../../contracts/rights';
import { withListViewport } from '../../../test-support/devices';
import { graphqlData as answer, graphqlRefusal, staffServer, variablesOf } from '../../../test-support/graphql';
import { renderConsole, type FakeAnswer, type FakeHandler } from '../../../test-support/render';

withListViewport();

const harbour = { __typename: 'Organization', hashId: 'o1', name: 'Harbour', isProvider: false };
const gridport = { __typename: 'Organization', hashId: 'o0', name: 'Gridport', isProvider: true };

const anInvite = (hashId: string, email: string, expiresAt: string) => ({
  __typename: 'UserInvite',
  hashId,
  email,
  expiresAt,
  rights: ['CUSTOMER_READ'],
  organization: { __typename: 'UserInviteOrganization', hashId: 'o1', name: 'Harbour' },
});

/** A staff session with `rights`; invites listed until revoked; `onInvite` answers inviteUsers. */
function server(rights: Right[], { onInvite }: { onInvite?: (input: Record<string, unknown>) => FakeAnswer } = {}): FakeHandler {
  let invites = [anInvite('i1', 'new@harbour.example', '2099-01-01T00:00:00.000Z'), anInvite('i2', 'late@harbour.example', '2020-01-01T00:00:00.000Z')];
  return staffServer(
    rights,
    (operationName, variables) => {
      switch (operationName) {
        case 'AdminUserInviteList':
          return answer({ userInvites: { __typename: 'UserInvitePage', rows: invites, nextPageOffset: null } });
        case 'RevokeUserInvite':
          invites = invites.filter((invite) => invite.hashId !== variables.hashId);
          return answer({ revokeUserInvite: true });
        case 'OrganizationPickerOrganization':
          return answer({ organization: variables.hashId === 'o0' ? gridport : harbour });
        case 'OrganizationPickerOrganizations':
          return answer({ organizations: { __typename: 'OrganizationPage', rows: [harbour, gridport] } });
        case 'InviteUsers': {
          const input = variables.input as { emails: string[] };
          return onInvite?.(input) ?? answer({ inviteUsers: input.emails.map((email, index) => ({ __typename: 'UserInvite', hashId: `n${index}`, email })) });
        }
        default:
          return undefined;
      }
    },
    'Olivia Ops',
  );
}

describe('the invite list', () => {
  it('shows each invite with its organisation, rights and expiry, an expired one as such', async () => {
    renderConsole('/admin/user-invites', server(['gridport.employee']));
    const row = (await screen.findByText('late@harbour.example', {}, { timeout: 10_000 })).closest('a') as HTMLElement;
    expect(within(row).getByText('Harbour')).toBeInTheDocument();
    expect(within(row).getByText('Read')).toBeInTheDocument();
    expect(within(row).getByText(/^Expired /)).toBeInTheDocument();
    const open = screen.getByText('new@harbour.example').closest('a') as HTMLElement;
    expect(within(open).queryByText(/^Expired /)).toBeNull();
  });

  it('opens an invite over the list and revokes it after a confirmation; the list reloads without it', async () => {
    const harness = renderConsole('/admin/user-invites?filter=harbour', server(['gridport.ops']));
    await userEvent.click(await screen.findByText('new@harbour.example', {}, { timeout: 10_000 }));
    expect(harness.router.state.location.search).toBe('?filter=harbour&invite=i1');
    const details = await screen.findByRole('dialog', { name: 'Invite of new@harbour.example' });
    await userEvent.click(within(details).getByRole('button', { name: 'Revoke' }));
    const confirmation = await screen.findByRole('dialog', { name: 'Revoke this invite?' });
    expect(confirmation).toHaveTextContent('The link mailed to new@harbour.example stops working.');
    await userEvent.click(within(confirmation).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(variablesOf(harness.calls, 'RevokeUserInvite')).toEqual([{ hashId: 'i1' }]));
    await waitFor(() => expect(screen.queryByText('new@harbour.example')).toBeNull());
    await waitFor(() => expect(harness.router.state.location.search).toBe('?filter=harbour'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('late@harbour.example')).toBeInTheDocument();
  });

  it('shows an employee the invite the address names, with Revoke and "Invite users" disabled with the no-permission hint', async () => {
    renderConsole('/admin/user-invites?invite=i1', server(['gridport.employee']));
    const details = await screen.findByRole('dialog', { name: 'Invite of new@harbour.example' }, { timeout: 10_000 });
    const revoke = within(details).getByRole('button', { name: 'Revoke' });
    expect(revoke).toBeDisabled();
    await userEvent.hover(revoke.parentElement as HTMLElement);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('No permission');
    expect(screen.getByRole('button', { name: 'Invite users' })).toBeDisabled();
  });
});

describe('inviting users', () => {
  it('invites the emails typed, one a line or comma separated, into the organisation of the address, with the rights ticked', async () => {
    const harness = renderConsole('/admin/user-invites/add?organizationHashId=o1', server(['gridport.ops']));
    await userEvent.type(await screen.findByLabelText('Emails', {}, { timeout: 10_000 }), 'ann@harbour.example, bob@harbour.example{enter}cy@harbour.example');
    expect(screen.getByTestId('chosen-organization')).toHaveTextContent('Chosen: Harbour');
    expect(screen.getByRole('checkbox', { name: 'Read' })).toBeChecked();
    expect(screen.queryByRole('checkbox', { name: 'Ops' })).toBeNull();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Write' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send invites' }));
    await waitFor(() =>
      expect(variablesOf(harness.calls, 'InviteUsers')).toEqual([
        {
          input: {
            organizationHashId: 'o1',
            emails: ['ann@harbour.example', 'bob@harbour.example', 'cy@harbour.example'],
            rights: ['CUSTOMER_READ', 'CUSTOMER_WRITE'],
          },
        },
      ]),
    );
    await waitFor(() => expect(harness.router.state.location.pathname).toBe('/admin/organizations/o1/users'));
  });

  it('lets Ops invite staff as employees only: other staff rights are disabled with the no-permission hint', async () => {
    const harness = renderConsole('/admin/user-invites/add', server(['gridport.ops']));
    await userEvent.type(await screen.findByLabelText('Emails', {}, { timeout: 10_000 }), 'reader@gridport.example');
    await userEvent.type(screen.getByLabelText('Search organisations by name'), 'grid');
    await userEvent.click(await screen.findByRole('button', { name: 'Gridport' }));
    expect(screen.getByRole('checkbox', { name: 'Developer' })).toBeDisabled();
    expect(screen.getByText(/only an admin invites with other staff rights/)).toBeInTheDocument();
    await userEvent.hover(screen.getByRole('checkbox', { name: 'Developer' }).closest('label') ?? document.body);
    expect(await screen.findByRole('tooltip', { name: 'No permission' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send invites' }));
    await waitFor(() =>
      expect(variablesOf(harness.calls, 'InviteUsers')).toEqual([
        { input: { organizationHashId: 'o0', emails: ['reader@gridport.example'], rights: ['GRIDPORT_EMPLOYEE'] } },
      ]),
    );
  });

  it('offers an admin staff rights once the provider organisation is chosen', async () => {
    const harness = renderConsole('/admin/user-invites/add', server(['gridport.admin']));
    await userEvent.type(await screen.findByLabelText('Emails', {}, { timeout: 10_000 }), 'dev@gridport.example');
    await userEvent.click(screen.getByRole('button', { name: 'Send invites' }));
    expect(await screen.findByText('Choose the organisation to invite into.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Search organisations by name'), 'grid');
    await userEvent.click(await screen.findByRole('button', { name: 'Gridport' }));
    expect(screen.getByRole('checkbox', { name: 'Employee' })).toBeChecked();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Developer' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send invites' }));
    await waitFor(() =>
      expect(variablesOf(harness.calls, 'InviteUsers')).toEqual([
        { input: { organizationHashId: 'o0', emails: ['dev@gridport.example'], rights: ['GRIDPORT_DEVELOPER', 'GRIDPORT_EMPLOYEE'] } },
      ]),
    );
  });

  it('checks each email and the count before sending', async () => {
    const harness = renderConsole('/admin/user-invites/add?organizationHashId=o1', server(['gridport.ops']));
    const emails = await screen.findByLabelText('Emails', {}, { timeout: 10_000 });
    await userEvent.type(emails, 'good@harbour.example, not-an-email, also bad@');
    await userEvent.click(screen.getByRole('button', { name: 'Send invites' }));
    expect(await screen.findByText('Not valid emails (RFC 5322): not-an-email, also bad@')).toBeInTheDocument();
    await userEvent.clear(emails);
    await userEvent.click(emails);
    await userEvent.paste(Array.from({ length: 21 }, (_, index) => `p${index}@harbour.example`).join('\n'));
    await userEvent.tab();
    expect(await screen.findByText('At most 20 emails at once (21 given).')).toBeInTheDocument();
    expect(variablesOf(harness.calls, 'InviteUsers')).toEqual([]);
  });

  it.each([
    ['has_invite', 'These emails already have an open invite: ann@harbour.example. Revoke it first, or leave them out.'],
    ['user_exists', 'These emails already belong to users: ann@harbour.example.'],
  ])('shows %s naming the emails', async (key, text) => {
    renderConsole(
      '/admin/user-invites/add?organizationHashId=o1',
      server(['gridport.ops'], { onInvite: () => graphqlRefusal(key, { emails: ['ann@harbour.example'] }) }),
    );
    await userEvent.type(await screen.findByLabelText('Emails', {}, { timeout: 10_000 }), 'ann@harbour.example');
    await userEvent.click(screen.getByRole('button', { name: 'Send invites' }));
    expect(await screen.findByTestId('invite-refusal')).toHaveTextContent(text);
  });

  it('is closed to an employee: the form is disabled and Send says why', async () => {
    renderConsole('/admin/user-invites/add?organizationHashId=o1', server(['gridport.employee']));
    expect(await screen.findByLabelText('Emails', {}, { timeout: 10_000 })).toBeDisabled();
    const send = screen.getByRole('button', { name: 'Send invites' });
    expect(send).toBeDisabled();
    await userEvent.hover(send.parentElement as HTMLElement);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('No permission');
  });
});
