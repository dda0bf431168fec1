import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { exampleDeviceConfig } from '../../../../../contracts/device/examples';
import type { Right } from '../../../../../contracts/rights';
import { anAdminDevice } from '../../../test-support/devices';
import { graphqlData as answer, graphqlRefusal, staffServer, variablesOf } from '../../../test-support/graphql';
import { renderConsole, type FakeHandler, type SeenCall } from '../../../test-support/render';

const device = anAdminDevice({
  config: exampleDeviceConfig,
  assets: [
    { __typename: 'DeviceAsset', index: 0, type: 'sma-sunny-tripower', identifier: 'pv-roof' },
    { __typename: 'DeviceAsset', index: 1, type: 'demo-meter', identifier: 'pv-roof' },
  ],
});

/** The server refuses the exposure with `key` (and its details), as the device service does. */
function server(key: string, details: Record<string, unknown> | undefined): FakeHandler {
  return staffServer(
    ['gridport.ops'],
    (operationName) => {
      if (operationName === 'AdminDeviceSettings') {
        return answer({ device });
      }
      if (operationName === 'UpdateDeviceSettings') {
        return graphqlRefusal(key, details);
      }
      return undefined;
    },
    'Olivia Ops',
  );
}

describe('the admin settings tab', () => {
  it.each([
    ['asset_identifiers_are_not_unique', { offendingIdentifier: 'pv-roof' }, 'Asset identifiers are not unique. pv-roof'],
    ['not_all_assets_have_identifier', undefined, 'Not all assets have an identifier.'],
    ['no_valid_config', undefined, 'The device has no valid configuration.'],
    ['in_production', undefined, 'This property cannot change while the device is in production.'],
  ])('sends only the changed fields and shows the refusal %s as the spec names it', async (key, details, shown) => {
    const harness = renderConsole('/admin/devices/d7/settings', server(key, details));
    const exposed = await screen.findByRole('checkbox', { name: 'Exposed to the customer' }, { timeout: 10_000 });
    const save = screen.getByRole('button', { name: 'Save device' });
    expect(save).toBeDisabled();
    await userEvent.click(exposed);
    await userEvent.click(save);
    expect(await screen.findByTestId('settings-refusals')).toHaveTextContent(shown);
    expect(variablesOf(harness.calls, 'UpdateDeviceSettings')).toEqual([{ hashId: 'd7', input: { isExposedToCustomer: true } }]);
    await waitFor(() => expect(exposed).toBeChecked());
  });
});

const harbour = { __typename: 'Organization', hashId: 'o1', name: 'Harbour Energy' };
const solar = { __typename: 'Organization', hashId: 'o2', name: 'Solar Farms' };
const sam = { __typename: 'User', hashId: 'u5', name: 'Sam Site', email: 'sam@solar.example', organization: solar };

const placedDevice = anAdminDevice({
  organizationHashId: 'o1',
  organization: harbour,
  deviceGroupHashId: 'g1',
  deviceGroup: { __typename: 'DeviceGroup', hashId: 'g1', name: 'North sites' },
  outageEmails: ['ops@harbour.example'],
  partnerships: [
    {
      __typename: 'DevicePartnership',
      hashId: 'p1',
      role: 'OPERATOR',
      description: 'Trading the battery',
      allDevices: false,
      owner: harbour,
      partner: { __typename: 'Organization', hashId: 'o3', name: 'Grid Traders' },
    },
  ],
});

/** A server that saves what it is sent, except what `refuse` (an operation's refusal) says. */
function placementServer(rights: Right[] = ['gridport.ops'], refuse?: { key: string; details: unknown }): FakeHandler {
  let saved: Record<string, unknown> = placedDevice;
  return staffServer(
    rights,
    (operationName, variables) => {
      switch (operationName) {
        case 'AdminDeviceSettings':
          return answer({ device: saved });
        case 'OrganizationPickerOrganizations':
          return answer({ organizations: { __typename: 'OrganizationPage', rows: [{ ...solar, isProvider: false }] } });
        case 'DevicePlacementGroups': {
          const groups =
            (variables as { organizationHashId?: string }).organizationHashId === 'o2'
              ? [{ hashId: 'g2', name: 'East sites' }]
              : [
                  { hashId: 'g1', name: 'North sites' },
                  { hashId: 'g3', name: 'South sites' },
                ];
          return answer({ deviceGroups: { __typename: 'DeviceGroupPage', rows: groups.map((group) => ({ __typename: 'DeviceGroup', ...group })) } });
        }
        case 'OutageUserSearch':
          return answer({ users: { __typename: 'UserPage', rows: [sam] } });
        case 'UpdateDeviceSettings': {
          if (refuse !== undefined) {
            return graphqlRefusal(refuse.key, refuse.details);
          }
          const input = (variables.input ?? {}) as Record<string, unknown>;
          const group = input.deviceGroupHashId === 'g2' ? { __typename: 'DeviceGroup', hashId: 'g2', name: 'East sites' } : null;
          saved = {
            ...saved,
            ...(input.organizationHashId === 'o2'
              ? { organizationHashId: 'o2', organization: solar, deviceGroupHashId: group?.hashId ?? null, deviceGroup: group }
              : {}),
          };
          return answer({ updateDevice: saved });
        }
        default:
          return undefined;
      }
    },
    'Olivia Ops',
  );
}

