import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Right } from '../../../../../contracts/rights';
import { withListViewport } from '../../../test-support/devices';
import { graphqlData as answer, graphqlRefusal as refusal, staffServer, variablesOf } from '../../../test-support/graphql';
import { renderConsole, type FakeAnswer } from '../../../test-support/render';

const harbour = { __typename: 'OrganizationReference', hashId: 'o1', name: 'Harbour Energy' };

function aHealth(overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'DestinationHealth',
    state: 'ACTIVE',
    pausedReason: null,
    pausedAt: null,
    position: '4120',
    lagReports: 12,
    lagCountCapped: false,
    lagSeconds: 40,
    deliveredCount: 880,
    lastSuccessAt: '2026-11-20T10:00:00.000Z',
    lastError: null,
    lastErrorAt: null,
    failingSince: null,
    nextAttemptAt: null,
    ...overrides,
  };
}

function aDestination(overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'MessageDestination',
    hashId: 'md1',
    name: 'Harbour webhook',
    type: 'HTTP',
    organizationHashId: 'o1',
    organization: harbour,
    destination: { type: 'http', url: 'https://hooks.harbour.example/in', method: 'POST', timeoutMs: 10000 },
    secretsSet: ['headers'],
    outageEmails: ['ops@harbour.example'],
    outageUsers: [],
    monitorSettings: { __typename: 'DestinationMonitorSettings', enabled: true, maxLagSeconds: null },
    health: aHealth(),
    ...overrides,
  };
}

/** The destination screens' server; `refuse` answers an operation by name instead; health answers in turn. */
function server(rights: Right[] = ['gridport.ops'], refuse: Record<string, FakeAnswer> = {}, healths = [aHealth()]) {
  let healthReads = 0;
  return staffServer(
    rights,
    (operationName) => {
      const refused = refuse[operationName];
      if (refused !== undefined) {
        return refused;
      }
      switch (operationName) {
        case 'MessageDestinationList':
          return answer({ messageDestinations: { __typename: 'MessageDestinationPage', rows: [aDestination()], nextPageOffset: null } });
        case 'MessageDestination':
          return answer({ messageDestination: aDestination() });
        case 'MessageDestinationHealth': {
          const health = healths[Math.min(healthReads, healths.length - 1)];
          healthReads += 1;
          return answer({ messageDestination: { __typename: 'MessageDestination', hashId: 'md1', health } });
        }
        case 'MessageDestinationGroups':
          return answer({
            deviceGroupMessageDestinations: {
              __typename: 'DeviceGroupMessageDestinationPage',
              rows: [
                {
                  __typename: 'DeviceGroupMessageDestination',
                  hashId: 'gf1',
                  deviceGroup: { __typename: 'ForwardingDeviceGroup', hashId: 'g1', name: 'North sites' },
                  messageTypes: ['SOLAR_POWER', 'ALARM'],
                },
              ],
              nextPageOffset: null,
            },
          });
        case 'OrganizationPickerOrganizations':
          return answer({ organizations: { __typename: 'OrganizationPage', rows: [{ ...harbour, __typename: 'Organization', isProvider: false }] } });
        case 'CreateMessageDestination':
          return answer({ createMessageDestination: { __typename: 'MessageDestination', hashId: 'md9' } });
        case 'UpdateMessageDestination':
          return answer({ updateMessageDestination: { __typename: 'MessageDestination', hashId: 'md1' } });
        case 'ResumeMessageDestination':
          return answer({ resumeMessageDestination: { __typename: 'MessageDestination', hashId: 'md1' } });
        case 'ObjectAuditLog':
          return answer({ auditLog: { __typename: 'AuditLogPage', rows: [], nextPageOffset: null } });
        default:
          return undefined;
      }
    },
    'Olivia Ops',
  );
}

async function expectNoPermission(control: HTMLElement): Promise<void> {
  expect(control).toBeDisabled();
  await userEvent.hover(control.parentElement ?? control);
  expect(await screen.findByRole('tooltip')).toHaveTextContent('No permission');
  await userEvent.unhover(control.parentElement ?? control);
}

