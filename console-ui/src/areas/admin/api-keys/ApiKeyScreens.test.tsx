import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Right } from '../../../../../contracts/rights';
import { withListViewport } from '../../../test-support/devices';
import { adminOrganizationAnswer, staffServer, variablesOf } from '../../../test-support/graphql';
import { renderConsole, type FakeHandler } from '../../../test-support/render';

withListViewport();

const apiKey = {
  __typename: 'ApiKey',
  hashId: 'k1',
  name: 'Trading desk',
  ipRanges: ['203.0.113.0/24'],
  rights: ['customer.write'],
  user: { __typename: 'ApiKeyUser', hashId: 'u1', name: 'Olivia Ops', email: 'olivia@gridport.test' },
};

const refused = (key: string, details?: unknown) => ({ data: null, errors: [{ message: key, extensions: { code: key, details } }] });

/** A staff session with `rights` and the API-key operations; `answers` replaces an operation's answer body. */
function server(rights: Right[], answers: Record<string, (variables: Record<string, unknown>) => unknown> = {}): FakeHandler {
  return staffServer(rights, (operationName, variables) => {
    const answer = answers[operationName];
    if (answer !== undefined) {
      return { status: 200, body: answer(variables) };
    }
    switch (operationName) {
      case 'AdminOrganization':
        return adminOrganizationAnswer(variables);
      case 'OrganizationApiKeys':
        return { status: 200, body: { data: { apiKeys: { __typename: 'ApiKeyPage', rows: [apiKey], nextPageOffset: null } } } };
      case 'ApiKeyScreen':
        return { status: 200, body: { data: { apiKey: { ...apiKey, __typename: 'ApiKeyDetail' } } } };
      case 'ObjectAuditLog':
        return { status: 200, body: { data: { auditLog: { __typename: 'AuditLogPage', rows: [], nextPageOffset: null } } } };
      case 'CreateApiKey':
        return { status: 200, body: { data: { createApiKey: { __typename: 'ApiKeySecret', hashId: 'k2', apiKey: 'gp_secret_once' } } } };
      case 'ResetApiKey':
        return { status: 200, body: { data: { resetApiKey: { __typename: 'ApiKeySecret', hashId: 'k1', apiKey: 'gp_new_secret' } } } };
      case 'UpdateApiKey':
        return { status: 200, body: { data: { updateApiKey: true } } };
      case 'DeleteApiKey':
        return { status: 200, body: { data: { deleteApiKey: true } } };
      default:
        return undefined;
    }
  });
}

const listPath = '/admin/organizations/o1/api-keys';

