import type { Knex } from 'knex';
import type { DestinationHealth, DestinationState } from '../../../contracts/forwarding';
import { lagOf, positionBefore, streamHead, type StreamPosition } from './forwarding-stream';
import { isoTime } from '../../common/timestamps';

/** A destination's row of message_destination_deliveries. */
export interface DeliveryRow {
  message_destination_id: string | number;
  cursor_tx: string;
  cursor_seq: string | number;
  state: DestinationState;
  paused_reason: string | null;
  paused_at: Date | null;
  lease_owner: string | null;
  lease_until: Date | null;
  delivered_count: string | number;
  last_success_at: Date | null;
  last_error_at: Date | null;
  last_error: string | null;
  failing_since: Date | null;
  failure_count: number;
  next_attempt_at: Date | null;
}

export const deliveryColumns = [
  'message_destination_id',
  'cursor_tx',
  'cursor_seq',
  'state',
  'paused_reason',
  'paused_at',
  'lease_owner',
  'lease_until',
  'delivered_count',
  'last_success_at',
  'last_error_at',
  'last_error',
  'failing_since',
  'failure_count',
  'next_attempt_at',
] as const;

/** What a resume changed, for the audit log. */
export interface Resumed {
  oldState: DestinationState;
  oldPosition: string;
  newPosition: string;
}

const iso = (value: Date | string | null): string | null => (value === null ? null : isoTime(new Date(value)));

export function cursorOf(row: Pick<DeliveryRow, 'cursor_tx' | 'cursor_seq'>): StreamPosition {
  return { tx: String(row.cursor_tx), seq: String(row.cursor_seq) };
}

/**
 * Where each destination's delivery stands (docs/forwarding.md, "Health"): the durable cursor,
 * paused or active, and the health every interface shows. The delivery worker
 * (delivery-worker.ts) moves the cursor; this starts it, reads it and resumes it.
 */
export class DestinationDeliveries {
  constructor(private readonly db: Knex) {}

  /** A new destination starts at the head of the stream: it gets what is stored from now on. */
  async start(trx: Knex.Transaction, destinationId: number): Promise<void> {
    const head = await streamHead(trx);
    await trx.raw(
      `insert into message_destination_deliveries (message_destination_id, cursor_tx, cursor_seq)
       values (?, cast(? as xid8), ?) on conflict (message_destination_id) do nothing`,
      [destinationId, head.tx, head.seq],
    );
  }

  /**
   * Delivery goes on: from where it stopped, or (with `offset`, a position the health shows)
   * from the report numbered `offset` on, in stream order, delivering again what came after it.
   * Clears the failure count and the backoff, so the next attempt is at once.
   */
  async resume(trx: Knex.Transaction, destinationId: number, offset: number | undefined): Promise<Resumed> {
    const row = (await trx('message_destination_deliveries')
      .where('message_destination_id', destinationId)
      .forUpdate()
      .first(...deliveryColumns)) as DeliveryRow | undefined;
    if (!row) {
      throw new Error(`message destination ${destinationId} has no delivery row`);
    }
    const position = offset === undefined ? cursorOf(row) : await positionBefore(trx, offset);
    await trx.raw(
      `update message_destination_deliveries
          set state = 'active', paused_reason = null, paused_at = null, failing_since = null, failure_count = 0,
              next_attempt_at = null, cursor_tx = cast(? as xid8), cursor_seq = ?, updated_at = now()
        where message_destination_id = ?`,
      [position.tx, position.seq, destinationId],
    );
    return { oldState: row.state, oldPosition: String(row.cursor_seq), newPosition: position.seq };
  }

  async rowsOf(db: Knex | Knex.Transaction, destinationIds: readonly number[]): Promise<Map<number, DeliveryRow>> {
    if (destinationIds.length === 0) {
      return new Map();
    }
    const rows = (await db('message_destination_deliveries')
      .whereIn('message_destination_id', destinationIds)
      .select(...deliveryColumns)) as DeliveryRow[];
    return new Map(rows.map((row) => [Number(row.message_destination_id), row]));
  }

  /** The health of each destination, lag included (one bounded count per destination). */
  async healthOf(destinationIds: readonly number[], db: Knex | Knex.Transaction = this.db): Promise<Map<number, DestinationHealth>> {
    const rows = await this.rowsOf(db, destinationIds);
    const now = Date.now();
    const health = new Map<number, DestinationHealth>();
    for (const id of destinationIds) {
      const row = rows.get(id);
      if (!row) {
        continue;
      }
      const lag = await lagOf(db, id, cursorOf(row));
      health.set(id, {
        state: row.state,
        pausedReason: row.paused_reason,
        pausedAt: iso(row.paused_at),
        position: String(row.cursor_seq),
        lagReports: lag.reports,
        lagCountCapped: lag.capped,
        lagSeconds: lag.oldestReceivedAt === null ? 0 : Math.max(0, Math.round((now - lag.oldestReceivedAt.getTime()) / 1000)),
        deliveredCount: Number(row.delivered_count),
        lastSuccessAt: iso(row.last_success_at),
        lastErrorAt: iso(row.last_error_at),
        lastError: row.last_error,
        failingSince: iso(row.failing_since),
        nextAttemptAt: iso(row.next_attempt_at),
      });
    }
    return health;
  }
}
