import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Right } from '../../../../../contracts/rights';
import { withListViewport } from '../../../test-support/devices';
import { graphqlBodyOf, graphqlData as answer, graphqlRefusal as refusal, staffServer, variablesOf } from '../../../test-support/graphql';
import { renderConsole, type FakeAnswer } from '../../../test-support/render';

const harbour = { __typename: 'Organization', hashId: 'o1', name: 'Harbour Energy' };
const sam = { __typename: 'DeviceUser', hashId: 'u5', name: 'Sam Site', email: 'sam@harbour.example' };

function aGroup(overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'DeviceGroup',
    hashId: 'g1',
    name: 'North sites',
    organizationHashId: 'o1',
    organization: harbour,
    deviceCount: 3,
    deviceOutageEmails: ['ops@harbour.example'],
    deviceOutageUsers: [sam],
    apiKeys: [{ __typename: 'DeviceGroupApiKey', hashId: 'k1', name: 'Trader feed' }],
    ...overrides,
  };
}

/** The device group screens' server; `refuse` answers a mutation by name with a refusal instead. */
function server(rights: Right[] = ['gridport.ops'], refuse: Record<string, FakeAnswer> = {}) {
  return staffServer(
    rights,
    (operationName) => {
      const refused = refuse[operationName];
      if (refused !== undefined) {
        return refused;
      }
      switch (operationName) {
        case 'DeviceGroupList':
          return answer({ deviceGroups: { __typename: 'DeviceGroupPage', rows: [aGroup()], nextPageOffset: null } });
        case 'DeviceGroup':
          return answer({ deviceGroup: aGroup() });
        case 'OrganizationPickerOrganizations':
          return answer({ organizations: { __typename: 'OrganizationPage', rows: [{ ...harbour, isProvider: false }] } });
        case 'OutageUserSearch':
          return answer({ users: { __typename: 'UserPage', rows: [{ ...sam, __typename: 'User', organization: harbour }] } });
        case 'CreateDeviceGroup':
          return answer({ createDeviceGroup: { __typename: 'DeviceGroup', hashId: 'g9' } });
        case 'UpdateDeviceGroup':
          return answer({ updateDeviceGroup: { __typename: 'DeviceGroup', hashId: 'g1' } });
        case 'DeleteDeviceGroup':
          return answer({ deleteDeviceGroup: true });
        case 'DeviceGroupDevices':
          return answer({
            devices: {
              __typename: 'DevicePage',
              rows: [{ __typename: 'Device', hashId: 'd7', name: 'Harbour battery', identifier: 'gw-7', isOnline: true }],
              nextPageOffset: null,
            },
          });
        case 'ObjectAuditLog':
          return answer({ auditLog: { __typename: 'AuditLogPage', rows: [], nextPageOffset: null } });
        case 'DeviceGroupApiKeyChoices':
          return answer({
            apiKeys: {
              __typename: 'ApiKeyPage',
              rows: [
                { __typename: 'ApiKey', hashId: 'k1', name: 'Trader feed' },
                { __typename: 'ApiKey', hashId: 'k2', name: 'Installer app' },
              ],
            },
          });
        case 'LinkDeviceGroupApiKey':
          return answer({ linkDeviceGroupApiKey: true });
        case 'UnlinkDeviceGroupApiKey':
          return answer({ unlinkDeviceGroupApiKey: true });
        default:
          return undefined;
      }
    },
    'Olivia Ops',
  );
}

/** Hovering the control's anchor shows the "No permission" hint. */
async function expectNoPermission(control: HTMLElement): Promise<void> {
  expect(control).toBeDisabled();
  await userEvent.hover(control.parentElement ?? control);
  expect(await screen.findByRole('tooltip')).toHaveTextContent('No permission');
  await userEvent.unhover(control.parentElement ?? control);
}

