import { systemActor } from '../../common/context';
import { InProcessPubSub } from '../../common/pubsub';
import { write } from '../../common/write';
import { testDatabase, type TestDatabase } from '../../../test-support/database';
import { insertDeviceRow } from '../../../test-support/factories';
import { exampleDeviceConfig } from '../../../contracts/device';
import { DeviceOutboxService } from './device-outbox.service';

/** Issue 16, item 9: what the hub delivers to a device is audited as deviceGatewayMessageToDevice, once, when the device acknowledges it. */
describe('the device outbox acknowledged', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await testDatabase();
  });

  afterAll(async () => {
    await database.close();
  });

  it('audits each message the device acknowledges, once', async () => {
    const outbox = new DeviceOutboxService(database.db, new InProcessPubSub());
    const deviceId = await insertDeviceRow(database.db);
    const actor = systemActor('test');
    const [ping, reboot] = await write(database.db, actor, async (w) => [
      await outbox.enqueue(w, actor, deviceId, { type: 'debugPing', payload: 'hello' }),
      await outbox.enqueue(w, actor, deviceId, { type: 'reboot', hard: false }),
    ]);
    expect(await outbox.acknowledge(deviceId, [ping ?? 0])).toBe(1);
    // Acknowledged again (a resend after a reconnect) and together with the next one: only the new one counts.
    expect(await outbox.acknowledge(deviceId, [ping ?? 0, reboot ?? 0])).toBe(1);
    const entries = (await database
      .db('audit_log')
      .where({ object_type: 'devices', object_id: deviceId, change_type: 'deviceGatewayMessageToDevice' })
      .orderBy('id')) as { diff: { type: string; name: string; message: Record<string, unknown> }[]; actor_name: string }[];
    expect(entries.map((entry) => entry.diff)).toEqual([
      [{ type: 'message-to-device', name: 'debugPing', message: { type: 'debugPing', payload: 'hello' } }],
      [{ type: 'message-to-device', name: 'reboot', message: { type: 'reboot', hard: false } }],
    ]);
  });

  it('replaces the configs never sent with a new one, and keeps one already sent and every other message', async () => {
    const outbox = new DeviceOutboxService(database.db, new InProcessPubSub());
    const deviceId = await insertDeviceRow(database.db);
    const actor = systemActor('test');
    const config = (keepAlive: number) => ({ type: 'setConfig', config: { ...structuredClone(exampleDeviceConfig), cloudKeepAliveIntervalInSec: keepAlive } });
    const sent = await write(database.db, actor, (w) => outbox.enqueue(w, actor, deviceId, config(10)));
    await outbox.markDelivered(sent);
    await write(database.db, actor, async (w) => {
      await outbox.enqueue(w, actor, deviceId, config(20));
      await outbox.enqueue(w, actor, deviceId, { type: 'debugPing', payload: 'between' });
    });
    await write(database.db, actor, (w) => outbox.enqueue(w, actor, deviceId, config(30)));
    const pending = await outbox.pending(deviceId);
    expect(
      pending.map((message) =>
        message.type === 'setConfig'
          ? (message.payload as { config: { cloudKeepAliveIntervalInSec: number } }).config.cloudKeepAliveIntervalInSec
          : message.type,
      ),
    ).toEqual([10, 'debugPing', 30]);
  });
  it('reads the pending messages of several devices in one call as pending reads each, and marks sends in one', async () => {
    const outbox = new DeviceOutboxService(database.db, new InProcessPubSub());
    const [first, second, empty] = [await insertDeviceRow(database.db), await insertDeviceRow(database.db), await insertDeviceRow(database.db)];
    const actor = systemActor('test');
    const [a1, a2, a3, b1] = await write(database.db, actor, async (w) => [
      await outbox.enqueue(w, actor, first, { type: 'debugPing', payload: 'a1' }),
      await outbox.enqueue(w, actor, first, { type: 'debugPing', payload: 'a2' }),
      await outbox.enqueue(w, actor, first, { type: 'debugPing', payload: 'a3' }),
      await outbox.enqueue(w, actor, second, { type: 'reboot', hard: true }),
    ]);
    await outbox.acknowledge(first, [a1 ?? 0]);
    const answers = await outbox.pendingMany([
      { deviceId: first, limit: 1, afterId: 0 },
      { deviceId: empty, limit: 50, afterId: 0 },
      { deviceId: second, limit: 50, afterId: 0 },
      { deviceId: first, limit: 50, afterId: a2 ?? 0 },
    ]);
    expect(answers.map((messages) => messages.map((message) => [message.id, message.payload]))).toEqual([
      [[a2, { type: 'debugPing', payload: 'a2' }]],
      [],
      [[b1, { type: 'reboot', hard: true }]],
      [[a3, { type: 'debugPing', payload: 'a3' }]],
    ]);
    expect(answers).toEqual([
      await outbox.pending(first, 1),
      await outbox.pending(empty, 50),
      await outbox.pending(second, 50),
      await outbox.pending(first, 50, a2 ?? 0),
    ]);
    expect(await outbox.pendingMany([])).toEqual([]);

    // a2 sent twice (sent again after a reconnect) and b1 once, in one update.
    await outbox.markDeliveredMany([a2 ?? 0, b1 ?? 0, a2 ?? 0]);
    const rows = (await database
      .db('device_outbox')
      .whereIn('id', [a2 ?? 0, a3 ?? 0, b1 ?? 0])
      .orderBy('id')
      .select('attempts', 'delivered_at')) as {
      attempts: number;
      delivered_at: Date | null;
    }[];
    expect(rows.map((row) => [row.attempts, row.delivered_at === null])).toEqual([
      [2, false],
      [0, true],
      [1, false],
    ]);
  });
});
