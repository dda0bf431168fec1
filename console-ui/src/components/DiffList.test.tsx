import { screen, within } from '@testing-library/react';
import { inRouter, renderWithProviders } from '../test-support/render';
import { AuditEntry } from './AuditEntry';
import { DiffList } from './DiffList';

const entries = () => screen.getAllByTestId('diff-entry');

describe('the diff of an audit entry', () => {
  it('shows each typed field with its old and new value', () => {
    renderWithProviders(
      inRouter(
        <DiffList
          diff={[
            { type: 'string', name: 'name', oldValue: 'Old name', newValue: 'Harbour battery' },
            { type: 'number', name: 'reportingInterval', oldValue: null, newValue: 60 },
            { type: 'boolean', name: 'inProduction', oldValue: false, newValue: true },
            { type: 'id', name: 'balenaUuid', oldValue: 'abc', newValue: null },
            { type: 'date', name: 'subscriptionChargedUntil', oldValue: null, newValue: '2026-11-22T05:00:00.000Z' },
            { type: 'json', name: 'outageEmails', oldValue: [], newValue: ['ops@example.com'] },
            { type: 'hidden', name: 'provisioningToken' },
          ]}
        />,
      ),
    );
    expect(entries().map((entry) => entry.getAttribute('data-type'))).toEqual(['string', 'number', 'boolean', 'id', 'date', 'json', 'hidden']);
    const [name, interval, production, uuid, date, json, hidden] = entries();
    expect(name).toHaveTextContent('name:Old name→Harbour battery');
    expect(name?.querySelector('del')).toHaveTextContent('Old name');
    expect(name?.querySelector('ins')).toHaveTextContent('Harbour battery');
    expect(interval).toHaveTextContent('reportingInterval:none→60');
    expect(production).toHaveTextContent('inProduction:No→Yes');
    expect(uuid).toHaveTextContent('balenaUuid:"abc"→none');
    expect(date?.querySelector('ins time')).toHaveAttribute('dateTime', '2026-11-22T05:00:00.000Z');
    expect(json).toHaveTextContent('outageEmails:[]→["ops@example.com"]');
    expect(hidden).toHaveTextContent('provisioningToken:changed (value hidden)');
    expect(hidden?.querySelector('del, ins')).toBeNull();
  });

  it('shows links by hash id, linked where the area has a screen, and a message sent to a device', () => {
    renderWithProviders(
      inRouter(
        <DiffList
          linkTo={(objectType, hashId) => (objectType === 'device_groups' ? `/admin/device-groups/${hashId}` : null)}
          diff={[
            { type: 'link', name: 'deviceGroup', objectType: 'device_groups', oldHashId: null, newHashId: 'g1' },
            { type: 'link-many', name: 'apiKeys', objectType: 'api_keys', addedHashIds: ['k1', 'k2'], removedHashIds: ['k0'] },
            { type: 'message-to-device', name: 'setAssetSchedule', message: { kind: 'charge', identifiers: ['battery'] } },
            { type: 'from-a-later-server', name: 'ignored' },
          ]}
        />,
      ),
    );
    const [link, many, message] = entries();
    expect(entries()).toHaveLength(3);
    expect(link).toHaveTextContent('deviceGroup:none→g1');
    expect(within(link as HTMLElement).getByRole('link', { name: 'g1' })).toHaveAttribute('href', '/admin/device-groups/g1');
    expect(many).toHaveTextContent('apiKeys:added k1, k2; removed k0');
    expect(within(many as HTMLElement).queryByRole('link')).toBeNull();
    expect(message).toHaveTextContent('message setAssetSchedule:{"kind":"charge","identifiers":["battery"]}');
  });

  it('says so when no field changed', () => {
    renderWithProviders(inRouter(<DiffList diff={[]} />));
    expect(screen.getByText('No field changed.')).toBeInTheDocument();
  });

  it('shows an entry with its change type label, who made it and when', () => {
    renderWithProviders(
      inRouter(
        <ol>
          <AuditEntry
            entry={{
              hashId: 'a1',
              changeType: 'DEVICE_GATEWAY_MESSAGE_TO_DEVICE',
              diff: [],
              user: null,
              actorName: 'Gridport',
              createdAt: '2026-11-22T05:00:00.000Z',
            }}
          />
          <AuditEntry
            entry={{
              hashId: 'a2',
              changeType: 'CONTROLLER_UPDATE',
              diff: [{ type: 'boolean', name: 'inProduction', oldValue: false, newValue: true }],
              user: { hashId: 'u1', name: 'Olivia Ops' },
              actorName: 'Olivia Ops',
              createdAt: '2026-11-22T06:00:00.000Z',
            }}
          />
        </ol>,
      ),
    );
    const [delivered, updated] = screen.getAllByTestId('audit-entry');
    expect(delivered).toHaveTextContent('Message delivered to the device');
    expect(delivered).toHaveTextContent('by Gridport');
    expect(updated).toHaveTextContent('Updated');
    expect(updated).toHaveTextContent('by Olivia Ops');
    expect(updated?.querySelector('time')).toHaveAttribute('dateTime', '2026-11-22T06:00:00.000Z');
  });
});