const updatesOf = (calls: SeenCall[]) => variablesOf(calls, 'UpdateDeviceSettings');

describe('the admin settings tab, organisation and group', () => {
  it('moves the device to a group of another organisation, naming both in one save', async () => {
    const harness = renderConsole('/admin/devices/d7/settings', placementServer());
    const placement = await screen.findByRole('form', { name: 'Organisation and group' }, { timeout: 10_000 });
    expect(within(placement).getByTestId('chosen-organization')).toHaveTextContent('Harbour Energy');
    const group = within(placement).getByLabelText('Device group');
    await waitFor(() =>
      expect(
        within(group)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['No group', 'North sites', 'South sites']),
    );
    expect(group).toHaveValue('g1');
    const save = within(placement).getByRole('button', { name: 'Save organisation and group' });
    expect(save).toBeDisabled();

    await userEvent.type(within(placement).getByLabelText('Search organisations by name'), 'solar');
    await userEvent.click(await within(placement).findByRole('button', { name: 'Solar Farms' }));
    // A group belongs to one organisation: the choice starts again among the new one's groups.
    expect(group).toHaveValue('');
    await within(group).findByRole('option', { name: 'East sites' });
    await userEvent.selectOptions(group, 'g2');
    await userEvent.click(save);
    await screen.findByText('The device was saved.');
    expect(updatesOf(harness.calls)).toEqual([{ hashId: 'd7', input: { organizationHashId: 'o2', deviceGroupHashId: 'g2' } }]);
    // The form shows the device as saved, with nothing left to save.
    await waitFor(() => expect(within(placement).getByTestId('chosen-organization')).toHaveTextContent('Solar Farms'));
    expect(within(placement).getByRole('link', { name: 'Open the group' })).toHaveAttribute('href', '/admin/device-groups/g2/general');
    await waitFor(() => expect(save).toBeDisabled());
  });

  it('moves the device between groups of its organisation with the group alone, and shows in_production', async () => {
    const harness = renderConsole(
      '/admin/devices/d7/settings',
      placementServer(['gridport.ops'], { key: 'in_production', details: { fields: ['organizationHashId'] } }),
    );
    const placement = await screen.findByRole('form', { name: 'Organisation and group' }, { timeout: 10_000 });
    const group = within(placement).getByLabelText('Device group');
    await within(group).findByRole('option', { name: 'South sites' });
    await userEvent.selectOptions(group, 'g3');
    await userEvent.click(within(placement).getByRole('button', { name: 'Save organisation and group' }));
    expect(await within(placement).findByRole('alert')).toHaveTextContent('This property cannot change while the device is in production.');
    expect(updatesOf(harness.calls)).toEqual([{ hashId: 'd7', input: { deviceGroupHashId: 'g3' } }]);
  });
});

describe('the admin settings tab, outage contacts and partnerships', () => {
  it('names the users who cannot see the device when the server refuses them', async () => {
    const harness = renderConsole('/admin/devices/d7/settings', placementServer(['gridport.ops'], { key: 'user_has_no_access', details: { hashIds: ['u5'] } }));
    const contacts = await screen.findByRole('form', { name: 'Outage contacts' }, { timeout: 10_000 });
    expect(within(contacts).getByRole('list', { name: 'Outage emails' })).toHaveTextContent('ops@harbour.example');
    await userEvent.type(within(contacts).getByLabelText('Outage users: search users by name or email'), 'sam');
    await userEvent.click(await within(contacts).findByRole('button', { name: /Sam Site/ }));
    await userEvent.click(within(contacts).getByRole('button', { name: 'Save outage contacts' }));
    expect(await within(contacts).findByTestId('user-has-no-access')).toHaveTextContent(
      'These users cannot see the devices, so they cannot be outage contacts: Sam Site <sam@solar.example>.',
    );
    // Only the list that changed; any user may be offered, the server decides who can see the device.
    expect(updatesOf(harness.calls)).toEqual([{ hashId: 'd7', input: { outageUsersHashIds: ['u5'] } }]);
  });

  it('lists the partnerships sharing the device, each linked to its owner where it is edited', async () => {
    renderConsole('/admin/devices/d7/settings', placementServer());
    const table = await screen.findByRole('table', { name: 'Partnerships' }, { timeout: 10_000 });
    const row = within(table).getByRole('row', { name: /Grid Traders/ });
    expect(row).toHaveTextContent('Operator');
    expect(row).toHaveTextContent('Listed devices');
    expect(row).toHaveTextContent('Trading the battery');
    expect(within(row).getByRole('link', { name: 'Harbour Energy' })).toHaveAttribute('href', '/admin/organizations/o1/partnerships');
  });

  it('disables the organisation, group and contact controls for staff who may only read', async () => {
    renderConsole('/admin/devices/d7/settings', placementServer(['gridport.employee']));
    const placement = await screen.findByRole('form', { name: 'Organisation and group' }, { timeout: 10_000 });
    expect(within(placement).getByRole('button', { name: 'Save organisation and group' })).toBeDisabled();
    expect(within(placement).queryByLabelText('Search organisations by name')).toBeNull();
    const contacts = screen.getByRole('form', { name: 'Outage contacts' });
    const save = within(contacts).getByRole('button', { name: 'Save outage contacts' });
    expect(save).toBeDisabled();
    await userEvent.hover(save.parentElement ?? save);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('No permission');
  });
});
