import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { GridportError } from '../../../contracts/errors';
import { forwardingLimits, type DestinationKind, type ForwardedMessage } from '../../../contracts/forwarding';
import type { HashIds } from '../../common/hash-ids';
import type { AlarmService } from '../../operations/services/alarm.service';
import type { Deliverer, DelivererFactory } from '../delivery/deliverer';
import { deliverers as builtInDeliverers } from '../delivery';
import { cursorOf, deliveryColumns, type DeliveryRow } from './destination-deliveries';
import type { ForwardingSettings } from './forwarding-settings';
import { comparePositions, lagOf, readStream, type StreamPosition, type StreamReport } from './forwarding-stream';
import type { DestinationForDelivery, MessageDestinationService } from './message-destination.service';
import { forwardedMessageOf, type MessageDevice } from './payload';

/** What the worker needs from outside. */
export interface ForwardingWorkerDependencies {
  db: Knex;
  hashIds: HashIds;
  /** Where a destination's settings come from, secrets opened. */
  destinations: Pick<MessageDestinationService, 'settingsForDelivery'>;
  alarms: AlarmService;
  settings: ForwardingSettings;
  log: Logger;
  /** This node's id (hub_nodes): a lease whose node is gone is free at once. */
  nodeId: string;
  /** The deliverer of each kind; the built-in ones without it. */
  deliverers?: { [K in DestinationKind]?: DelivererFactory<K> };
}

/** How long a destination's lease holds without renewal (a node that stops renewing loses it; a dead node's sooner, see claim). */
const leaseSeconds = 120;
/** How often a working destination looks at its lag for its monitor. */
const lagCheckMs = 30_000;
/** How long what a message says of a device (name, identifier, assets) is used before it is read again. */
const deviceInfoMs = 10_000;
/** At most this many devices' details are kept in memory. */
const deviceInfoKept = 50_000;

type DestinationRow = DestinationForDelivery & { id: number };

interface Cached {
  updatedAt: number;
  deliverer: Deliverer;
}

type Step = 'delivered' | 'idle' | 'failed' | 'lost' | 'gone';

/** An error as staff read it on the destination: its message, without a stack, at most 2,000 characters. */
function describeError(error: unknown): string {
  if (error instanceof GridportError) {
    const details = (error.details as { message?: string }[] | undefined)?.map((issue) => issue.message).join('; ');
    return `${error.key}: ${details || error.message}`.slice(0, 2000);
  }
  const message = error instanceof Error ? error.message || error.name : String(error);
  return message.slice(0, 2000);
}

/**
 * Delivers the stream to every active message destination (docs/forwarding.md, "Delivery").
 * Each node claims destinations with a lease (FOR UPDATE SKIP LOCKED), so one node delivers to
 * a destination at a time and more nodes share more destinations; a lease of a node whose
 * hub_nodes lease ran out (a crash) is free at once. For a claimed destination the worker reads
 * a batch after the durable cursor, delivers it, and moves the cursor only once the peer took
 * the batch, in one statement guarded by the lease: at least once, in order per device. A
 * failure backs off (doubling, at most a minute) and one that lasts `pauseAfterSeconds` pauses
 * the destination, raises its `destination.paused` alarm and mails its outage contacts.
 */
export class ForwardingWorker {
  private readonly running = new Map<number, Promise<void>>();
  private readonly cache = new Map<number, Cached>();
  /** The last time each destination's lag was checked for its monitor. */
  private readonly lagCheckedAt = new Map<number, number>();
  /** minIntervalSeconds: when each (destination, device, asset, type) was last forwarded. */
  private readonly lastForwarded = new Map<string, number>();
  /** Each device's name, identifier and assets as messages give them, and when they were read (devicesOf). */
  private readonly deviceInfo = new Map<number, { device: MessageDevice; readAt: number }>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private stopping = false;
  private claiming: Promise<void> = Promise.resolve();
  private readonly deliverers: { [K in DestinationKind]?: DelivererFactory<K> };

  constructor(private readonly deps: ForwardingWorkerDependencies) {
    this.deliverers = { ...builtInDeliverers, ...deps.deliverers };
  }

