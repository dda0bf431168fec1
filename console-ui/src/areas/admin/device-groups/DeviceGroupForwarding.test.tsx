import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Right } from '../../../../../contracts/rights';
import { graphqlData as answer, graphqlRefusal as refusal, staffServer, variablesOf } from '../../../test-support/graphql';
import { renderConsole, type FakeAnswer } from '../../../test-support/render';

const harbour = { __typename: 'Organization', hashId: 'o1', name: 'Harbour Energy' };
const webhook = { __typename: 'ForwardingDestination', hashId: 'md1', name: 'Harbour webhook', type: 'HTTP' };

const group = {
  __typename: 'DeviceGroup',
  hashId: 'g1',
  name: 'North sites',
  organizationHashId: 'o1',
  organization: harbour,
  deviceCount: 3,
  deviceOutageEmails: [],
  deviceOutageUsers: [],
  apiKeys: [],
};

const forwarding = {
  __typename: 'DeviceGroupMessageDestination',
  hashId: 'gf1',
  messageDestination: webhook,
  messageTypes: ['SOLAR_POWER', 'ALARM'],
  settings: { __typename: 'GroupForwardingSettings', minIntervalSeconds: 0 },
};

function server(rights: Right[] = ['gridport.ops'], refuse: Record<string, FakeAnswer> = {}) {
  // What the server holds: an update changes what the next read answers.
  let saved = forwarding;
  return staffServer(rights, (operationName, variables) => {
    const refused = refuse[operationName];
    if (refused !== undefined) {
      return refused;
    }
    switch (operationName) {
      case 'DeviceGroup':
        return answer({ deviceGroup: group });
      case 'DeviceGroupDestinations':
        return answer({ deviceGroupMessageDestinations: { __typename: 'DeviceGroupMessageDestinationPage', rows: [forwarding], nextPageOffset: null } });
      case 'DeviceGroupDestination':
        return answer({ deviceGroupMessageDestination: saved });
      case 'DestinationPickerDestinations':
        return answer({ messageDestinations: { __typename: 'MessageDestinationPage', rows: [{ ...webhook, __typename: 'MessageDestination' }] } });
      case 'AddDeviceGroupDestination':
        return answer({ addDeviceGroupMessageDestination: { __typename: 'DeviceGroupMessageDestination', hashId: 'gf2' } });
      case 'UpdateDeviceGroupDestination': {
        const input = variables.input as { messageTypes: string[]; settings: { minIntervalSeconds: number } };
        saved = { ...saved, messageTypes: input.messageTypes, settings: { ...saved.settings, ...input.settings } };
        return answer({ updateDeviceGroupMessageDestination: { __typename: 'DeviceGroupMessageDestination', hashId: 'gf1' } });
      }
      case 'RemoveDeviceGroupDestination':
        return answer({ removeDeviceGroupMessageDestination: true });
      default:
        return undefined;
    }
  });
}

describe("the device group's message destinations tab", () => {
  it('lists where the group forwards, with the message types of each', async () => {
    const harness = renderConsole('/admin/device-groups/g1/message-destinations', server());
    const table = await screen.findByRole('table', { name: 'Forwarding to message destinations' }, { timeout: 10_000 });
    expect(within(table).getByRole('link', { name: 'Harbour webhook' })).toHaveAttribute('href', '/admin/device-groups/g1/message-destinations/gf1');
    expect(table).toHaveTextContent('Solar power, Alarms');
    expect(table).toHaveTextContent('Every report');
    expect(variablesOf(harness.calls, 'DeviceGroupDestinations')).toContainEqual({ deviceGroupHashId: 'g1' });
    await userEvent.click(screen.getByRole('button', { name: 'Add destination' }));
    expect(harness.router.state.location.pathname).toBe('/admin/device-groups/g1/message-destinations/add');
  });

  it("forwards to a destination of the group's organisation, asks for a message type, and says when a type has 3 destinations already", async () => {
    const harness = renderConsole(
      '/admin/device-groups/g1/message-destinations/add',
      server(['gridport.ops'], { AddDeviceGroupDestination: refusal('max_destinations_reached') }),
    );
    const submit = await screen.findByRole('button', { name: 'Forward' }, { timeout: 10_000 });
    await userEvent.type(screen.getByLabelText('Search destinations by name'), 'hook');
    await userEvent.click(
      await within(await screen.findByRole('list', { name: 'Destinations found' })).findByRole('button', { name: 'Harbour webhook (HTTP)' }),
    );
    await waitFor(() => expect(variablesOf(harness.calls, 'DestinationPickerDestinations')).toContainEqual({ organizationHashId: 'o1', filter: 'hook' }));
    await userEvent.click(submit);
    expect(await screen.findByText('Choose at least one message type.')).toBeInTheDocument();
    expect(variablesOf(harness.calls, 'AddDeviceGroupDestination')).toEqual([]);

    await userEvent.click(screen.getByLabelText('Solar power'));
    await userEvent.click(screen.getByLabelText('Alarms'));
    await userEvent.click(submit);
    expect(await screen.findByTestId('forwarding-refusal')).toHaveTextContent('already goes to 3 destinations from this group');
    expect(variablesOf(harness.calls, 'AddDeviceGroupDestination')).toEqual([
      { input: { deviceGroupHashId: 'g1', messageDestinationHashId: 'md1', messageTypes: ['SOLAR_POWER', 'ALARM'], settings: { minIntervalSeconds: 0 } } },
    ]);
  });

  it('says plainly when the group forwards to the destination already', async () => {
    renderConsole('/admin/device-groups/g1/message-destinations/add', server(['gridport.ops'], { AddDeviceGroupDestination: refusal('already_configured') }));
    await userEvent.type(await screen.findByLabelText('Search destinations by name', {}, { timeout: 10_000 }), 'hook');
    await userEvent.click(
      await within(await screen.findByRole('list', { name: 'Destinations found' })).findByRole('button', { name: 'Harbour webhook (HTTP)' }),
    );
    await userEvent.click(screen.getByLabelText('Meter power'));
    await userEvent.click(screen.getByRole('button', { name: 'Forward' }));
    expect(await screen.findByTestId('forwarding-refusal')).toHaveTextContent('This group already forwards to this destination');
  });

  it('changes the message types and interval of a forwarding, and stops it after asking', async () => {
    const harness = renderConsole('/admin/device-groups/g1/message-destinations/gf1', server());
    await screen.findByRole('heading', { name: 'Forwarding to Harbour webhook' }, { timeout: 10_000 });
    expect(screen.getByLabelText('Solar power')).toBeChecked();
    await userEvent.click(screen.getByLabelText('Alarms'));
    const interval = screen.getByLabelText('At most one message per device, asset and type every (seconds)');
    await userEvent.clear(interval);
    await userEvent.type(interval, '60');
    await userEvent.click(screen.getByRole('button', { name: 'Save forwarding' }));
    await screen.findByText('The forwarding was saved.');
    expect(variablesOf(harness.calls, 'UpdateDeviceGroupDestination')).toEqual([
      { hashId: 'gf1', input: { messageTypes: ['SOLAR_POWER'], settings: { minIntervalSeconds: 60 } } },
    ]);

    await userEvent.click(screen.getByRole('button', { name: 'Stop forwarding' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Stop forwarding to Harbour webhook?' })).getByRole('button', { name: 'Stop forwarding' }),
    );
    await waitFor(() => expect(harness.router.state.location.pathname).toBe('/admin/device-groups/g1/message-destinations'));
    expect(variablesOf(harness.calls, 'RemoveDeviceGroupDestination')).toEqual([{ hashId: 'gf1' }]);
  });
});
