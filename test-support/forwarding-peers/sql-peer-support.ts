import pino from 'pino';
import { destinationSettingsSchemas, forwardingLimits, type DestinationSettingsOf, type ForwardedMessage } from '../../contracts/forwarding';
import { GridportError } from '../../contracts/errors';
import type { AddressPolicy } from '../../graph/forwarding/delivery/address-guard';
import type { Deliverer, DelivererFactory } from '../../graph/forwarding/delivery/deliverer';
import { forwardedBatch } from './messages';
import { connectionCounter, describeWithPeer, receivedOf, type ForwardingPeer, type PeerStarter, type ReceivedMessage } from './peer';

/**
 * What the SQL kinds' peers and tests share (mysql, postgres, mssql): a row read back as a
 * ReceivedMessage, and the suite every SQL deliverer passes.
 */
export type SqlKind = 'mysql' | 'postgres' | 'mssql';

/** A name unique to this test file's run, for databases and users ([a-z0-9_]). */
export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
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
