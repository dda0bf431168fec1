import { InProcessPubSub, channels } from '../../common/pubsub';
import { testDatabase, type TestDatabase } from '../../../test-support/database';
import { insertDeviceRow } from '../../../test-support/factories';
import { DevicePresenceService } from './device-presence.service';

/** Node leases and device sessions in the database: what a crash leaves behind is swept, each session once. */
describe('device presence in the database', () => {
  let database: TestDatabase;
  const pubsub = new InProcessPubSub();
  const announced: unknown[] = [];
  const settings = { heartbeatSeconds: 1, leaseSeconds: 3 };

  beforeAll(async () => {
    database = await testDatabase();
    pubsub.subscribe(channels.presence, (message) => void announced.push(message));
  });

  afterAll(async () => {
    await database.close();
  });

  async function aDevice(): Promise<number> {
    return insertDeviceRow(database.db);
  }

  const device = (id: number) =>
    database.db('devices').where('id', id).first('online', 'hub_node_id', 'hub_connection_id', 'network_interface', 'last_seen_at') as Promise<
      Record<string, unknown>
    >;
  /** The lease of `nodeId` as if its last heartbeat were `seconds` ago. */
  const age = (nodeId: string, seconds: number) =>
    database.db.raw(`update hub_nodes set heartbeat_at = now() - make_interval(secs => ?), lease_expires_at = now() - make_interval(secs => ?) where id = ?`, [
      seconds,
      seconds - settings.leaseSeconds,
      nodeId,
    ]);

  it('closes the sessions of a node whose lease ran out, once however many nodes sweep, as a disconnect would', async () => {
    const presence = new DevicePresenceService(database.db, pubsub);
    const [dead, alive] = ['node-dead', 'node-alive'];
    await presence.startNode(dead, settings);
    await presence.startNode(alive, settings);
    const [first, second, elsewhere] = [await aDevice(), await aDevice(), await aDevice()];
    await presence.connected({ deviceId: first, nodeId: dead, connectionId: 'c1', networkInterface: 'eth0', version: '1.0.0' });
    await presence.connected({ deviceId: second, nodeId: dead, connectionId: 'c2', networkInterface: 'cellular', version: null });
    await presence.connected({ deviceId: elsewhere, nodeId: alive, connectionId: 'c3', networkInterface: 'eth1', version: null });
    expect(await device(first)).toMatchObject({ online: true, hub_node_id: dead, hub_connection_id: 'c1', network_interface: 'eth0' });

    // Still within the lease: nothing is swept.
    expect(await presence.sweep()).toEqual([]);
    await age(dead, 10);
    announced.length = 0;
    const sweeps = await Promise.all([presence.sweep(), new DevicePresenceService(database.db, pubsub).sweep(), presence.sweep()]);
    expect(sweeps.flat().sort()).toEqual([first, second].sort());
    expect(announced).toEqual(
      expect.arrayContaining([
        { deviceId: first, online: false, networkInterface: null },
        { deviceId: second, online: false, networkInterface: null },
      ]),
    );
    expect(announced).toHaveLength(2);
    const swept = await device(first);
    expect(swept).toMatchObject({ online: false, hub_node_id: null, hub_connection_id: null });
    // Last seen when the dead node last said it held the session.
    const heartbeat = (await database.db.raw(`select now() - make_interval(secs => 10) as at`)) as { rows: { at: Date }[] };
    expect(Math.abs(new Date(swept.last_seen_at as Date).getTime() - new Date(heartbeat.rows[0]?.at ?? 0).getTime())).toBeLessThan(60_000);
    expect(await device(elsewhere)).toMatchObject({ online: true, hub_node_id: alive });
    // The dead node, holding nothing any more, is forgotten; the live one stays.
    expect(((await database.db('hub_nodes').pluck('id')) as string[]).sort()).toEqual([alive]);
  });

  it('closes at once the sessions of an earlier node of the same name, within its lease', async () => {
    const presence = new DevicePresenceService(database.db, pubsub);
    await presence.startNode('before-crash', settings);
    await presence.nameNode('before-crash', 'host-a:8080');
    const id = await aDevice();
    await presence.connected({ deviceId: id, nodeId: 'before-crash', connectionId: 'c4', networkInterface: null, version: null });
    await presence.startNode('after-crash', settings);
    expect(await presence.nameNode('after-crash', 'host-b:8080')).toEqual([]);
    expect(await device(id)).toMatchObject({ online: true });
    await presence.startNode('restarted', settings);
    expect(await presence.nameNode('restarted', 'host-a:8080')).toEqual([id]);
    expect(await device(id)).toMatchObject({ online: false, hub_connection_id: null });
    expect(await database.db('hub_nodes').where('id', 'before-crash').first()).toBeUndefined();
  });

  it('lets a node whose lease ran out take its sessions back, unless a newer connection holds the device', async () => {
    const presence = new DevicePresenceService(database.db, pubsub);
    await presence.startNode('stalled', settings);
    const [kept, taken] = [await aDevice(), await aDevice()];
    await presence.connected({ deviceId: kept, nodeId: 'stalled', connectionId: 'c5', networkInterface: 'eth0', version: null });
    await presence.connected({ deviceId: taken, nodeId: 'stalled', connectionId: 'c6', networkInterface: 'eth0', version: null });
    await age('stalled', 10);
    expect((await presence.sweep()).sort()).toEqual([kept, taken].sort());
    await presence.startNode('other', settings);
    await presence.connected({ deviceId: taken, nodeId: 'other', connectionId: 'c7', networkInterface: 'eth1', version: null });

    expect(await presence.renewNode('stalled', settings)).toBe(false);
    expect(await presence.retake({ deviceId: kept, nodeId: 'stalled', connectionId: 'c5', networkInterface: 'eth0', version: null })).toBe('retaken');
    expect(await presence.retake({ deviceId: taken, nodeId: 'stalled', connectionId: 'c6', networkInterface: 'eth0', version: null })).toBe('lost');
    expect(await presence.retake({ deviceId: kept, nodeId: 'stalled', connectionId: 'c5', networkInterface: 'eth0', version: null })).toBe('held');
    expect(await device(kept)).toMatchObject({ online: true, hub_node_id: 'stalled', hub_connection_id: 'c5' });
    expect(await device(taken)).toMatchObject({ online: true, hub_node_id: 'other', hub_connection_id: 'c7' });
    expect(await presence.renewNode('stalled', settings)).toBe(true);
  });

  it('closes a session only for the connection that holds it, and everything a stopping node holds', async () => {
    const presence = new DevicePresenceService(database.db, pubsub);
    await presence.startNode('stopping', settings);
    const [one, two] = [await aDevice(), await aDevice()];
    await presence.connected({ deviceId: one, nodeId: 'stopping', connectionId: 'old', networkInterface: null, version: null });
    await presence.connected({ deviceId: one, nodeId: 'stopping', connectionId: 'new', networkInterface: null, version: null });
    await presence.connected({ deviceId: two, nodeId: 'stopping', connectionId: 'c8', networkInterface: null, version: null });
    expect(await presence.disconnected(one, 'old')).toBe(false);
    expect(await device(one)).toMatchObject({ online: true });
    expect(await presence.stopNode('stopping')).toEqual(expect.arrayContaining([one, two]));
    expect(await device(one)).toMatchObject({ online: false });
    expect(await database.db('hub_nodes').where('id', 'stopping').first()).toBeUndefined();
  });

  it('answers the running config from the last config report, else the saved config, else none', async () => {
    const presence = new DevicePresenceService(database.db, pubsub);
    await presence.startNode('config-node', settings);
    const id = await aDevice();
    const open = () => presence.connected({ deviceId: id, nodeId: 'config-node', connectionId: 'c9', networkInterface: null, version: null });
    expect(await open()).toEqual({ keepAliveSeconds: null, runningConfig: null });
    await database
      .db('devices')
      .where('id', id)
      .update({ config: JSON.stringify({ assets: [{}, {}, {}], activeControl: [{}], cloudKeepAliveIntervalInSec: 15 }) });
    expect(await open()).toEqual({ keepAliveSeconds: 15, runningConfig: { assets: 3, controllers: 1 } });
    await database.db('device_reports').insert({
      device_id: id,
      report_id: 'r1',
      type: 'config',
      at: new Date(),
      body: JSON.stringify({ type: 'config', at: new Date().toISOString(), observations: { source: 'local', config: { assets: [{}] } } }),
    });
    expect(await open()).toEqual({ keepAliveSeconds: 15, runningConfig: { assets: 1, controllers: 0 } });
  });
  it('opens several sessions in one call as connected opens each: rows, connection events, announcements and answers in order, a device named twice held by its later session', async () => {
    const presence = new DevicePresenceService(database.db, pubsub);
    await presence.startNode('batch-node', settings);
    const [plain, configured, twice] = [await aDevice(), await aDevice(), await aDevice()];
    await database
      .db('devices')
      .where('id', configured)
      .update({ version: '0.9.0', config: JSON.stringify({ assets: [{}, {}], activeControl: [], cloudKeepAliveIntervalInSec: 20 }) });
    await database.db('device_reports').insert({
      device_id: twice,
      report_id: 'r-batch',
      type: 'config',
      at: new Date(),
      body: JSON.stringify({ type: 'config', at: new Date().toISOString(), observations: { source: 'local', config: { assets: [{}, {}, {}, {}] } } }),
    });
    announced.length = 0;
    const answers = await presence.connectedMany([
      { deviceId: plain, nodeId: 'batch-node', connectionId: 'b1', networkInterface: 'eth0', version: '2.0.0' },
      { deviceId: twice, nodeId: 'batch-node', connectionId: 'b2-old', networkInterface: 'eth1', version: null },
      { deviceId: configured, nodeId: 'batch-node', connectionId: 'b3', networkInterface: 'cellular', version: null },
      { deviceId: twice, nodeId: 'batch-node', connectionId: 'b2-new', networkInterface: 'eth0', version: null },
    ]);
    expect(answers).toEqual([
      { keepAliveSeconds: null, runningConfig: null },
      { keepAliveSeconds: null, runningConfig: { assets: 4, controllers: 0 } },
      { keepAliveSeconds: 20, runningConfig: { assets: 2, controllers: 0 } },
      { keepAliveSeconds: null, runningConfig: { assets: 4, controllers: 0 } },
    ]);
    expect(await device(plain)).toMatchObject({ online: true, hub_node_id: 'batch-node', hub_connection_id: 'b1', network_interface: 'eth0' });
    expect(await device(configured)).toMatchObject({ online: true, hub_connection_id: 'b3', network_interface: 'cellular' });
    expect(await device(twice)).toMatchObject({ online: true, hub_connection_id: 'b2-new', network_interface: 'eth0' });
    expect(await database.db('devices').whereIn('id', [plain, configured]).orderBy('id').pluck('version')).toEqual(['2.0.0', '0.9.0']);
    const events = (await database
      .db('device_connection_events')
      .whereIn('device_id', [plain, configured, twice])
      .orderBy('id')
      .select('device_id', 'kind', 'network_interface')) as { device_id: string | number; kind: string; network_interface: string | null }[];
    expect(events.map((event) => [Number(event.device_id), event.kind, event.network_interface])).toEqual([
      [plain, 'connected', 'eth0'],
      [twice, 'connected', 'eth1'],
      [configured, 'connected', 'cellular'],
      [twice, 'connected', 'eth0'],
    ]);
    expect(announced).toEqual([
      { deviceId: plain, online: true, networkInterface: 'eth0', connectionId: 'b1' },
      { deviceId: twice, online: true, networkInterface: 'eth1', connectionId: 'b2-old' },
      { deviceId: configured, online: true, networkInterface: 'cellular', connectionId: 'b3' },
      { deviceId: twice, online: true, networkInterface: 'eth0', connectionId: 'b2-new' },
    ]);
  });
  it('closes several sessions in one call, each only for the connection that holds it', async () => {
    const presence = new DevicePresenceService(database.db, pubsub);
    await presence.startNode('dropping', settings);
    const [one, two, replaced] = [await aDevice(), await aDevice(), await aDevice()];
    await presence.connectedMany([
      { deviceId: one, nodeId: 'dropping', connectionId: 'd1', networkInterface: 'eth0', version: null },
      { deviceId: two, nodeId: 'dropping', connectionId: 'd2', networkInterface: null, version: null },
      { deviceId: replaced, nodeId: 'dropping', connectionId: 'd3-new', networkInterface: null, version: null },
    ]);
    announced.length = 0;
    expect(
      await presence.disconnectedMany([
        { deviceId: one, connectionId: 'd1' },
        { deviceId: replaced, connectionId: 'd3-old' },
        { deviceId: two, connectionId: 'd2' },
      ]),
    ).toEqual([true, false, true]);
    expect(await device(one)).toMatchObject({ online: false, hub_connection_id: null, hub_node_id: null });
    expect(await device(two)).toMatchObject({ online: false });
    expect(await device(replaced)).toMatchObject({ online: true, hub_connection_id: 'd3-new' });
    expect(announced).toEqual(
      expect.arrayContaining([
        { deviceId: one, online: false, networkInterface: null },
        { deviceId: two, online: false, networkInterface: null },
      ]),
    );
    expect(announced).toHaveLength(2);
    const events = (await database
      .db('device_connection_events')
      .whereIn('device_id', [one, two, replaced])
      .where('kind', 'disconnected')
      .pluck('device_id')) as (string | number)[];
    expect(events.map(Number).sort()).toEqual([one, two].sort());
    expect(await presence.disconnectedMany([])).toEqual([]);
  });
});
