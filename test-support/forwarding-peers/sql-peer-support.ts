import net from 'node:net';
import path from 'node:path';
import pino from 'pino';
import {
  destinationSettingsSchemas,
  forwardingLimits,
  forwardingVersions,
  type DestinationSettingsOf,
  type ForwardedMessage,
  type MessageType,
} from '../../contracts/forwarding';
import { GridportError } from '../../contracts/errors';
import type { AddressPolicy } from '../../graph/forwarding/delivery/address-guard';
import type { Deliverer, DelivererFactory } from '../../graph/forwarding/delivery/deliverer';
import { requireServices } from '../services';
import { receivedOf, type ForwardingPeer, type PeerStarter, type ReceivedMessage } from './peer';

/**
 * What the SQL kinds' peers and tests share (mysql, postgres, mssql): realistic forwarded
 * messages, a row read back as a ReceivedMessage, a listener that counts connections for the
 * address guard's tests, and the suite every SQL deliverer passes.
 */
export type SqlKind = 'mysql' | 'postgres' | 'mssql';

/** `describe` when the peer can run here (or REQUIRE_SERVICES is set, making a missing one fail), else `describe.skip` with the reason. */
export function describeWithPeer(starter: PeerStarter, file: string): jest.Describe {
  const missing = starter.missing();
  if (missing === null || requireServices) {
    return describe;
  }
  process.stderr.write(`${path.relative(process.cwd(), file)}: skipped, ${missing} (REQUIRE_SERVICES=1 makes this a failure)\n`);
  return describe.skip;
}

/** A name unique to this test file's run, for databases and users ([a-z0-9_]). */
export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
}

const devices = [
  { hashId: 'dv3kq8a1', name: 'Farm Noord – inverter room', identifier: 'TP-000481' },
  { hashId: 'dv7mx2c9', name: 'Zählerschrank Süd', identifier: 'TP-000517' },
  { hashId: 'dv9pz4e5', name: 'Depot Charging', identifier: null },
] as const;

const plan: ReadonlyArray<{ type: MessageType; asset: ForwardedMessage['asset']; values: (n: number) => Record<string, unknown> }> = [
  {
    type: 'solarPower',
    asset: { index: 0, identifier: 'SMA-STP-25000', type: 'solar' },
    values: (n) => ({ activePowerW: 18_250.5 + n, reactivePowerVar: -312.25, energyExportedWh: 48_210_334 + n * 76, dcVoltageV: 612.4, status: 'running' }),
  },
  {
    type: 'batteryPower',
    asset: { index: 1, identifier: 'BYD-HVS-12.8', type: 'battery' },
    values: (n) => ({
      activePowerW: -4_000 + n * 10,
      stateOfChargePercent: 63.5,
      stateOfHealthPercent: 97,
      status: 'on',
      cellTemperaturesC: [24.5, 24.75, 25],
    }),
  },
  {
    type: 'meterPower',
    asset: { index: 2, identifier: null, type: 'meter' },
    values: (n) => ({
      activePowerW: 812.125 - n,
      importedEnergyWh: 9_876_543 + n,
      exportedEnergyWh: 1_234_567,
      phases: [
        { voltageV: 231.2, currentA: 3.12 },
        { voltageV: 229.8, currentA: 2.9 },
        { voltageV: 230.4, currentA: 3.05 },
      ],
    }),
  },
  {
    type: 'alarm',
    asset: null,
    values: (n) => ({ kind: 'assetUnreachable', severity: 'major', active: n % 2 === 0, message: 'Wechselrichter antwortet nicht ("timeout")' }),
  },
];

/** A forwarded message numbered `n` (its position): devices, message types and assets cycle; times step 15 s. */
export function forwardedMessage(n: number): ForwardedMessage {
  const device = devices[n % devices.length];
  const kind = plan[n % plan.length];
  if (device === undefined || kind === undefined) {
    throw new Error('no device or message type to build a message from');
  }
  const at = new Date(Date.UTC(2026, 10, 25, 8, 0, 0) + n * 15_000 + (n % 7) * 111);
  return {
    messageType: kind.type,
    version: forwardingVersions[kind.type],
    id: `${device.identifier ?? device.hashId}-r${String(n).padStart(6, '0')}`,
    position: String(1_000_000_000 + n * 3),
    device: { ...device },
    asset: kind.asset,
    at: at.toISOString(),
    receivedAt: new Date(at.getTime() + 850).toISOString(),
    values: kind.values(n),
  };
}

/** Messages numbered `from` up to `from + count - 1`, in stream order. */
export function forwardedBatch(from: number, count: number): ForwardedMessage[] {
  return Array.from({ length: count }, (_, index) => forwardedMessage(from + index));
}

/** A row's columns as every SQL peer reads them back (times as ISO 8601 UTC, payload parsed). */
export interface SqlReadRow {
  position: string;
  messageType: string;
  deviceHashId: string;
  at: string;
  messageId: string;
  payload: ForwardedMessage;
}

/** The row as a received message: the keys from their columns, the values from the payload column. */
export function receivedOfRow(row: SqlReadRow): ReceivedMessage {
  return { messageType: row.messageType, id: row.messageId, position: row.position, deviceHashId: row.deviceHashId, at: row.at, values: row.payload.values };
}