  start(): void {
    if (this.deps.settings.concurrency === 0 || this.timer) {
      return;
    }
    this.stopping = false;
    const loop = (): void => {
      this.ticking = this.tick()
        .catch((error: unknown) => this.deps.log.error({ err: error }, 'forwarding: a round failed'))
        .finally(() => {
          this.ticking = null;
          if (!this.stopping) {
            this.timer = setTimeout(loop, this.deps.settings.pollMs);
          }
        });
    };
    this.timer = setTimeout(loop, 0);
  }

  /** Stops claiming, lets the batches in flight finish, hands the leases back and closes every connection. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    await this.ticking;
    await Promise.all([...this.running.values()]);
    await Promise.all([...this.cache.values()].map(({ deliverer }) => deliverer.close().catch(() => undefined)));
    this.cache.clear();
  }

  /** One round: claims what is free and due, and delivers to each claimed destination until it has nothing left (tests call it directly). */
  async tick(): Promise<void> {
    // One claim at a time on a node: two at once could both take a destination this node holds.
    const previous = this.claiming;
    const claiming = previous.then(async () => {
      const room = this.deps.settings.concurrency - this.running.size;
      if (room <= 0 || this.stopping) {
        return;
      }
      for (const id of await this.claim(room)) {
        if (this.running.has(id)) {
          continue;
        }
        const work = this.work(id).finally(() => this.running.delete(id));
        this.running.set(id, work);
      }
    });
    this.claiming = claiming.catch(() => undefined);
    await claiming;
  }

  /** Waits until every claimed destination is idle (tests). */
  async settled(): Promise<void> {
    while (this.running.size > 0 || this.ticking) {
      await Promise.all([...this.running.values(), this.ticking]);
    }
  }

  private async claim(limit: number): Promise<number[]> {
    const mine = [...this.running.keys()];
    const result = (await this.deps.db.raw(
      `update message_destination_deliveries set lease_owner = ?, lease_until = now() + make_interval(secs => ?)
        where message_destination_id in (
          select message_destination_id from message_destination_deliveries
           where state = 'active'
             and (next_attempt_at is null or next_attempt_at <= now())
             and (lease_owner is null or lease_owner = ? or lease_until < now()
                  or not exists (select 1 from hub_nodes n where n.id = lease_owner and n.lease_expires_at > now()))
             and not (message_destination_id = any(?))
           order by next_attempt_at nulls first, message_destination_id
           limit ?
           for update skip locked)
        returning message_destination_id`,
      [this.deps.nodeId, leaseSeconds, this.deps.nodeId, mine, limit],
    )) as { rows: { message_destination_id: string | number }[] };
    return result.rows.map((row) => Number(row.message_destination_id));
  }

  private async work(id: number): Promise<void> {
    try {
      for (;;) {
        const step = await this.step(id);
        if (step !== 'delivered' || this.stopping) {
          if (step === 'idle' || step === 'delivered') {
            await this.release(id);
          }
          return;
        }
      }
    } catch (error) {
      this.deps.log.error({ err: error, destination: id }, 'forwarding: delivery round failed');
      await this.release(id).catch(() => undefined);
    }
  }

  private async release(id: number): Promise<void> {
    await this.deps
      .db('message_destination_deliveries')
      .where({ message_destination_id: id, lease_owner: this.deps.nodeId })
      .update({ lease_owner: null, lease_until: null });
  }

  /** One batch for one destination. */
  private async step(id: number): Promise<Step> {
    const { db } = this.deps;
    const delivery = (await db('message_destination_deliveries')
      .where({ message_destination_id: id, lease_owner: this.deps.nodeId, state: 'active' })
      .first(...deliveryColumns)) as DeliveryRow | undefined;
    if (!delivery) {
      return 'lost';
    }
    const destination = await this.destination(id);
    if (!destination) {
      return 'gone';
    }
    const cursor = cursorOf(delivery);
    const read = await readStream(db, id, cursor);
    await this.watchLag(destination, cursor);
    if (read.reports.length === 0) {
      if (comparePositions(read.next, cursor) !== 0) {
        // Past reports this destination does not take: the cursor moves, nothing is delivered.
        return (await this.advance(id, read.next, 0)) ? 'delivered' : 'lost';
      }
      return 'idle';
    }
    const messages = this.thin(id, await this.messagesOf(read.reports));
    try {
      if (messages.length > 0) {
        const deliverer = await this.delivererOf(destination);
        await deliverer.deliver(messages);
      }
    } catch (error) {
      await this.failed(destination, error);
      return 'failed';
    }
    return (await this.advance(id, read.next, messages.length)) ? 'delivered' : 'lost';
  }

