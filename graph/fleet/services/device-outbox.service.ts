import type { Knex } from 'knex';
import { cloudToDeviceMessageSchema, type CloudToDeviceMessage } from '../../../contracts/device';
import { validate } from '../../../contracts/validation';
import type { Actor } from '../../common/context';
import { channels, type PubSub } from '../../common/pubsub';
import { write, type Write } from '../../common/write';
import { systemActor } from '../../common/context';
import { DeviceOutboxModel } from '../models/device-outbox.model';

/** A message waiting for its device, as the device hub sends it. */
export interface PendingMessage {
  id: number;
  type: string;
  payload: Record<string, unknown>;
  createdAt: Date;
}

/**
 * The outbox of cloud-to-device messages: every config change, schedule, parameter write and
 * message for a device is stored here in order, in the transaction of the change that caused
 * it, and kept until the device acknowledges it (the device hub delivers it).
 */
export class DeviceOutboxService {
  constructor(
    private readonly db: Knex,
    private readonly pubsub: PubSub,
  ) {}

  /**
   * Queues `message` for the device in the caller's write, checked against the shared message
   * schema; once the write commits, the device hub (on whichever node holds the device's
   * connection) is told to deliver it. A config is whole, so a new setConfig replaces the
   * device's earlier ones that were never sent: a device that comes online gets the config it
   * should run, not every config it missed on the way there.
   */
  async enqueue(w: Write, actor: Actor, deviceId: number, message: CloudToDeviceMessage | Record<string, unknown>): Promise<number> {
    const checked = validate(cloudToDeviceMessageSchema, message, 'payload_invalid') as Record<string, unknown> & { type: string };
    w.afterCommit(() => this.pubsub.publish(channels.outbox, { deviceId, type: checked.type }));
    if (checked.type === 'setConfig') {
      await DeviceOutboxModel.query(w.trx).delete().where({ device_id: deviceId, type: 'setConfig' }).whereNull('delivered_at').whereNull('acknowledged_at');
    }
    const row = await DeviceOutboxModel.query(w.trx).insertAndFetch({
      deviceId,
      type: checked.type,
      payload: checked,
      createdByUserId: actor.userId,
      deliveredAt: null,
      attempts: 0,
      acknowledgedAt: null,
    });
    return row.id;
  }

  /** The messages the device has not acknowledged, oldest first (after `afterId` when given). */
  async pending(deviceId: number, limit = 100, afterId = 0): Promise<PendingMessage[]> {
    const rows = await DeviceOutboxModel.query(this.db)
      .where('device_id', deviceId)
      .whereNull('acknowledged_at')
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit);
    return rows.map(({ id, type, payload, createdAt }) => ({ id, type, payload, createdAt }));
  }

  /**
   * pending for several devices at once (the handshakes of a reconnect storm): one query, each
   * device's messages read as pending reads them. Answers one list per request, in order.
   */
  async pendingMany(requests: readonly { deviceId: number; limit: number; afterId: number }[]): Promise<PendingMessage[][]> {
    if (requests.length === 0) {
      return [];
    }
    const result = (await this.db.raw(
      `select q.n, o.id, o.type, o.payload, o.created_at
       from json_to_recordset(?::json) as q(n integer, d bigint, a bigint, l integer)
       cross join lateral (
         select id, type, payload, created_at from device_outbox
         where device_id = q.d and acknowledged_at is null and id > q.a
         order by id limit q.l
       ) o
       order by q.n, o.id`,
      [JSON.stringify(requests.map((request, n) => ({ n, d: request.deviceId, a: request.afterId, l: request.limit })))],
    )) as { rows: { n: number; id: string | number; type: string; payload: Record<string, unknown> | string; created_at: Date | string }[] };
    const answers: PendingMessage[][] = requests.map(() => []);
    for (const row of result.rows) {
      answers[row.n]?.push({
        id: Number(row.id),
        type: row.type,
        payload: typeof row.payload === 'string' ? (JSON.parse(row.payload) as Record<string, unknown>) : row.payload,
        createdAt: new Date(row.created_at),
      });
    }
    return answers;
  }

  /** markDelivered for several sends at once: one update; a message sent twice counts two attempts. */
  async markDeliveredMany(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) {
      return;
    }
    const counts = new Map<number, number>();
    for (const id of ids) {
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    await this.db.raw(
      `update device_outbox set delivered_at = ?, attempts = attempts + s.n
       from json_to_recordset(?::json) as s(i bigint, n integer)
       where device_outbox.id = s.i`,
      [new Date(), JSON.stringify([...counts.entries()].map(([i, n]) => ({ i, n })))],
    );
  }

  /** Records that the message was sent to its device once more. */
  async markDelivered(id: number): Promise<void> {
    await this.db('device_outbox')
      .where('id', id)
      .update({ delivered_at: new Date(), attempts: this.db.raw('attempts + 1') });
  }

  /**
   * Marks messages acknowledged by the device; answers how many were still open. Each message
   * delivered for the first time is audited on the device (deviceGatewayMessageToDevice, console.md
   * section 3), in the same transaction, so the device's timeline shows what reached it.
   */
  async acknowledge(deviceId: number, ids: readonly number[]): Promise<number> {
    if (ids.length === 0) {
      return 0;
    }
    return write(this.db, systemActor('device-hub'), async (w) => {
      const acknowledged = (await w
        .trx('device_outbox')
        .update({ acknowledged_at: new Date() })
        .where('device_id', deviceId)
        .whereIn('id', ids)
        .whereNull('acknowledged_at')
        .returning(['id', 'type', 'payload'])) as { id: string | number; type: string; payload: Record<string, unknown> }[];
      if (acknowledged.length === 0) {
        return 0;
      }
      const device = (await w.trx('devices').where('id', deviceId).first('organization_id')) as { organization_id: string | number | null } | undefined;
      for (const message of acknowledged) {
        await w.audit({
          objectType: 'devices',
          objectId: deviceId,
          organizationId: device?.organization_id === null || device?.organization_id === undefined ? null : Number(device.organization_id),
          changeType: 'deviceGatewayMessageToDevice',
          // A config is the device's whole configuration: named, not repeated (the controllerUpdate entry holds its diff).
          diff: [{ type: 'message-to-device', name: message.type, message: message.type === 'setConfig' ? { type: 'setConfig' } : message.payload }],
        });
      }
      return acknowledged.length;
    });
  }
}