describe('the API keys tab of an organisation', () => {
  it("lists the organisation's keys, filters by name in the address and opens a key", async () => {
    const harness = renderConsole(listPath, server(['gridport.employee']));
    expect(await screen.findByText('Trading desk', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText('203.0.113.0/24')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Name'), 'desk');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(harness.router.state.location.search).toBe('?filter=desk'));
    await waitFor(() => expect(variablesOf(harness.calls, 'OrganizationApiKeys').at(-1)).toMatchObject({ organizationHashId: 'o1', filter: 'desk' }));
    await userEvent.click(await screen.findByText('Trading desk'));
    await waitFor(() => expect(harness.router.state.location.pathname).toBe('/admin/organizations/o1/api-keys/k1'));
  });

  it('creates a key and shows its secret once with a copy button, then opens the new key', async () => {
    const user = userEvent.setup();
    const harness = renderConsole(listPath, server(['gridport.developer']));
    await user.click(await screen.findByRole('button', { name: 'Create API key' }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Create an API key' });
    await user.type(within(dialog).getByLabelText('Name'), 'Billing export');
    await user.type(within(dialog).getByLabelText('IP ranges'), '198.51.100.0/24{Enter}{Enter}203.0.113.7/32');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    const shown = await screen.findByRole('dialog', { name: 'API key created' });
    expect(within(shown).getByRole('note')).toHaveTextContent('it is shown only this once');
    expect(within(shown).getByTestId('api-key-secret')).toHaveTextContent('gp_secret_once');
    await user.click(within(shown).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe('gp_secret_once');
    expect(variablesOf(harness.calls, 'CreateApiKey')).toEqual([
      { input: { organizationHashId: 'o1', name: 'Billing export', ipRanges: ['198.51.100.0/24', '203.0.113.7/32'], publicKey: null } },
    ]);

    await user.click(within(shown).getByRole('button', { name: 'I have copied it' }));
    await waitFor(() => expect(harness.router.state.location.pathname).toBe('/admin/organizations/o1/api-keys/k2'));
  });

  it('checks IP ranges before sending, and shows the server refusing one beside the field', async () => {
    const harness = renderConsole(
      listPath,
      server(['gridport.ops'], {
        CreateApiKey: () => refused('payload_invalid', [{ path: 'ipRanges[0]', message: 'ipRanges[0] must be an IPv4 CIDR range such as 203.0.113.0/24' }]),
      }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Create API key' }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Create an API key' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Meter feed');
    await userEvent.type(within(dialog).getByLabelText('IP ranges'), '10.0.0.0/33');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('10.0.0.0/33 is not an IPv4 CIDR range such as 203.0.113.0/24.')).toBeInTheDocument();
    expect(variablesOf(harness.calls, 'CreateApiKey')).toEqual([]);

    await userEvent.clear(within(dialog).getByLabelText('IP ranges'));
    await userEvent.type(within(dialog).getByLabelText('IP ranges'), '10.0.0.0/8');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('ipRanges[0] must be an IPv4 CIDR range such as 203.0.113.0/24')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Create an API key' })).toBeInTheDocument();
  });

  it('disables creating for an employee, with the no-permission tooltip', async () => {
    renderConsole(listPath, server(['gridport.employee']));
    const create = await screen.findByRole('button', { name: 'Create API key' }, { timeout: 10_000 });
    expect(create).toBeDisabled();
    await userEvent.hover(create.parentElement ?? create);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('No permission');
  });
});

describe('the API key screen', () => {
  const keyPath = '/admin/organizations/o1/api-keys/k1';

  it('shows the key with its rights, creator and IP ranges, and its history', async () => {
    const harness = renderConsole(keyPath, server(['gridport.employee']));
    expect(await screen.findByRole('heading', { name: 'Trading desk' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText('customer.write')).toBeInTheDocument();
    expect(screen.getByText('Olivia Ops <olivia@gridport.test>')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'IP ranges' })).getByText('203.0.113.0/24')).toBeInTheDocument();
    await waitFor(() => expect(variablesOf(harness.calls, 'ObjectAuditLog')[0]).toMatchObject({ objectType: 'API_KEYS', hashId: 'k1' }));
    for (const name of ['Edit', 'Reset secret', 'Delete']) {
      expect(screen.getByRole('button', { name })).toBeDisabled();
    }
  });

  it('says when the key cannot be loaded, and tries again', async () => {
    let reads = 0;
    renderConsole(
      keyPath,
      server(['gridport.ops'], {
        ApiKeyScreen: () => {
          reads += 1;
          return reads === 1 ? refused('not_found') : { data: { apiKey: { ...apiKey, __typename: 'ApiKeyDetail' } } };
        },
      }),
    );
    expect(await screen.findByText('The API key could not be loaded (it may have been deleted).', {}, { timeout: 10_000 })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Trading desk' })).toBeInTheDocument();
  });

  it('edits the IP ranges and removes the public key, sending only what changed', async () => {
    const harness = renderConsole(keyPath, server(['gridport.ops']));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the API key' });
    await userEvent.type(within(dialog).getByLabelText('IP ranges'), '{Enter}192.0.2.0/24');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Remove the public key' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(variablesOf(harness.calls, 'UpdateApiKey')).toEqual([{ hashId: 'k1', input: { ipRanges: ['203.0.113.0/24', '192.0.2.0/24'], publicKey: null } }]);
  });

  it('resets the secret after confirmation and shows the new one once', async () => {
    const harness = renderConsole(keyPath, server(['gridport.developer']));
    await userEvent.click(await screen.findByRole('button', { name: 'Reset secret' }, { timeout: 10_000 }));
    const confirmation = await screen.findByRole('dialog', { name: 'Reset the secret?' });
    expect(variablesOf(harness.calls, 'ResetApiKey')).toEqual([]);
    await userEvent.click(within(confirmation).getByRole('button', { name: 'Reset secret' }));

    const shown = await screen.findByRole('dialog', { name: 'New secret' });
    expect(within(shown).getByTestId('api-key-secret')).toHaveTextContent('gp_new_secret');
    expect(variablesOf(harness.calls, 'ResetApiKey')).toEqual([{ hashId: 'k1' }]);
  });

  it('deletes the key after confirmation and goes back to the list', async () => {
    const harness = renderConsole(keyPath, server(['gridport.ops']));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }, { timeout: 10_000 }));
    const confirmation = await screen.findByRole('dialog', { name: 'Delete the API key?' });
    expect(confirmation).toHaveTextContent('Calls with the key Trading desk are refused from then on.');
    await userEvent.click(within(confirmation).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(harness.router.state.location.pathname).toBe('/admin/organizations/o1/api-keys'));
    expect(variablesOf(harness.calls, 'DeleteApiKey')).toEqual([{ hashId: 'k1' }]);
  });
});
