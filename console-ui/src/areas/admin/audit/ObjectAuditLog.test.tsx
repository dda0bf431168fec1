import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { anAdminDevice } from '../../../test-support/devices';
import { graphqlData, staffServer, variablesOf } from '../../../test-support/graphql';
import { renderConsole } from '../../../test-support/render';

const device = anAdminDevice();

const row = (hashId: string, changeType: string, diff: unknown[], createdAt: string) => ({
  __typename: 'AuditLogRow',
  hashId,
  changeType,
  diff,
  user: changeType === 'CONTROLLER_UPDATE' ? { __typename: 'AuditLogUser', hashId: 'u1', name: 'Olivia Ops' } : null,
  actorName: changeType === 'CONTROLLER_UPDATE' ? 'Olivia Ops' : 'Gridport',
  createdAt,
});

const pages: Record<string, { rows: unknown[]; nextPageOffset: string | null }> = {
  first: {
    rows: [
      row('a3', 'CONTROLLER_UPDATE', [{ type: 'boolean', name: 'inProduction', oldValue: false, newValue: true }], '2026-11-22T07:00:00.000Z'),
      row('a2', 'MESSAGE_FROM_DEVICE', [{ type: 'json', name: 'alarm', oldValue: null, newValue: { code: 'loop_crashed' } }], '2026-11-22T06:00:00.000Z'),
    ],
    nextPageOffset: 'p2',
  },
  p2: {
    rows: [
      row(
        'a1',
        'CONTROLLER_DEVICE_SHIPPED',
        [{ type: 'link', name: 'organization', objectType: 'organizations', oldHashId: null, newHashId: 'o1' }],
        '2026-11-22T05:00:00.000Z',
      ),
    ],
    nextPageOffset: null,
  },
};

const server = staffServer(
  ['gridport.ops'],
  (operationName, variables) => {
    if (operationName === 'AdminDeviceSettings') {
      return graphqlData({ device });
    }
    if (operationName === 'ObjectAuditLog') {
      return graphqlData({ auditLog: { __typename: 'AuditLogPage', ...pages[(variables.offset as string | null) ?? 'first'] } });
    }
    return undefined;
  },
  'Olivia Ops',
);

describe('the admin device timeline', () => {
  it("shows the device's audit entries with their diffs beside the live reports, a page at a time", async () => {
    const harness = renderConsole('/admin/devices/d7/timeline', server);
    await screen.findByRole('heading', { name: 'History' }, { timeout: 10_000 });
    expect(screen.getByRole('heading', { name: 'Live reports' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('audit-entry')).toHaveLength(2));
    const [updated, fromDevice] = screen.getAllByTestId('audit-entry');
    expect(updated).toHaveTextContent('Updated');
    expect(updated).toHaveTextContent('by Olivia Ops');
    expect(updated).toHaveTextContent('inProduction:No→Yes');
    expect(fromDevice).toHaveTextContent('Message from the device');
    expect(fromDevice).toHaveTextContent('alarm:none→{"code":"loop_crashed"}');

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByTestId('audit-entry')).toHaveLength(3));
    const shipped = screen.getAllByTestId('audit-entry')[2];
    expect(shipped).toHaveTextContent('Device shipped');
    expect(screen.getByRole('link', { name: 'o1' })).toHaveAttribute('href', '/admin/organizations/o1');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    expect(variablesOf(harness.calls, 'ObjectAuditLog')).toEqual([
      { objectType: 'DEVICES', hashId: 'd7', offset: null, rowsPerPage: 25 },
      { objectType: 'DEVICES', hashId: 'd7', offset: 'p2', rowsPerPage: 25 },
    ]);
  });
});
