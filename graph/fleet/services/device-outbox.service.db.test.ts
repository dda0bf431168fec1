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
});