  /** The batch delivered: the cursor moves past it, under this node's lease (a node that lost its lease changes nothing). */
  private async advance(id: number, next: StreamPosition, delivered: number): Promise<boolean> {
    const result = (await this.deps.db.raw(
      `update message_destination_deliveries
          set cursor_tx = cast(? as xid8), cursor_seq = ?, delivered_count = delivered_count + ?,
              last_success_at = case when ? > 0 then now() else last_success_at end,
              failing_since = null, failure_count = 0, next_attempt_at = null,
              lease_until = now() + make_interval(secs => ?), updated_at = now()
        where message_destination_id = ? and lease_owner = ? and state = 'active'
        returning message_destination_id`,
      [next.tx, next.seq, delivered, delivered, leaseSeconds, id, this.deps.nodeId],
    )) as { rows: unknown[] };
    return result.rows.length > 0;
  }

  /** A failed delivery: backoff, and a pause (with its alarm and mail) once it has failed for pauseAfterSeconds. */
  private async failed(destination: DestinationRow, error: unknown): Promise<void> {
    const message = describeError(error);
    this.deps.log.warn({ destination: destination.id, type: destination.type, error: message }, 'forwarding: delivery failed');
    await this.drop(destination.id);
    const result = (await this.deps.db.raw(
      `update message_destination_deliveries
          set failure_count = failure_count + 1, failing_since = coalesce(failing_since, now()),
              last_error = ?, last_error_at = now(),
              next_attempt_at = now() + make_interval(secs => least(? * power(2, least(failure_count, 20)), ?) / 1000.0),
              state = case when coalesce(failing_since, now()) <= now() - make_interval(secs => ?) then 'paused' else state end,
              paused_reason = case when coalesce(failing_since, now()) <= now() - make_interval(secs => ?) then 'failing' else paused_reason end,
              paused_at = case when coalesce(failing_since, now()) <= now() - make_interval(secs => ?) then now() else paused_at end,
              lease_owner = null, lease_until = null, updated_at = now()
        where message_destination_id = ? and lease_owner = ?
        returning state`,
      [
        message,
        forwardingLimits.backoffFirstMs,
        forwardingLimits.backoffMaxMs,
        this.deps.settings.pauseAfterSeconds,
        this.deps.settings.pauseAfterSeconds,
        this.deps.settings.pauseAfterSeconds,
        destination.id,
        this.deps.nodeId,
      ],
    )) as { rows: { state: string }[] };
    if (result.rows[0]?.state === 'paused') {
      this.deps.log.warn({ destination: destination.id }, 'forwarding: destination paused after failing');
      await this.deps.alarms.fireDestination(destination.id, 'destination.paused', { lastError: message });
    }
  }

  /** The destination's lag monitor (monitorSettings.maxLagSeconds), looked at every lagCheckMs while it is worked on. */
  private async watchLag(destination: DestinationRow, cursor: StreamPosition): Promise<void> {
    const maxLagSeconds = destination.monitorSettings.maxLagSeconds;
    if (typeof maxLagSeconds !== 'number') {
      return;
    }
    const now = Date.now();
    if (now - (this.lagCheckedAt.get(destination.id) ?? 0) < lagCheckMs) {
      return;
    }
    this.lagCheckedAt.set(destination.id, now);
    const lag = await lagOf(this.deps.db, destination.id, cursor);
    const seconds = lag.oldestReceivedAt === null ? 0 : (now - lag.oldestReceivedAt.getTime()) / 1000;
    if (seconds > maxLagSeconds) {
      await this.deps.alarms.fireDestination(destination.id, 'destination.lag', { lagSeconds: Math.round(seconds), lagReports: lag.reports });
    } else {
      await this.deps.alarms.clearDestination(destination.id, 'destination.lag');
    }
  }

  private async destination(id: number): Promise<DestinationRow | null> {
    const destination = await this.deps.destinations.settingsForDelivery(id);
    return destination ? { ...destination, id } : null;
  }

