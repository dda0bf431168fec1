import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { exampleDeviceConfig } from '../../../../../contracts/device/examples';
import { anAdminDevice } from '../../../test-support/devices';
import { profile, renderConsole, type FakeHandler, type SeenCall } from '../../../test-support/render';

interface GraphqlBody {
  operationName?: string;
  variables?: { hashId?: string; input?: Record<string, unknown> };
}

const device = anAdminDevice({
  config: exampleDeviceConfig,
  assets: [
    { __typename: 'DeviceAsset', index: 0, type: 'sma-sunny-tripower', identifier: 'pv-roof' },
    { __typename: 'DeviceAsset', index: 1, type: 'demo-meter', identifier: 'pv-roof' },
  ],
});

/** The server refuses the exposure with `key` (and its details), as the device service does. */
function server(key: string, details: Record<string, unknown> | undefined): FakeHandler {
  return (call: SeenCall) => {
    if (call.path === '/console-shared/v1/authentication/whoami') {
      return { status: 200, body: profile(['gridport.ops'], 'Olivia Ops') };
    }
    const { operationName } = (call.body ?? {}) as GraphqlBody;
    if (operationName === 'AdminDeviceSettings') {
      return { status: 200, body: { data: { device } } };
    }
    if (operationName === 'UpdateDeviceSettings') {
      return { status: 200, body: { data: null, errors: [{ message: key, extensions: { code: key, details } }] } };
    }
    return undefined;
  };
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
    const updates = harness.calls.filter((call) => (call.body as GraphqlBody | undefined)?.operationName === 'UpdateDeviceSettings');
    expect(updates.map((call) => (call.body as GraphqlBody).variables)).toEqual([{ hashId: 'd7', input: { isExposedToCustomer: true } }]);
    await waitFor(() => expect(exposed).toBeChecked());
  });
});
