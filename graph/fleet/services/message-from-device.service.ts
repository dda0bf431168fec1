import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { StoredReport } from '../../../contracts/hub/reports';
import { systemActor } from '../../common/context';
import { write } from '../../common/write';

/** Report types that are messages from the device (console.md section 3: `messageFromDevice`); every other type is a measurement. */
const messageReportTypes = new Set(['error', 'alarm']);

/** One message from a device: a stored `error` or `alarm` report, or an `error` envelope of the gateway protocol. */
interface DeviceMessage {
  deviceId: number;
  /** The diff entry's name: the report type, or `errorEnvelope`. */
  name: string;
  body: unknown;
}

const actor = systemActor('device-hub');
/** Messages waiting for their write; beyond, new ones are dropped and logged (a database away, a gateway flooding errors). */
const pendingMax = 10_000;

/**
 * The `messageFromDevice` audit entries of a device's timeline, monitors on or off: the hub hands
 * it every committed batch of reports (it keeps only the rare `error` and `alarm` reports) and
 * each `error` envelope a gateway sends. Writes run behind, one at a time, each taking every
 * message waiting in one transaction, so the report path never waits on them; a failure is logged.
 */
export class MessageFromDeviceService {
  private chain: Promise<void> = Promise.resolve();
  private pending: DeviceMessage[] = [];
  private dropped = 0;

  constructor(
    private readonly db: Knex,
    private readonly log: Logger,
  ) {}

  /** A committed batch of stored reports: its error and alarm reports are audited. Returns at once. */
  reportsStored(reports: readonly StoredReport[]): void {
    const messages: DeviceMessage[] = [];
    for (const report of reports) {
      if (messageReportTypes.has(report.type)) {
        messages.push({ deviceId: report.deviceId, name: report.type, body: report.body });
      }
    }
    if (messages.length > 0) {
      this.enqueue(messages);
    }
  }

  /** An `error` envelope a gateway sent (a frame of the cloud it could not read or carry out). Returns at once. */
  errorEnvelope(deviceId: number, envelope: { id: string; payload: unknown }): void {
    this.enqueue([
      {
        deviceId,
        name: 'errorEnvelope',
        body: { id: envelope.id, ...(typeof envelope.payload === 'object' && envelope.payload !== null ? envelope.payload : { payload: envelope.payload }) },
      },
    ]);
  }

  /** Waits for the entries queued so far (tests, shutdown). */
  async idle(): Promise<void> {
    let chain: Promise<void>;
    do {
      chain = this.chain;
      await chain;
    } while (chain !== this.chain);
  }

  private enqueue(messages: DeviceMessage[]): void {
    const room = pendingMax - this.pending.length;
    if (messages.length > room) {
      this.dropped += messages.length - Math.max(0, room);
      this.log.warn({ dropped: this.dropped }, 'messages from devices dropped unaudited: too many waiting');
    }
    const scheduled = this.pending.length > 0;
    this.pending.push(...messages.slice(0, Math.max(0, room)));
    if (scheduled || this.pending.length === 0) {
      return;
    }
    this.chain = this.chain.then(async () => {
      const taken = this.pending;
      this.pending = [];
      await this.audit(taken).catch((error: unknown) => this.log.error({ err: error, count: taken.length }, 'auditing messages from devices failed'));
    });
  }

  private async audit(messages: DeviceMessage[]): Promise<void> {
    const deviceIds = [...new Set(messages.map((message) => message.deviceId))];
    await write(this.db, actor, async (w) => {
      const rows = (await w.trx('devices').whereIn('id', deviceIds).select('id', 'organization_id')) as {
        id: string | number;
        organization_id: string | number | null;
      }[];
      const organizations = new Map(rows.map((row) => [Number(row.id), row.organization_id === null ? null : Number(row.organization_id)]));
      for (const message of messages) {
        const organizationId = organizations.get(message.deviceId);
        if (organizationId === undefined) {
          // The device is gone.
          continue;
        }
        await w.audit({
          objectType: 'devices',
          objectId: message.deviceId,
          organizationId,
          changeType: 'messageFromDevice',
          diff: [{ type: 'json', name: message.name, oldValue: null, newValue: message.body }],
        });
      }
    });
  }
}
