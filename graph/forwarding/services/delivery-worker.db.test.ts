import pino from 'pino';
import pg from 'pg';
import type { ForwardedMessage } from '../../../contracts/forwarding';
import { testSecrets } from '../../../test-support/app';
import { testDatabase, type TestDatabase } from '../../../test-support/database';
import { buildDeviceGroup, buildOrganization, insertDeviceRow } from '../../../test-support/factories';
import { systemActor } from '../../common/context';
import { HashIds } from '../../common/hash-ids';
import { createServices, type Services } from '../../services';
import type { Deliverer } from '../delivery/deliverer';
import { ForwardingWorker } from './delivery-worker';
import { defaultForwardingSettings } from './forwarding-settings';

/**
 * The delivery worker on the database (docs/forwarding.md, "Delivery"): the deliverer here is
 * a recorder of Gridport's own Deliverer interface; the kinds' deliverers are tested against
 * their real peers beside them, and end to end in forwarding.e2e.test.ts.
 */
describe('forwarding delivery worker', () => {
  let database: TestDatabase;
  let services: Services;
  const hashIds = new HashIds(testSecrets.hashIdSecret);
  const log = pino({ level: 'silent' });
  let organizationId = 0;
  let organizationHashId = '';

  /** What the recorder received, per destination, and whether it fails. */
  const received = new Map<string, ForwardedMessage[][]>();
  const failing = new Set<string>();
  const recorder = (_settings: unknown, context: { destinationHashId: string }): Deliverer => ({
    deliver: async (messages) => {
      if (failing.has(context.destinationHashId)) {
        throw new Error('connect ECONNREFUSED 127.0.0.1:9');
      }
      received.set(context.destinationHashId, [...(received.get(context.destinationHashId) ?? []), [...messages]]);
    },
    close: async () => undefined,
  });

  const workerOn = (nodeId: string, pauseAfterSeconds = 900) =>
    new ForwardingWorker({
      db: database.db,
      hashIds,
      destinations: services.messageDestinations,
      alarms: services.alarms,
      settings: { ...defaultForwardingSettings, pauseAfterSeconds, allowPrivateNetworks: true },
      log,
      nodeId,
      deliverers: { http: recorder },
    });

  beforeAll(async () => {
    database = await testDatabase();
    services = createServices({
      db: database.db,
      hashIds,
      sessionSecret: testSecrets.sessionSecret,
      encryptionKey: testSecrets.encryptionKey,
      alarms: { recoverySeconds: 0 },
    });
    // The workers' node ids are live hub nodes, as on a running server (a dead node's leases are free at once).
    await database.db('hub_nodes').insert(['node-a', 'node-b'].map((id) => ({ id, lease_expires_at: new Date(Date.now() + 3_600_000) })));
    const organization = await buildOrganization(services);
    organizationId = organization.id;
    organizationHashId = organization.hashId;
  });

  afterAll(async () => {
    await database.close();
  });

  let reportNumber = 0;
  /**
   * Waits until the stream can read every report stored so far. It reads only what transactions
   * older than every running one wrote, on the whole PostgreSQL server, and another test file's
   * transaction (in another jest worker) can hold that back for a moment.
   */
  const untilReadable = async () => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const { rows } = (await database.db.raw(
        'select coalesce(pg_snapshot_xmin(pg_current_snapshot()) > (select max(tx) from device_reports), true) as passed',
      )) as { rows: { passed: boolean }[] };
      if (rows[0]?.passed) {
        return;
      }
      if (Date.now() > deadline) {
        throw new Error('the stream did not pass the stored reports within 20 s: a transaction on the server stays open');
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  /**
   * Stores `count` reports of `type` as ingest does (one statement, one transaction) and,
   * unless `readable` is false, waits until the stream can read them, so the worker's next tick
   * sees them.
   */
  const store = async (
    deviceId: number,
    type: string,
    count: number,
    { assetIndex = 0, readable = true }: { assetIndex?: number | null; readable?: boolean } = {},
  ): Promise<string[]> => {
    const ids: string[] = [];
    const rows = Array.from({ length: count }, () => {
      reportNumber += 1;
      const id = `r${reportNumber}`;
      ids.push(id);
      return {
        device_id: deviceId,
        report_id: id,
        type,
        at: new Date(Date.now() - 60_000 + reportNumber * 10),
        asset_index: assetIndex,
        body: JSON.stringify({ type, at: new Date().toISOString(), observations: { activePower: reportNumber, code: 'x', level: 'warning', active: true } }),
      };
    });
    await database.db('device_reports').insert(rows);
    if (readable) {
      await untilReadable();
    }
    return ids;
  };

  /** A group with a device in production and one not, and a destination the group forwards `messageTypes` to. */
  const setUp = async (messageTypes: string[], { outageEmails = [] as string[] } = {}) => {
    const group = await buildDeviceGroup(services, { organizationHashId });
    const inProduction = await insertDeviceRow(database.db, { organization_id: organizationId, device_group_id: group.id, in_production: true });
    const notInProduction = await insertDeviceRow(database.db, { organization_id: organizationId, device_group_id: group.id, in_production: false });
    const [row] = (await database
      .db('message_destinations')
      .insert({
        organization_id: organizationId,
        name: `Destination ${reportNumber}`,
        type: 'http',
        settings: JSON.stringify({ type: 'http', url: 'http://127.0.0.1:9/in', method: 'POST', headers: [], timeoutMs: 1000 }),
        outage_emails: JSON.stringify(outageEmails),
        monitor_settings: JSON.stringify({ enabled: true, maxLagSeconds: null }),
      })
      .returning('id')) as { id: string | number }[];
    const destinationId = Number(row?.id);
    await database.db.transaction((trx) => services.forwardingDeliveries.start(trx, destinationId));
    await database.db('device_group_message_destinations').insert({
      device_group_id: group.id,
      message_destination_id: destinationId,
      message_types: messageTypes,
    });
    return { destinationId, destinationHashId: hashIds.encode('messageDestination', destinationId), inProduction, notInProduction };
  };

  const run = async (worker: ForwardingWorker) => {
    await worker.tick();
    await worker.settled();
  };
  const delivery = (destinationId: number) =>
    database.db('message_destination_deliveries').where('message_destination_id', destinationId).first() as Promise<{
      state: string;
      cursor_seq: string;
      delivered_count: string;
      last_error: string | null;
      failing_since: Date | null;
      next_attempt_at: Date | null;
      paused_reason: string | null;
      lease_owner: string | null;
    }>;

  it('delivers what is stored after the destination starts, of devices in production, of its message types, in order', async () => {
    const { destinationId, destinationHashId, inProduction, notInProduction } = await setUp(['meterPower', 'solarPowerFlash']);
    await store(inProduction, 'meterPower', 1); // still before? no: the destination started before this report
    const meter = await store(inProduction, 'meterPower', 3);
    const flash = await store(inProduction, 'solarPower.flash', 2);
    await store(inProduction, 'batteryPower', 2); // not forwarded to it
    await store(notInProduction, 'meterPower', 2); // not in production
    const worker = workerOn('node-a');
    await run(worker);
    const messages = (received.get(destinationHashId) ?? []).flat();
    expect(messages.map((message) => message.id)).toEqual([`r${Number(meter[0]?.slice(1)) - 1}`, ...meter, ...flash]);
    expect(messages.every((message) => message.device.hashId === hashIds.encode('device', inProduction))).toBe(true);
    expect(messages.find((message) => message.messageType === 'solarPowerFlash')).toMatchObject({ version: 1, values: { activePower: expect.any(Number) } });
    expect(messages.find((message) => message.messageType === 'meterPower')).toMatchObject({ version: 2, asset: { index: 0 } });
    const positions = messages.map((message) => BigInt(message.position));
    expect([...positions].sort((a, b) => (a < b ? -1 : 1))).toEqual(positions);
    const state = await delivery(destinationId);
    expect(Number(state.delivered_count)).toBe(6);
    expect(state.lease_owner).toBeNull();
    const health = (await services.forwardingDeliveries.healthOf([destinationId])).get(destinationId);
    expect(health).toMatchObject({ state: 'active', lagReports: 0, lagSeconds: 0, deliveredCount: 6, lastError: null });
    await worker.stop();
  });

  it('counts the lag of what waits, and delivers each report once with two nodes at work', async () => {
    const { destinationId, destinationHashId, inProduction } = await setUp(['meterPower']);
    await store(inProduction, 'meterPower', 1200);
    const before = (await services.forwardingDeliveries.healthOf([destinationId])).get(destinationId);
    expect(before?.lagReports).toBe(1200);
    expect(before?.lagSeconds).toBeGreaterThanOrEqual(0);
    const a = workerOn('node-a');
    const b = workerOn('node-b');
    await Promise.all([run(a), run(b), run(a), run(b)]);
    const ids = (received.get(destinationHashId) ?? []).flat().map((message) => message.id);
    expect(ids).toHaveLength(1200);
    expect(new Set(ids).size).toBe(1200);
    expect((await services.forwardingDeliveries.healthOf([destinationId])).get(destinationId)?.lagReports).toBe(0);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('backs off on failure, pauses after the pause time with an alarm and a mail, and resumes from an offset', async () => {
    const { destinationId, destinationHashId, inProduction } = await setUp(['meterPower'], { outageEmails: ['outage@example.com'] });
    failing.add(destinationHashId);
    const first = await store(inProduction, 'meterPower', 3);
    const worker = workerOn('node-a', 1);
    await run(worker);
    let state = await delivery(destinationId);
    expect(state).toMatchObject({ state: 'active', last_error: 'connect ECONNREFUSED 127.0.0.1:9' });
    expect(state.next_attempt_at?.getTime()).toBeGreaterThan(Date.now());
    await run(worker); // backing off: not claimed
    expect(Number((await delivery(destinationId)).delivered_count)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await run(worker);
    state = await delivery(destinationId);
    expect(state).toMatchObject({ state: 'paused', paused_reason: 'failing' });
    await services.alarms.settled();
    const alarm = await database.db('alarms').where({ destination_id: destinationId }).first();
    expect(alarm).toMatchObject({ monitor: 'destination.paused', closed_at: null });
    const issue = await database.db('issues').where('id', alarm.issue_id).first();
    expect(Number(issue.organization_id)).toBe(organizationId);
    expect(issue.source).toBe('monitoring');
    const mails = (await database.db('mails').select('to', 'subject')) as { to: unknown; subject: string }[];
    expect(mails.some((mail) => JSON.stringify(mail.to).includes('outage@example.com') && mail.subject.includes('Message destination paused'))).toBe(true);

    // Paused: nothing is attempted, whatever arrives.
    await store(inProduction, 'meterPower', 2);
    await run(worker);
    expect(received.get(destinationHashId)).toBeUndefined();

    // Fixed, resumed from the first report's position: every report from it on arrives.
    failing.delete(destinationHashId);
    const firstSeq = Number((await database.db('device_reports').where('report_id', first[0]).first('seq')).seq);
    await services.messageDestinations.resume(systemActor('developer'), destinationHashId, { offset: firstSeq });
    expect((await database.db('alarms').where({ destination_id: destinationId }).first()).recovering_since).not.toBeNull();
    await run(worker);
    const ids = (received.get(destinationHashId) ?? []).flat().map((message) => message.id);
    expect(ids.slice(0, 3)).toEqual(first);
    expect(ids).toHaveLength(5);
    expect((await delivery(destinationId)).state).toBe('active');

    // Replay: resume from the same offset again delivers them again.
    await database.db.transaction((trx) => services.forwardingDeliveries.resume(trx, destinationId, firstSeq));
    await run(worker);
    expect((received.get(destinationHashId) ?? []).flat()).toHaveLength(10);
    await worker.stop();
  });

  const onPostgres = process.env.DATABASE_URL ? it : it.skip;
  onPostgres('never skips a report whose transaction commits after a later one (PostgreSQL: two connections)', async () => {
    const { destinationId, destinationHashId, inProduction } = await setUp(['meterPower']);
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query(`set search_path to ${database.schema}`);
      await client.query('begin');
      await client.query(
        `insert into device_reports (device_id, report_id, type, at, asset_index, body) values ($1, 'late', 'meterPower', now() - interval '1 minute', 0, '{"observations":{}}')`,
        [inProduction],
      );
      const early = await store(inProduction, 'meterPower', 2, { readable: false }); // commits while 'late' is open
      const worker = workerOn('node-a');
      await run(worker);
      expect(received.get(destinationHashId)).toBeUndefined(); // behind the open transaction: not yet
      await client.query('commit');
      await untilReadable();
      await run(worker);
      const ids = (received.get(destinationHashId) ?? []).flat().map((message) => message.id);
      expect(ids).toEqual(['late', ...early]);
      expect(Number((await delivery(destinationId)).delivered_count)).toBe(3);
      await worker.stop();
    } finally {
      await client.end();
    }
  });
});