/** A TCP listener that only counts the connections made to it: the guard's tests point a deliverer at it. */
export async function connectionCounter(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = net.createServer((socket) => {
    count += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') {
    throw new Error('the counting listener has no port');
  }
  return { port: address.port, connections: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export const quietLog = pino({ level: 'silent' });

/**
 * The behaviour every SQL deliverer shows against its peer: batches written and read back
 * exactly, a batch delivered again inserting nothing, a broken peer named in the error and
 * healed, the address guard refusing loopback before any connection. `more` adds the kind's
 * own tests with the running peer and a deliverer maker.
 */
export function describeSqlDeliverer<K extends SqlKind>(
  kind: K,
  starter: PeerStarter,
  factory: DelivererFactory<K>,
  file: string,
  more?: (use: { peer: () => ForwardingPeer; deliverer: (overrides?: Record<string, unknown>, policy?: AddressPolicy) => Deliverer }) => void,
): void {
  describeWithPeer(starter, file)(`the ${kind} deliverer`, () => {
    let peer: ForwardingPeer | null = null;
    const opened: Deliverer[] = [];
    const running = (): ForwardingPeer => {
      if (peer === null) {
        throw new Error(`the ${kind} peer did not start`);
      }
      return peer;
    };
    const deliverer = (overrides: Record<string, unknown> = {}, policy: AddressPolicy = { allowPrivateNetworks: true }): Deliverer => {
      const settings = destinationSettingsSchemas[kind].validateSync({ ...running().settings, ...overrides }) as DestinationSettingsOf<K>;
      const made = factory(settings, { destinationHashId: 'ds4test', policy, log: quietLog });
      opened.push(made);
      return made;
    };

    beforeAll(async () => {
      peer = await starter.start();
    });
    afterAll(async () => {
      for (const made of opened) {
        await made.close();
      }
      await peer?.stop();
    });

    const first = forwardedBatch(1, 7);
    const second = forwardedBatch(8, 5);
    const third = forwardedBatch(13, 9);

    it('writes batches of several devices and message types, read back exactly as sent', async () => {
      const made = deliverer();
      await made.deliver(first);
      await made.deliver(second);
      await made.deliver(third);
      expect(await running().received()).toEqual([...first, ...second, ...third].map(receivedOf));
    });

    it('a batch delivered again inserts nothing new; one overlapping the last adds only the new messages', async () => {
      const made = deliverer();
      await made.deliver(second);
      const fourth = forwardedBatch(22, 3);
      await made.deliver([...third.slice(-2), ...fourth]);
      expect(await running().received()).toEqual([...first, ...second, ...third, ...fourth].map(receivedOf));
    });

    it('a broken peer makes deliver reject naming what failed, without the password; after heal the same deliverer delivers', async () => {
      const made = deliverer();
      const fifth = forwardedBatch(25, 4);
      await made.deliver(forwardedBatch(22, 1));
      await running().break();
      let failure: unknown = null;
      try {
        await made.deliver(fifth);
      } catch (error) {
        failure = error;
      }
      expect(failure).toBeInstanceOf(Error);
      const message = (failure as Error).message;
      expect(message).toMatch(
        new RegExp(`^${kind}: (could not connect to 127\\.0\\.0\\.1:\\d+|writing 4 reports into gridport_reports at 127\\.0\\.0\\.1:\\d+ failed): \\S`),
      );
      const password = running().settings.password;
      expect(typeof password === 'string' && password.length > 0 && !message.includes(password)).toBe(true);
      await running().heal();
      await made.deliver(fifth);
      const all = await running().received();
      expect(all.slice(-4)).toEqual(fifth.map(receivedOf));
      expect(all).toHaveLength(28);
    });

    it('refuses 127.0.0.1 with destination_address_not_allowed before any connection when private networks are not allowed', async () => {
      const counter = await connectionCounter();
      try {
        const made = deliverer({ host: '127.0.0.1', port: counter.port }, { allowPrivateNetworks: false });
        const failure = await made.deliver(forwardedBatch(40, 1)).catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(GridportError);
        expect((failure as GridportError).key).toBe('destination_address_not_allowed');
        expect(counter.connections()).toBe(0);
      } finally {
        await counter.close();
      }
    });

    it('refuses a name that resolves to loopback (localhost) the same way', async () => {
      const counter = await connectionCounter();
      try {
        const made = deliverer({ host: 'localhost', port: counter.port }, { allowPrivateNetworks: false });
        const failure = await made.deliver(forwardedBatch(41, 1)).catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(GridportError);
        expect((failure as GridportError).key).toBe('destination_address_not_allowed');
        expect(counter.connections()).toBe(0);
      } finally {
        await counter.close();
      }
    });

    it('a database that does not exist is refused with the server saying why; a closed deliverer delivers no more', async () => {
      const wrong = deliverer({ database: 'gridport_no_such_database' });
      await expect(wrong.deliver(forwardedBatch(42, 1))).rejects.toThrow(new RegExp(`^${kind}: could not connect to 127\\.0\\.0\\.1:\\d+: .+`));
      await wrong.close();
      await expect(wrong.deliver(forwardedBatch(42, 1))).rejects.toThrow(`${kind}: the deliverer is closed`);
    });

    it(`a batch of ${forwardingLimits.batchMax} messages (the most the worker sends) is one statement that takes them all`, async () => {
      const before = await running().received();
      const large = forwardedBatch(1_000, forwardingLimits.batchMax);
      await deliverer().deliver(large);
      expect(await running().received()).toEqual([...before, ...large.map(receivedOf)]);
    });

    more?.({ peer: running, deliverer });
  });
}