describe('the message destination screens', () => {
  withListViewport();

  it('list the destinations with kind, state and lag, filtered by type and state in the address', async () => {
    const harness = renderConsole('/admin/message-destinations', server());
    const row = await screen.findByRole('row', { name: /Harbour webhook/ }, { timeout: 10_000 });
    expect(row).toHaveAttribute('href', '/admin/message-destinations/md1/general');
    expect(row).toHaveTextContent('HTTP');
    expect(row).toHaveTextContent('Harbour Energy');
    expect(row).toHaveTextContent('Active');
    expect(row).toHaveTextContent('12 reports, 40 s behind');
    expect(row).toHaveTextContent('880');
    await userEvent.selectOptions(screen.getByLabelText('Type'), 'http');
    await userEvent.selectOptions(screen.getByLabelText('State'), 'paused');
    expect(harness.router.state.location.search).toBe('?type=http&state=paused');
    await waitFor(() =>
      expect(variablesOf(harness.calls, 'MessageDestinationList')).toContainEqual(expect.objectContaining({ type: 'HTTP', state: 'PAUSED' })),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Add message destination' }));
    expect(harness.router.state.location.pathname).toBe('/admin/message-destinations/add');
  });

  it("add an HTTP destination from the kind's form, and show a private address refusal at the URL", async () => {
    let refuseOnce = true;
    const base = server();
    const harness = renderConsole('/admin/message-destinations/add', (call) => {
      const body = call.body as { operationName?: string } | undefined;
      if (body?.operationName === 'CreateMessageDestination' && refuseOnce) {
        refuseOnce = false;
        return refusal('destination_address_not_allowed', { host: 'hooks.harbour.example' });
      }
      return base(call);
    });
    await userEvent.click(await screen.findByRole('link', { name: 'HTTP' }, { timeout: 10_000 }));
    expect(await screen.findByRole('heading', { name: 'New HTTP destination' })).toBeInTheDocument();
    // Defaults are filled in and said; the headers are a secret list.
    expect(screen.getByLabelText('Timeout (ms) (optional)')).toHaveValue('10000');
    expect(screen.getByText('Default: 10000.')).toBeInTheDocument();
    expect(screen.getByLabelText('Method (optional)')).toHaveValue('POST');

    await userEvent.type(screen.getByLabelText('Name'), 'Harbour webhook');
    await userEvent.type(screen.getByLabelText('Search organisations by name'), 'harb');
    await userEvent.click(await within(await screen.findByRole('list', { name: 'Organisations found' })).findByRole('button', { name: 'Harbour Energy' }));
    await userEvent.type(screen.getByLabelText('URL'), 'https://hooks.harbour.example/in');
    await userEvent.click(screen.getByRole('button', { name: 'Add to Headers (optional)' }));
    await userEvent.type(screen.getByLabelText('Headers (optional) 1: Name'), 'Authorization');
    const value = screen.getByLabelText('Headers (optional) 1: Value');
    expect(value).toHaveAttribute('type', 'password');
    await userEvent.type(value, 'Bearer s3cret');
    await userEvent.click(screen.getByRole('button', { name: 'Create message destination' }));

    expect(await screen.findByText(/resolves to a loopback, private, link-local or metadata address/)).toBeInTheDocument();
    expect(screen.getByLabelText('URL')).toHaveAttribute('aria-invalid', 'true');
    const input = {
      name: 'Harbour webhook',
      organizationHashId: 'o1',
      outageEmails: [],
      outageUsersHashIds: [],
      destination: {
        type: 'http',
        url: 'https://hooks.harbour.example/in',
        method: 'POST',
        headers: [{ name: 'Authorization', value: 'Bearer s3cret' }],
        timeoutMs: 10000,
      },
      monitorSettings: { enabled: true, maxLagSeconds: null },
    };
    expect(variablesOf(harness.calls, 'CreateMessageDestination')).toEqual([{ input }]);
    await userEvent.click(screen.getByRole('button', { name: 'Create message destination' }));
    await waitFor(() => expect(harness.router.state.location.pathname).toBe('/admin/message-destinations/md9/general'));
  });

  it("check a kind's settings by its schema before sending, and show the server's payload_invalid issues at their settings", async () => {
    const harness = renderConsole(
      '/admin/message-destinations/add?type=kafka',
      server(['gridport.ops'], {
        CreateMessageDestination: refusal('payload_invalid', [{ path: 'destination.topic', message: 'destination.topic is taken' }]),
      }),
    );
    await userEvent.type(await screen.findByLabelText('Name', {}, { timeout: 10_000 }), 'Kafka feed');
    await userEvent.click(screen.getByRole('button', { name: 'Create message destination' }));
    expect(await screen.findByText('kafka needs at least 1 broker')).toBeInTheDocument();
    expect(screen.getByText('Choose the organisation whose data is forwarded.')).toBeInTheDocument();
    expect(variablesOf(harness.calls, 'CreateMessageDestination')).toEqual([]);

    await userEvent.type(screen.getByLabelText('Search organisations by name'), 'harb');
    await userEvent.click(await within(await screen.findByRole('list', { name: 'Organisations found' })).findByRole('button', { name: 'Harbour Energy' }));
    await userEvent.type(screen.getByLabelText('Brokers (host:port) 1'), 'kafka.harbour.example:9092');
    await userEvent.type(screen.getByLabelText('Topic'), 'reports');
    await userEvent.click(screen.getByRole('button', { name: 'Create message destination' }));
    expect(await screen.findByText('destination.topic is taken')).toBeInTheDocument();
    expect(variablesOf(harness.calls, 'CreateMessageDestination')).toEqual([
      expect.objectContaining({
        input: expect.objectContaining({
          destination: { type: 'kafka', brokers: ['kafka.harbour.example:9092'], topic: 'reports', clientId: 'gridport', tls: false },
        }),
      }),
    ]);
  });

  it('show how delivery stands, read again while the page is open, and save only what changed with the secrets kept', async () => {
    const harness = renderConsole(
      '/admin/message-destinations/md1/general',
      server(['gridport.ops'], {}, [aHealth(), aHealth({ lagReports: 0, lagSeconds: 0, deliveredCount: 892 })]),
    );
    expect(await screen.findByRole('heading', { name: 'Harbour webhook' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(await screen.findByTestId('health-lag-reports')).toHaveTextContent('12');
    expect(screen.getByTestId('health-delivered')).toHaveTextContent('880');
    expect(screen.getByTestId('health-position')).toHaveTextContent('4120');
    await waitFor(() => expect(screen.getByTestId('health-delivered')).toHaveTextContent('892'), { timeout: 8_000 });
    expect(screen.getByTestId('health-lag-reports')).toHaveTextContent('0');

    expect(screen.getByTestId('destination-kind')).toHaveTextContent('HTTP');
    expect(screen.getByText('Set — leave empty to keep.')).toBeInTheDocument();
    expect(within(await screen.findByRole('table', { name: 'Device groups forwarding here' })).getByRole('link', { name: 'North sites' })).toHaveAttribute(
      'href',
      '/admin/device-groups/g1/message-destinations/gf1',
    );
    await waitFor(() =>
      expect(variablesOf(harness.calls, 'ObjectAuditLog')).toContainEqual(expect.objectContaining({ objectType: 'MESSAGE_DESTINATIONS', hashId: 'md1' })),
    );
    const name = screen.getByLabelText('Name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Harbour hook');
    await userEvent.click(screen.getByRole('button', { name: 'Save message destination' }));
    await screen.findByText('The message destination was saved.');
    expect(variablesOf(harness.calls, 'UpdateMessageDestination')).toEqual([{ hashId: 'md1', input: { name: 'Harbour hook' } }]);
    // Ops may edit but not resume.
    await expectNoPermission(screen.getByRole('button', { name: 'Resume' }));
  }, 20_000);

  it('let a Developer resume from a given position, explaining the replay', async () => {
    const harness = renderConsole(
      '/admin/message-destinations/md1/general',
      server(['gridport.developer'], {}, [aHealth({ state: 'PAUSED', pausedReason: 'failing' })]),
    );
    expect(await screen.findByTestId('health-state', {}, { timeout: 10_000 })).toHaveTextContent('Paused after failing for 15 minutes in a row');
    await userEvent.click(screen.getByRole('button', { name: 'Resume' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resume forwarding to Harbour webhook?' });
    expect(dialog).toHaveTextContent('replays from this position');
    await userEvent.type(within(dialog).getByLabelText('Replay from this position (optional)'), '120');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Resume' }));
    await screen.findByText('Forwarding to Harbour webhook resumes.');
    expect(variablesOf(harness.calls, 'ResumeMessageDestination')).toEqual([{ hashId: 'md1', offset: 120 }]);
  });

  it('disable adding, saving and resuming for staff who may only read', async () => {
    renderConsole('/admin/message-destinations/md1/general', server(['gridport.employee']));
    await screen.findByRole('heading', { name: 'Harbour webhook' }, { timeout: 10_000 });
    await expectNoPermission(screen.getByRole('button', { name: 'Save message destination' }));
    await expectNoPermission(screen.getByRole('button', { name: 'Resume' }));
  });
});
