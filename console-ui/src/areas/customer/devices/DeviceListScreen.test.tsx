import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { profile, renderConsole, type FakeHandler, type SeenCall } from '../../../test-support/render';
import { withListViewport } from '../../../test-support/devices';
import type * as csv from '../../../lists/csv';
import { downloadCsv } from '../../../lists/csv';

jest.mock('../../../lists/csv', () => ({ ...jest.requireActual<typeof csv>('../../../lists/csv'), downloadCsv: jest.fn() }));

type Status = 'OPERATIONAL' | 'NON_OPERATIONAL';

/** Devices a customer sees: `count` of them, every third not operational. */
function fleet(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    status: (index % 3 === 2 ? 'NON_OPERATIONAL' : 'OPERATIONAL') as Status,
    row: {
      __typename: 'Device',
      hashId: `d${index}`,
      name: `Site ${index}`,
      identifier: `gw-${index}`,
      isOnline: index % 3 !== 2,
      nominalActivePowerSum: 1000 * index,
      organization: { __typename: 'Organization', hashId: 'o1', name: 'Solar Farms Ltd' },
    },
  }));
}

interface GraphqlBody {
  operationName?: string;
  variables?: { status?: Status | null; offset?: string | null; rowsPerPage?: number };
}

/** The customer's session and the fleet subgraph's answers, paged as the API pages (offset = index of the next row). */
function server(devices: ReturnType<typeof fleet>): FakeHandler {
  return (call) => {
    if (call.path === '/console-shared/v1/authentication/whoami') {
      return { status: 200, body: profile() };
    }
    if (call.path !== '/graphql') {
      return undefined;
    }
    const { operationName, variables = {} } = call.body as GraphqlBody;
    if (operationName === 'DeviceCounts') {
      const operational = devices.filter((device) => device.status === 'OPERATIONAL').length;
      return {
        status: 200,
        body: {
          data: {
            deviceCount: {
              __typename: 'DeviceCount',
              totalCount: devices.length,
              operationalCount: operational,
              // This fleet has no open issue.
              operationalWithIssuesCount: 0,
              inactiveCount: devices.length - operational,
            },
          },
        },
      };
    }
    if (operationName === 'CustomerDeviceList') {
      const matching = devices.filter((device) => variables.status === null || variables.status === undefined || device.status === variables.status);
      const start = Number(variables.offset ?? 0);
      const end = start + (variables.rowsPerPage ?? 50);
      return {
        status: 200,
        body: {
          data: {
            devices: {
              __typename: 'DevicePage',
              rows: matching.slice(start, end).map((device) => device.row),
              nextPageOffset: end < matching.length ? String(end) : null,
              count: matching.length,
            },
          },
        },
      };
    }
    return undefined;
  };
}

function listCalls(calls: SeenCall[]): GraphqlBody['variables'][] {
  return calls
    .filter((call) => call.path === '/graphql' && (call.body as GraphqlBody).operationName === 'CustomerDeviceList')
    .map((call) => (call.body as GraphqlBody).variables);
}

withListViewport();

/** The first cell of each row rendered (role queries are slow on a long list; the roles are the same). */
function rowNames(): string[] {
  const rows = [...screen.getByTestId('virtual-list-scroller').querySelectorAll('[role="row"]')];
  return rows.map((row) => row.querySelector('[role="cell"]')?.textContent ?? '');
}

describe('the customer device list', () => {
  it('filters by status, with the counts of every status and of the filter', async () => {
    const harness = renderConsole('/teleports', server(fleet(6)));
    expect(await screen.findByRole('button', { name: 'All (6)' }, { timeout: 10_000 })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Operational (4)' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('button', { name: 'With issues (0)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Not operational (2)' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('device-count')).toHaveTextContent('6 teleports'));
    expect(rowNames()).toEqual(['Site 0', 'Site 1', 'Site 2', 'Site 3', 'Site 4', 'Site 5']);

    await userEvent.click(screen.getByRole('button', { name: 'Not operational (2)' }));
    await waitFor(() => expect(screen.getByTestId('device-count')).toHaveTextContent('2 teleports'));
    expect(rowNames()).toEqual(['Site 2', 'Site 5']);
    expect(harness.router.state.location.search).toBe('?status=non-operational');
    expect(listCalls(harness.calls)).toEqual([
      { status: null, offset: null, rowsPerPage: 100 },
      { status: 'NON_OPERATIONAL', offset: null, rowsPerPage: 100 },
    ]);
    const offline = within(screen.getByRole('table', { name: 'Teleports' })).getAllByRole('row')[1];
    expect(offline).toHaveTextContent('Site 2gw-2Solar Farms Ltd2 kWOffline');
    expect(offline).toHaveAttribute('href', '/teleports/d2/general');
  });

  it('renders only the rows in view of a long list, and loads the next page when scrolled near its end', async () => {
    const harness = renderConsole('/teleports', server(fleet(2_000)));
    await waitFor(() => expect(screen.getByTestId('device-count')).toHaveTextContent('2000 teleports'), { timeout: 10_000 });
    const table = screen.getByRole('table', { name: 'Teleports' });
    // The first page is short, for the first rows to show soon.
    expect(table).toHaveAttribute('aria-rowcount', '100');
    // 10 rows in view and 12 more either side at most: Site 0 to Site 21.
    expect(rowNames()).toHaveLength(22);
    expect(rowNames()[21]).toBe('Site 21');

    const scroller = screen.getByTestId('virtual-list-scroller');
    scroller.scrollTop = 470 * 48;
    fireEvent.scroll(scroller);
    await waitFor(() => expect(table).toHaveAttribute('aria-rowcount', '600'));
    expect(listCalls(harness.calls)).toEqual([
      { status: null, offset: null, rowsPerPage: 100 },
      { status: null, offset: '100', rowsPerPage: 500 },
    ]);
    expect(rowNames()).toHaveLength(34);
    expect(rowNames()[0]).toBe('Site 458');
    expect(rowNames()).toContain('Site 475');
  });

  it('exports every device the filter matches as CSV, not only the rows loaded, 500 at a time', async () => {
    const harness = renderConsole('/teleports?status=non-operational', server(fleet(1200)));
    await waitFor(() => expect(screen.getByTestId('device-count')).toHaveTextContent('400 teleports'), { timeout: 10_000 });
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(downloadCsv).toHaveBeenCalledTimes(1));
    const [fileName, text] = jest.mocked(downloadCsv).mock.calls[0] ?? [];
    expect(fileName).toBe('teleports.csv');
    const lines = (text ?? '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('Name,Identifier,Organisation,Nominal power,State');
    expect(lines).toHaveLength(401);
    expect(lines[1]).toBe('Site 2,gw-2,Solar Farms Ltd,2 kW,Offline');
    expect(listCalls(harness.calls).filter((call) => call?.rowsPerPage === 500)).toEqual([{ status: 'NON_OPERATIONAL', offset: null, rowsPerPage: 500 }]);
  });
});
