import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { profile, renderConsole, type FakeHandler } from '../../../test-support/render';

function aDestination(hashId: string, name: string, type: string, health: Record<string, unknown>) {
  return {
    __typename: 'MessageDestination',
    hashId,
    name,
    type,
    health: {
      __typename: 'DestinationHealth',
      state: 'ACTIVE',
      pausedReason: null,
      lagReports: 0,
      lagCountCapped: false,
      lagSeconds: 0,
      lastSuccessAt: '2026-11-20T10:00:00.000Z',
      failingSince: null,
      ...health,
    },
  };
}

const server: FakeHandler = (call) => {
  if (call.path === '/console-shared/v1/authentication/whoami') {
    return { status: 200, body: profile() };
  }
  const { operationName } = (call.body ?? {}) as { operationName?: string };
  if (operationName === 'CustomerMessageDestinations') {
    return {
      status: 200,
      body: {
        data: {
          messageDestinations: {
            __typename: 'MessageDestinationPage',
            rows: [
              aDestination('md1', 'Our webhook', 'HTTP', {}),
              aDestination('md2', 'Data lake', 'POSTGRES', {
                state: 'PAUSED',
                pausedReason: 'failing',
                lagReports: 100000,
                lagCountCapped: true,
                lagSeconds: 7200,
              }),
            ],
            nextPageOffset: null,
          },
        },
      },
    };
  }
  return undefined;
};

describe("the customer's message destinations", () => {
  it('show where the organisation’s data goes and how delivery stands, read-only, under access management', async () => {
    const harness = renderConsole('/access-management', server);
    await userEvent.click(await screen.findByRole('link', { name: 'Data forwarding' }, { timeout: 10_000 }));
    expect(harness.router.state.location.pathname).toBe('/access-management/message-destinations');
    const table = await screen.findByRole('table', { name: 'Message destinations' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Our webhookHTTPActiveNone');
    expect(rows[2]).toHaveTextContent('Data lakePostgreSQLPaused after failing for 15 minutes in a rowat least 100000 reports, 2 h behind');
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: /Resume|Add|Save/ })).toBeNull();
  });
});
