import type { Knex } from 'knex';
import { cloudToDeviceMessageSchema, type CloudToDeviceMessage } from '../../../contracts/device';
import { validate } from '../../../contracts/validation';
import type { Actor } from '../../common/context';
import { channels, type PubSub } from '../../common/pubsub';
import type { Write } from '../../common/write';
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
   * connection) is told to deliver it.
   */
  async enqueue(w: Write, actor: Actor, deviceId: number, message: CloudToDeviceMessage | Record<string, unknown>): Promise<number> {
    const checked = validate(cloudToDeviceMessageSchema, message, 'payload_invalid') as Record<string, unknown> & { type: string };
    w.afterCommit(() => this.pubsub.publish(channels.outbox, { deviceId }));
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

  /** Records that the message was sent to its device once more. */
  async markDelivered(id: number): Promise<void> {
    await this.db('device_outbox')
      .where('id', id)
      .update({ delivered_at: new Date(), attempts: this.db.raw('attempts + 1') });
  }

  /** Marks messages acknowledged by the device; answers how many were still open. */
  async acknowledge(deviceId: number, ids: readonly number[]): Promise<number> {
    if (ids.length === 0) {
      return 0;
    }
    return DeviceOutboxModel.query(this.db).patch({ acknowledgedAt: new Date() }).where('device_id', deviceId).whereIn('id', ids).whereNull('acknowledged_at');
  }
}