describe('the device group screens', () => {
  withListViewport();

  it('list the groups by name and organisation, each linked to its general tab', async () => {
    const harness = renderConsole('/admin/device-groups', server());
    const row = await screen.findByRole('row', { name: /North sites/ }, { timeout: 10_000 });
    expect(row).toHaveAttribute('href', '/admin/device-groups/g1/general');
    expect(row).toHaveTextContent('Harbour Energy');
    expect(row).toHaveTextContent('3');
    expect(row).toHaveTextContent('Trader feed');
    await userEvent.type(screen.getByLabelText('Organisation hash id'), 'o1');
    await userEvent.type(screen.getByLabelText('Name'), 'north');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(harness.router.state.location.search).toBe('?filter=north&organizationHashId=o1');
    await waitFor(() =>
      expect(variablesOf(harness.calls, 'DeviceGroupList')).toContainEqual(expect.objectContaining({ filter: 'north', organizationHashId: 'o1' })),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Add device group' }));
    expect(harness.router.state.location.pathname).toBe('/admin/device-groups/add');
  });

  it('create a group for an organisation found by name, name the users who cannot see its devices, and open it', async () => {
    let refuseOnce = true;
    const base = server();
    const harness = renderConsole('/admin/device-groups/add', (call) => {
      if (graphqlBodyOf(call).operationName === 'CreateDeviceGroup' && refuseOnce) {
        refuseOnce = false;
        return refusal('user_has_no_access', { hashIds: ['u5'] });
      }
      return base(call);
    });
    const name = await screen.findByLabelText('Name', {}, { timeout: 10_000 });
    await userEvent.click(screen.getByRole('button', { name: 'Create device group' }));
    expect(await screen.findByText('Choose the organisation the group belongs to.')).toBeInTheDocument();
    expect(variablesOf(harness.calls, 'CreateDeviceGroup')).toEqual([]);

    await userEvent.type(name, '  North sites ');
    await userEvent.type(within(screen.getByRole('group', { name: 'Organisation' })).getByLabelText('Search organisations by name'), 'harb');
    await userEvent.click(await within(await screen.findByRole('list', { name: 'Organisations found' })).findByRole('button', { name: 'Harbour Energy' }));
    expect(screen.getByTestId('chosen-organization')).toHaveTextContent('Harbour Energy');

    const email = screen.getByLabelText('Outage emails: new email');
    await userEvent.type(email, 'not an email{Enter}');
    expect(await screen.findByText('Invalid email (RFC 5322)')).toBeInTheDocument();
    await userEvent.clear(email);
    await userEvent.type(email, ' ops@harbour.example {Enter}');
    expect(screen.getByRole('list', { name: 'Outage emails' })).toHaveTextContent('ops@harbour.example');

    await userEvent.type(screen.getByLabelText('Outage users: search users by name or email'), 'sam');
    await userEvent.click(await within(await screen.findByRole('list', { name: 'Outage users: users found' })).findByRole('button', { name: /Sam Site/ }));
    // Only the organisation's users are offered.
    await waitFor(() => expect(variablesOf(harness.calls, 'OutageUserSearch')).toContainEqual({ filter: 'sam', organizationHashId: 'o1' }));

    await userEvent.click(screen.getByRole('button', { name: 'Create device group' }));
    expect(await screen.findByTestId('user-has-no-access')).toHaveTextContent(
      'These users cannot see the devices, so they cannot be outage contacts: Sam Site <sam@harbour.example>.',
    );
    expect(variablesOf(harness.calls, 'CreateDeviceGroup')).toEqual([
      { input: { name: 'North sites', organizationHashId: 'o1', deviceOutageEmails: ['ops@harbour.example'], deviceOutageUsersHashIds: ['u5'] } },
    ]);

    await userEvent.click(screen.getByRole('button', { name: 'Remove Sam Site' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create device group' }));
    await waitFor(() => expect(harness.router.state.location.pathname).toBe('/admin/device-groups/g9/general'));
    expect(variablesOf(harness.calls, 'CreateDeviceGroup').at(-1)).toEqual({
      input: { name: 'North sites', organizationHashId: 'o1', deviceOutageEmails: ['ops@harbour.example'], deviceOutageUsersHashIds: [] },
    });
  });

  it('show the group with its organisation, devices and history, save only what changed, and keep a group that is not empty', async () => {
    const harness = renderConsole('/admin/device-groups/g1/general', server(['gridport.ops'], { DeleteDeviceGroup: refusal('not_empty', { deviceCount: 3 }) }));
    expect(await screen.findByRole('heading', { name: 'North sites' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(within(screen.getByTestId('object-subtitle')).getByRole('link', { name: 'Harbour Energy' })).toHaveAttribute(
      'href',
      '/admin/organizations/o1/general',
    );
    const devices = await screen.findByRole('table', { name: 'Devices in this group' });
    expect(within(devices).getByRole('link', { name: 'Harbour battery' })).toHaveAttribute('href', '/admin/devices/d7');
    await waitFor(() =>
      expect(variablesOf(harness.calls, 'ObjectAuditLog')).toContainEqual(expect.objectContaining({ objectType: 'DEVICE_GROUPS', hashId: 'g1' })),
    );
    expect(screen.getByRole('list', { name: 'Outage users' })).toHaveTextContent('Sam Site <sam@harbour.example>');

    const save = screen.getByRole('button', { name: 'Save device group' });
    expect(save).toBeDisabled();
    const name = screen.getByLabelText('Name');
    await userEvent.clear(name);
    await userEvent.type(name, 'North and east sites');
    await userEvent.click(save);
    await screen.findByText('The device group was saved.');
    expect(variablesOf(harness.calls, 'UpdateDeviceGroup')).toEqual([{ hashId: 'g1', input: { name: 'North and east sites' } }]);

    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this device group?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByTestId('delete-refusal')).toHaveTextContent("This group still has 3 devices; move them out first (from each device's settings).");
    expect(harness.router.state.location.pathname).toBe('/admin/device-groups/g1/general');
  });

  it('keep a group that API keys are linked to, saying so, and delete it once the server agrees', async () => {
    let refuseOnce = true;
    const base = server();
    const harness = renderConsole('/admin/device-groups/g1/general', (call) => {
      if (graphqlBodyOf(call).operationName === 'DeleteDeviceGroup' && refuseOnce) {
        refuseOnce = false;
        return refusal('has_access', { apiKeyHashIds: ['k1'] });
      }
      return base(call);
    });
    await screen.findByRole('heading', { name: 'North sites' }, { timeout: 10_000 });
    const remove = async () => {
      await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
      await userEvent.click(within(await screen.findByRole('dialog', { name: 'Delete this device group?' })).getByRole('button', { name: 'Delete' }));
    };
    await remove();
    expect(await screen.findByTestId('delete-refusal')).toHaveTextContent('API keys are still linked to this group; unlink them on the API keys tab first.');
    await remove();
    await waitFor(() => expect(harness.router.state.location.pathname).toBe('/admin/device-groups'));
    await screen.findByText('North sites was deleted.');
    expect(variablesOf(harness.calls, 'DeleteDeviceGroup')).toEqual([{ hashId: 'g1' }, { hashId: 'g1' }]);
  });

  it('link a key of the organisation, say when it is linked already, and unlink one after asking', async () => {
    const harness = renderConsole('/admin/device-groups/g1/api-keys', server(['gridport.ops'], { LinkDeviceGroupApiKey: refusal('already_configured') }));
    const linked = await screen.findByRole('table', { name: 'Linked API keys' }, { timeout: 10_000 });
    expect(within(linked).getByRole('link', { name: 'Trader feed' })).toHaveAttribute('href', '/admin/organizations/o1/api-keys/k1');

    const link = screen.getByRole('button', { name: 'Link API key' });
    expect(link).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Search API keys by name'), 'feed');
    await userEvent.click(await within(await screen.findByRole('list', { name: 'API keys found' })).findByRole('button', { name: 'Trader feed (linked)' }));
    await waitFor(() => expect(variablesOf(harness.calls, 'DeviceGroupApiKeyChoices')).toContainEqual({ organizationHashId: 'o1', filter: 'feed' }));
    await userEvent.click(link);
    expect(await screen.findByTestId('link-refusal')).toHaveTextContent('This API key is already linked to the group.');
    expect(variablesOf(harness.calls, 'LinkDeviceGroupApiKey')).toEqual([{ deviceGroupHashId: 'g1', apiKeyHashId: 'k1' }]);

    await userEvent.click(within(linked).getByRole('button', { name: 'Unlink Trader feed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unlink Trader feed?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unlink' }));
    await screen.findByText('Trader feed was unlinked.');
    expect(variablesOf(harness.calls, 'UnlinkDeviceGroupApiKey')).toEqual([{ deviceGroupHashId: 'g1', apiKeyHashId: 'k1' }]);
  });

  it('disable adding a group, with the hint, for staff who may only read', async () => {
    const readOnly = server(['gridport.employee']);
    renderConsole('/admin/device-groups', readOnly);
    await screen.findByRole('row', { name: /North sites/ }, { timeout: 10_000 });
    await expectNoPermission(screen.getByRole('button', { name: 'Add device group' }));
  });

  it('disable the save, delete, link and unlink controls for staff who may only read', async () => {
    const harness = renderConsole('/admin/device-groups/g1/general', server(['gridport.employee']));
    await screen.findByRole('heading', { name: 'North sites' }, { timeout: 10_000 });
    await expectNoPermission(screen.getByRole('button', { name: 'Delete' }));
    await expectNoPermission(screen.getByRole('button', { name: 'Save device group' }));
    expect(screen.getByLabelText('Name')).toBeDisabled();
    expect(screen.queryByLabelText('Outage users: search users by name or email')).toBeNull();

    await userEvent.click(screen.getByRole('link', { name: 'API keys' }));
    await expectNoPermission(await screen.findByRole('button', { name: 'Link API key' }));
    await expectNoPermission(screen.getByRole('button', { name: 'Unlink Trader feed' }));
    expect(harness.router.state.location.pathname).toBe('/admin/device-groups/g1/api-keys');
  });

  it('disable creating a group on the add screen for staff who may only read', async () => {
    renderConsole('/admin/device-groups/add', server(['gridport.employee']));
    await expectNoPermission(await screen.findByRole('button', { name: 'Create device group' }, { timeout: 10_000 }));
  });
});
