import { MockLink } from '@apollo/client/testing';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { exampleDeviceConfig } from '../../../contracts/device/examples';
import type { ConfigEditor_DeviceFragment } from './ConfigEditor.generated';
import { UpdateDeviceConfigDocument } from './useUpdateDeviceConfig.generated';
import { ConfigEditor } from './ConfigEditor';
import { renderWithApollo } from '../test-support/devices';

const device: ConfigEditor_DeviceFragment = { hashId: 'd1', config: exampleDeviceConfig, inProduction: false };

/** The example config with the second limit window of the battery limiter moved into the first. */
function overlapping(): Record<string, unknown> {
  const config = structuredClone(exampleDeviceConfig) as unknown as { activeControl: { limitSchedule?: { start: string }[] }[] };
  const windows = config.activeControl[1]?.limitSchedule;
  if (windows?.[1] === undefined) {
    throw new Error('the example config has no second limit window');
  }
  windows[1].start = '10:00';
  return config as unknown as Record<string, unknown>;
}

function editor(): HTMLTextAreaElement {
  return screen.getByLabelText('Configuration') as HTMLTextAreaElement;
}

describe('the config editor', () => {
  it("checks the config in the browser with the shared schema and shows the spec's message for overlapping windows", async () => {
    await renderWithApollo(<ConfigEditor device={device} canSave />, new MockLink([]));
    expect(screen.getByRole('status')).toHaveTextContent('The configuration is valid.');
    const save = screen.getByRole('button', { name: 'Save configuration' });
    expect(save).toBeDisabled();

    fireEvent.change(editor(), { target: { value: JSON.stringify(overlapping(), null, 2) } });
    const issues = await screen.findByTestId('config-issues');
    expect(
      within(issues)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['activeControl[1].limitSchedule[1] Invalid schedules: time windows cannot overlap.']);
    expect(issues).toHaveTextContent('The configuration has 1 issues:');
    expect(save).toBeDisabled();
    expect(editor()).toHaveAttribute('aria-invalid', 'true');

    fireEvent.change(editor(), { target: { value: '{ "network": ' } });
    expect(await screen.findByRole('alert')).toHaveTextContent(/^This is not valid JSON: /);

    await userEvent.click(screen.getByRole('button', { name: 'Undo changes' }));
    expect(await screen.findByRole('status')).toHaveTextContent('The configuration is valid.');
  });

  it("saves a valid config through updateDevice and shows the server's invalid_config issues", async () => {
    const changed = { ...exampleDeviceConfig, reportingIntervalInSec: 30 };
    const link = new MockLink([
      {
        request: { query: UpdateDeviceConfigDocument, variables: { hashId: 'd1', config: changed } },
        result: {
          errors: [
            new GraphQLError('The configuration is invalid.', {
              extensions: { code: 'invalid_config', details: { issues: [{ key: 'assets[2].identifier', details: 'Ids must be unique' }] } },
            }),
          ],
        },
      },
    ]);
    await renderWithApollo(<ConfigEditor device={device} canSave />, link);
    fireEvent.change(editor(), { target: { value: JSON.stringify(changed) } });
    const save = screen.getByRole('button', { name: 'Save configuration' });
    expect(save).toBeEnabled();
    await userEvent.click(save);
    const refused = await screen.findByTestId('config-server-issues');
    expect(refused).toHaveTextContent('The server refused the configuration:');
    expect(
      within(refused)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['assets[2].identifier Ids must be unique']);
  });

  it("does not count withheld VPN credentials (a customer's view) as an issue, unless they are edited", async () => {
    const withheld = { ...exampleDeviceConfig, vpn: { ...exampleDeviceConfig.vpn, credentials: null } };
    await renderWithApollo(<ConfigEditor device={{ ...device, config: withheld }} canSave={false} />, new MockLink([]));
    expect(screen.getByRole('status')).toHaveTextContent('The configuration is valid.');
    expect(screen.getByText('The VPN credentials are not shown here (credentials: null).')).toBeInTheDocument();
    fireEvent.change(editor(), { target: { value: JSON.stringify({ ...withheld, vpn: { ...withheld.vpn, credentials: {} } }) } });
    const issues = await screen.findByTestId('config-issues');
    expect(
      within(issues)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['vpn.credentials.ca Required', 'vpn.credentials.cert Required', 'vpn.credentials.key Required']);
  });

  it('lets someone who may not write devices check a config but not save it', async () => {
    await renderWithApollo(<ConfigEditor device={device} canSave={false} />, new MockLink([]));
    fireEvent.change(editor(), { target: { value: JSON.stringify({ ...exampleDeviceConfig, reportingIntervalInSec: 30 }) } });
    expect(await screen.findByRole('status')).toHaveTextContent('The configuration is valid.');
    expect(screen.getByRole('button', { name: 'Save configuration' })).toBeDisabled();
  });
});