  /** The destination's deliverer, made again when its settings changed. */
  private async delivererOf(destination: DestinationRow): Promise<Deliverer> {
    const updatedAt = destination.updatedAt.getTime();
    const cached = this.cache.get(destination.id);
    if (cached && cached.updatedAt === updatedAt) {
      return cached.deliverer;
    }
    await this.drop(destination.id);
    const factory = this.deliverers[destination.type] as DelivererFactory<DestinationKind> | undefined;
    if (!factory) {
      throw new Error(`no deliverer for ${destination.type}`);
    }
    const deliverer = factory(destination.settings as never, {
      destinationHashId: this.deps.hashIds.encode('messageDestination', destination.id),
      policy: { allowPrivateNetworks: this.deps.settings.allowPrivateNetworks },
      log: this.deps.log.child({ destination: destination.id, type: destination.type }),
    });
    this.cache.set(destination.id, { updatedAt, deliverer });
    return deliverer;
  }

  private async drop(id: number): Promise<void> {
    const cached = this.cache.get(id);
    this.cache.delete(id);
    await cached?.deliverer.close().catch(() => undefined);
  }

  /** The reports as messages, with their devices' names and assets read once per batch. */
  private async messagesOf(reports: readonly StreamReport[]): Promise<{ message: ForwardedMessage; report: StreamReport }[]> {
    const byId = await this.devicesOf([...new Set(reports.map((report) => report.deviceId))]);
    const messages: { message: ForwardedMessage; report: StreamReport }[] = [];
    for (const report of reports) {
      const device = byId.get(report.deviceId);
      const message = device ? forwardedMessageOf(report, device) : null;
      if (message) {
        messages.push({ message, report });
      }
    }
    return messages;
  }

  /**
   * What a message says of each device (name, identifier, assets), read at most every
   * deviceInfoMs per device: under a steady stream a batch's devices were mostly read moments
   * ago, and two queries per batch of 500 are the larger part of a batch's time.
   */
  private async devicesOf(deviceIds: readonly number[]): Promise<Map<number, MessageDevice>> {
    const now = Date.now();
    const byId = new Map<number, MessageDevice>();
    const stale: number[] = [];
    for (const id of deviceIds) {
      const known = this.deviceInfo.get(id);
      if (known && now - known.readAt < deviceInfoMs) {
        byId.set(id, known.device);
      } else {
        stale.push(id);
      }
    }
    if (stale.length === 0) {
      return byId;
    }
    const devices = (await this.deps.db('devices').whereIn('id', stale).select('id', 'name', 'identifier')) as {
      id: string | number;
      name: string;
      identifier: string | null;
    }[];
    const components = (await this.deps
      .db('device_components')
      .whereIn('device_id', stale)
      .where('kind', 'asset')
      .select('device_id', 'index', 'identifier', 'type')) as { device_id: string | number; index: number; identifier: string | null; type: string | null }[];
    // Each device's assets by index, grouped in one pass (a batch holds up to 500 devices of many assets each).
    const assetsOf = new Map<number, Map<number, { identifier: string | null; type: string | null }>>();
    for (const component of components) {
      const id = Number(component.device_id);
      const assets = assetsOf.get(id) ?? new Map<number, { identifier: string | null; type: string | null }>();
      assets.set(component.index, { identifier: component.identifier, type: component.type });
      assetsOf.set(id, assets);
    }
    if (this.deviceInfo.size + devices.length > deviceInfoKept) {
      this.deviceInfo.clear();
    }
    for (const row of devices) {
      const id = Number(row.id);
      const device: MessageDevice = {
        hashId: this.deps.hashIds.encode('device', id),
        name: row.name,
        identifier: row.identifier,
        assets: assetsOf.get(id) ?? new Map(),
      };
      this.deviceInfo.set(id, { device, readAt: now });
      byId.set(id, device);
    }
    return byId;
  }

  /** minIntervalSeconds of the group forwarding: at most one message per device, asset and type in that many seconds. */
  private thin(destinationId: number, messages: readonly { message: ForwardedMessage; report: StreamReport }[]): ForwardedMessage[] {
    const kept: ForwardedMessage[] = [];
    for (const { message, report } of messages) {
      const interval = Number(report.forwardingSettings.minIntervalSeconds ?? 0);
      if (interval > 0) {
        const key = `${destinationId}/${report.deviceId}/${report.assetIndex ?? ''}/${report.type}`;
        const at = report.at.getTime();
        const last = this.lastForwarded.get(key);
        if (last !== undefined && at - last < interval * 1000 && at >= last) {
          continue;
        }
        this.lastForwarded.set(key, at);
      }
      kept.push(message);
    }
    return kept;
  }
}
