import type { Knex } from 'knex';
import type { Logger } from 'pino';
import {
  isMonitorKind,
  issueTitleOf,
  monitorEnabled,
  monitorKinds,
  monitorSettingsOf,
  monitorWindows,
  type DestinationMonitorKind,
  type MonitorKind,
} from '../../../contracts/monitors';
import { systemActor } from '../../common/context';
import { write, type Write } from '../../common/write';
import type { IdentityDirectory } from '../../identity/services/directory.service';
import { AlarmModel, type CustomerMessage } from '../models/alarm.model';
import { IssueModel } from '../models/issue.model';
import type { IssueJournal } from './issue-journal';
import type { MailService } from './mail.service';
import { alarmApplies, monitorSubjectsOf } from './monitor-subjects';

/** What one alarm is about: a monitor kind on a device, for one asset (or control loop) or the device as a whole. */
export interface AlarmKey {
  monitor: MonitorKind;
  deviceId: number;
  /** The asset's (or control loop's) identifier; null for the device as a whole. */
  assetIdentifier: string | null;
}

/** Recovery time and the like (ALARM_RECOVERY_SECONDS; docs/operations.md, "Monitors and alarms"). */
export interface AlarmSettings {
  /** An alarm whose condition stayed clear this long closes. */
  recoverySeconds: number;
}

export type FireOutcome = 'opened' | 'open' | 'resumed' | 'disabled' | 'gone';

const actor = systemActor('monitors');

interface DestinationRow {
  id: number;
  name: string;
  organization_id: number;
  monitor_settings: unknown;
  outage_emails: unknown;
  outage_user_ids: unknown;
}

interface DeviceRow {
  id: number;
  name: string;
  organization_id: number | null;
  device_group_id: number | null;
  monitor_settings: unknown;
  outage_emails: unknown;
  outage_user_ids: unknown;
}

const asNumbers = (value: unknown): number[] => (Array.isArray(value) ? value.map(Number).filter((n) => Number.isInteger(n)) : []);
const asStrings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string') : []);

/**
 * Alarms and the issues they make (spec README, "Alarms" and "Issues from alarms"): the one
 * writer of alarms. A monitor that fires opens one alarm per (kind, device, asset); when its
 * condition clears the alarm is recovering, and it closes after `recoverySeconds` clear. An
 * alarm joins the device's open monitoring issue or opens one; an auto-closing issue resolves
 * itself once all its alarms are closed and reopens (canReopen) on an alarm within 24 hours.
 * Every change is a `monitoring` message on the issue's timeline and a
 * `deviceGatewayMonitoring` audit entry on the device. Writes lock the device row first, so
 * evaluators on several nodes never open two alarms or two issues for one device; the unique
 * index on open alarms stands behind that.
 */
export class AlarmService {
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly db: Knex,
    private readonly journal: IssueJournal,
    private readonly mail: MailService,
    private readonly directory: IdentityDirectory,
    private readonly settings: AlarmSettings,
    private readonly log: Logger,
  ) {}

  /** The monitor's condition holds: opens the alarm (and its issue and customer message), or keeps the open one firing. */
  async fire(key: AlarmKey, details: Record<string, unknown> = {}): Promise<FireOutcome> {
    const outcome = await write(this.db, actor, async (w) => {
      const device = await this.lockDevice(w, key.deviceId);
      if (!device) {
        return { outcome: 'gone' as const };
      }
      if (!monitorEnabled(monitorSettingsOf(device.monitor_settings), key.monitor)) {
        return { outcome: 'disabled' as const };
      }
      const open = await this.openAlarm(w.trx, key);
      if (open) {
        if (open.recoveringSince === null) {
          return { outcome: 'open' as const };
        }
        await AlarmModel.query(w.trx).patch({ recoveringSince: null, details }).where('id', open.id);
        await this.record(w, device, open.issueId, `**${issueTitleOf(key.monitor)}** (${describe(key)}) fired again while recovering.`, key, 'firing');
        return { outcome: 'resumed' as const };
      }
      const customerMessage = await this.customerMessageOf(w.trx, device, key);
      const inserted = (await w.trx.raw(
        `insert into alarms (monitor, device_id, asset_identifier, customer_message, details)
         values (?, ?, ?, ?::jsonb, ?::jsonb)
         on conflict (monitor, coalesce(device_id, 0), coalesce(destination_id, 0), coalesce(asset_identifier, '')) where closed_at is null do nothing
         returning id`,
        [key.monitor, key.deviceId, key.assetIdentifier, JSON.stringify(customerMessage), JSON.stringify(details)],
      )) as { rows: { id: string | number }[] };
      const id = inserted.rows[0]?.id;
      if (id === undefined) {
        // Another evaluator opened it first (the device lock makes this rare; the index makes it harmless).
        return { outcome: 'open' as const };
      }
      const issueId = await this.issueFor(w, device, key.monitor);
      await AlarmModel.query(w.trx).patch({ issueId }).where('id', Number(id));
      await this.record(w, device, issueId, `Alarm **${issueTitleOf(key.monitor)}** (${describe(key)}) opened.`, key, 'opened');
      return { outcome: 'opened' as const, alarmId: Number(id), customerMessage };
    });
    if (outcome.outcome === 'opened' && outcome.customerMessage.to.length > 0) {
      // Mailed behind the alarm, so a slow mail server never holds up the monitors; the sweep mails what a stop left unsent.
      const sending = this.sendCustomerMessage(outcome.alarmId)
        .then(() => undefined)
        .catch((error: unknown) => this.log.error({ err: error, alarm: outcome.alarmId }, 'monitors: the customer message failed'));
      this.sending.add(sending);
      void sending.finally(() => this.sending.delete(sending));
    }
    return outcome.outcome;
  }

  /** Waits for the customer messages being mailed (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.all([...this.sending]);
  }

  /** The monitor's condition no longer holds: the open alarm starts recovering. Answers whether one did. */
  async clear(key: AlarmKey): Promise<boolean> {
    return write(this.db, actor, async (w) => {
      const device = await this.lockDevice(w, key.deviceId);
      if (!device) {
        return false;
      }
      const open = await this.openAlarm(w.trx, key);
      if (!open || open.recoveringSince !== null) {
        return false;
      }
      await AlarmModel.query(w.trx).patch({ recoveringSince: new Date() }).where('id', open.id);
      await this.record(
        w,
        device,
        open.issueId,
        `**${issueTitleOf(key.monitor)}** (${describe(key)}) cleared; the alarm closes if it stays clear.`,
        key,
        'recovering',
      );
      return true;
    });
  }

  /**
   * A message destination's monitor fires (forwarding: paused, lagging): one open alarm per
   * (kind, destination), on an issue of the destination's organisation that the alarm opens or
   * joins (the open monitoring issue of the destination's alarms), a `deviceGatewayMonitoring`
   * audit entry on the destination, and a message to its outage contacts.
   */
  async fireDestination(destinationId: number, monitor: DestinationMonitorKind, details: Record<string, unknown> = {}): Promise<FireOutcome> {
    const outcome = await write(this.db, actor, async (w) => {
      const destination = await this.lockDestination(w, destinationId);
      if (!destination) {
        return { outcome: 'gone' as const };
      }
      const settings = (destination.monitor_settings ?? {}) as { enabled?: unknown };
      if (settings.enabled === false) {
        return { outcome: 'disabled' as const };
      }
      const open = await this.openDestinationAlarm(w.trx, destinationId, monitor);
      if (open) {
        if (open.recoveringSince === null) {
          return { outcome: 'open' as const };
        }
        await AlarmModel.query(w.trx).patch({ recoveringSince: null, details }).where('id', open.id);
        await this.recordDestination(
          w,
          destination,
          open.issueId,
          `**${issueTitleOf(monitor)}** (\`${monitor}\`) fired again while recovering.`,
          monitor,
          'firing',
        );
        return { outcome: 'resumed' as const };
      }
      const customerMessage = await this.destinationMessageOf(w.trx, destination, monitor, details);
      const inserted = (await w.trx.raw(
        `insert into alarms (monitor, destination_id, customer_message, details)
         values (?, ?, ?::jsonb, ?::jsonb)
         on conflict (monitor, coalesce(device_id, 0), coalesce(destination_id, 0), coalesce(asset_identifier, '')) where closed_at is null do nothing
         returning id`,
        [monitor, destinationId, JSON.stringify(customerMessage), JSON.stringify(details)],
      )) as { rows: { id: string | number }[] };
      const id = inserted.rows[0]?.id;
      if (id === undefined) {
        return { outcome: 'open' as const };
      }
      const issueId = await this.destinationIssueFor(w, destination, monitor);
      await AlarmModel.query(w.trx).patch({ issueId }).where('id', Number(id));
      await this.recordDestination(w, destination, issueId, `Alarm **${issueTitleOf(monitor)}** (\`${monitor}\`) opened.`, monitor, 'opened');
      return { outcome: 'opened' as const, alarmId: Number(id), customerMessage };
    });
    if (outcome.outcome === 'opened' && outcome.customerMessage.to.length > 0) {
      const sending = this.sendCustomerMessage(outcome.alarmId)
        .then(() => undefined)
        .catch((error: unknown) => this.log.error({ err: error, alarm: outcome.alarmId }, 'forwarding: the outage message failed'));
      this.sending.add(sending);
      void sending.finally(() => this.sending.delete(sending));
    }
    return outcome.outcome;
  }

  /** The destination's monitor condition no longer holds: its open alarm starts recovering (and closes after the recovery time). */
  async clearDestination(destinationId: number, monitor: DestinationMonitorKind): Promise<boolean> {
    return write(this.db, actor, async (w) => {
      const destination = await this.lockDestination(w, destinationId);
      if (!destination) {
        return false;
      }
      const open = await this.openDestinationAlarm(w.trx, destinationId, monitor);
      if (!open || open.recoveringSince !== null) {
        return false;
      }
      await AlarmModel.query(w.trx).patch({ recoveringSince: new Date() }).where('id', open.id);
      await this.recordDestination(
        w,
        destination,
        open.issueId,
        `**${issueTitleOf(monitor)}** (\`${monitor}\`) cleared; the alarm closes if it stays clear.`,
        monitor,
        'recovering',
      );
      return true;
    });
  }

  private async lockDestination(w: Write, destinationId: number): Promise<DestinationRow | null> {
    const row = (await w
      .trx('message_destinations')
      .where('id', destinationId)
      .forUpdate()
      .first('id', 'name', 'organization_id', 'monitor_settings', 'outage_emails', 'outage_user_ids')) as DestinationRow | undefined;
    return row ? { ...row, id: Number(row.id), organization_id: Number(row.organization_id) } : null;
  }

  private async openDestinationAlarm(trx: Knex.Transaction, destinationId: number, monitor: DestinationMonitorKind): Promise<AlarmModel | undefined> {
    return AlarmModel.query(trx).where({ monitor, destination_id: destinationId }).whereNull('device_id').whereNull('closed_at').first();
  }

  /** The open issue of the destination's alarms, or a new one. */
  private async destinationIssueFor(w: Write, destination: DestinationRow, monitor: DestinationMonitorKind): Promise<number> {
    const open = (await w
      .trx('alarms as a')
      .join('issues as i', 'i.id', 'a.issue_id')
      .where('a.destination_id', destination.id)
      .whereNull('i.closed_at')
      .orderBy('i.id', 'desc')
      .first('i.id')) as { id: string | number } | undefined;
    if (open) {
      return Number(open.id);
    }
    const issue = await this.journal.open(w, {
      title: `${issueTitleOf(monitor)}: ${destination.name}`.slice(0, 256),
      source: 'monitoring',
      organizationId: destination.organization_id,
      deviceId: null,
      autoClose: true,
      canReopen: true,
      gridportIssueOwner: true,
    });
    return issue.id;
  }

  private async recordDestination(
    w: Write,
    destination: { id: number; organization_id: number | null },
    issueId: number | null,
    message: string,
    monitor: MonitorKind,
    state: 'opened' | 'firing' | 'recovering' | 'closed',
  ): Promise<void> {
    await w.audit({
      objectType: 'message_destinations',
      objectId: destination.id,
      organizationId: destination.organization_id,
      changeType: 'deviceGatewayMonitoring',
      diff: [
        { type: 'string', name: 'monitor', oldValue: null, newValue: monitor },
        { type: 'string', name: 'alarm', oldValue: null, newValue: state },
      ],
    });
    if (issueId !== null) {
      await this.journal.addMessage(w, issueId, { source: 'monitoring', message });
    }
  }

  /** To: the destination's outage emails and outage users. */
  private async destinationMessageOf(
    trx: Knex.Transaction,
    destination: DestinationRow,
    monitor: DestinationMonitorKind,
    details: Record<string, unknown>,
  ): Promise<CustomerMessage> {
    const users = await this.directory.users(trx, asNumbers(destination.outage_user_ids));
    const emails = [...asStrings(destination.outage_emails), ...[...users.values()].map((user) => user.email)];
    const seen = new Set<string>();
    const to = emails.filter((email) => !seen.has(email.toLowerCase()) && seen.add(email.toLowerCase()));
    const why = typeof details.lastError === 'string' ? `\n\nThe last error: ${details.lastError}` : '';
    const what =
      monitor === 'destination.paused'
        ? 'Gridport could not deliver to it for a while and paused it: nothing is lost, the reports wait and are delivered from where it stopped once it is resumed.'
        : 'Reports wait longer to reach it than its monitor allows.';
    const markdown = [`# ${issueTitleOf(monitor)}`, '', `Your message destination **${destination.name}**: ${what}${why}`].join('\n');
    return { to, markdown };
  }

  /**
   * The open alarms of each of some devices, in one query (for an evaluator that takes devices
   * up, after a restart): every device asked for has an entry, empty when none is open.
   */
  async openAlarmsOfMany(deviceIds: readonly number[]): Promise<Map<number, AlarmModel[]>> {
    const open = new Map<number, AlarmModel[]>(deviceIds.map((deviceId) => [deviceId, []]));
    if (deviceIds.length === 0) {
      return open;
    }
    const alarms = await AlarmModel.query(this.db)
      .whereIn('device_id', [...new Set(deviceIds)])
      .whereNull('closed_at')
      .orderBy('id');
    for (const alarm of alarms) {
      if (alarm.deviceId !== null) {
        open.get(Number(alarm.deviceId))?.push(alarm);
      }
    }
    return open;
  }

  /** Open alarms of some kinds across the fleet, not recovering (for the sweep's time-based clears). */
  async firingOf(monitors: readonly MonitorKind[], limit = 1000): Promise<AlarmModel[]> {
    return AlarmModel.query(this.db)
      .whereIn('monitor', monitors)
      .whereNull('closed_at')
      .whereNull('recovering_since')
      .whereNotNull('device_id')
      .orderBy('id')
      .limit(limit);
  }

  /**
   * Closes alarms recovered for `recoverySeconds`, and at once those whose monitor the device's
   * settings turned off; then resolves auto-closing issues left without an open alarm. Rows are
   * taken with FOR UPDATE SKIP LOCKED, so sweeps on several nodes share the work. Answers how
   * many alarms closed.
   */
  async closeRecovered(limit = 200): Promise<number> {
    return write(this.db, actor, async (w) => {
      const due = (await w.trx.raw(
        `select a.id, a.monitor, a.device_id, a.destination_id, a.asset_identifier, a.issue_id, a.recovering_since,
                d.monitor_settings, coalesce(d.organization_id, m.organization_id) as organization_id, coalesce(d.name, m.name) as name
           from alarms a left join devices d on d.id = a.device_id left join message_destinations m on m.id = a.destination_id
          where a.closed_at is null and (a.recovering_since <= now() - make_interval(secs => ?) or d.monitor_settings->'disabledMonitors' is not null)
          order by a.id limit ? for update of a skip locked`,
        [this.settings.recoverySeconds, limit],
      )) as {
        rows: {
          id: string | number;
          monitor: MonitorKind;
          device_id: string | number | null;
          destination_id: string | number | null;
          asset_identifier: string | null;
          issue_id: string | number | null;
          recovering_since: Date | null;
          monitor_settings: unknown;
          organization_id: string | number | null;
          name: string | null;
        }[];
      };
      let closed = 0;
      const issues = new Set<number>();
      for (const row of due.rows) {
        const recovered = row.recovering_since !== null && row.recovering_since.getTime() <= Date.now() - this.settings.recoverySeconds * 1000;
        const disabled = !monitorEnabled(monitorSettingsOf(row.monitor_settings), row.monitor);
        if (!recovered && !disabled) {
          continue;
        }
        await AlarmModel.query(w.trx).patch({ closedAt: new Date() }).where('id', Number(row.id));
        closed += 1;
        const key = { monitor: row.monitor, deviceId: Number(row.device_id), assetIdentifier: row.asset_identifier };
        const issueId = row.issue_id === null ? null : Number(row.issue_id);
        const device = { id: Number(row.device_id), organization_id: row.organization_id === null ? null : Number(row.organization_id), name: row.name ?? '' };
        const why = disabled ? 'its monitor was turned off' : `clear for ${this.settings.recoverySeconds} s`;
        const closedMessage = `Alarm **${issueTitleOf(row.monitor)}** (${describe(key)}) closed: ${why}.`;
        if (row.destination_id !== null) {
          await this.recordDestination(
            w,
            { id: Number(row.destination_id), organization_id: device.organization_id },
            issueId,
            closedMessage,
            row.monitor,
            'closed',
          );
        } else {
          await this.record(w, device, issueId, closedMessage, key, 'closed');
        }
        if (issueId !== null) {
          issues.add(issueId);
        }
      }
      for (const issueId of issues) {
        await this.autoClose(w, issueId);
      }
      return closed;
    });
  }

  /**
   * A device's saved config changed (called in the device service's write, the device row
   * locked): its open alarms of an asset or control loop the new config no longer has, or of a
   * kind that no longer applies to it (a battery alarm on an asset that is now a meter), close at
   * once, and their auto-closing issues resolve themselves. The evaluator names an alarm's asset
   * from the saved config, so no report could ever clear such an alarm. Answers how many closed.
   */
  async closeWithoutSubject(w: Write, device: { id: number; organizationId: number | null }, config: unknown): Promise<number> {
    const subjects = monitorSubjectsOf(config);
    const open = await AlarmModel.query(w.trx).where('device_id', device.id).whereNull('closed_at').orderBy('id');
    const issues = new Set<number>();
    let closed = 0;
    for (const alarm of open) {
      if (!isMonitorKind(alarm.monitor) || alarmApplies(alarm.monitor, alarm.assetIdentifier, subjects)) {
        continue;
      }
      await AlarmModel.query(w.trx).patch({ closedAt: new Date() }).where('id', alarm.id);
      closed += 1;
      const key = { monitor: alarm.monitor, deviceId: device.id, assetIdentifier: alarm.assetIdentifier };
      const noun = monitorKinds[alarm.monitor].subject === 'asset' ? 'asset' : 'control loop';
      const what = alarm.assetIdentifier === null ? `a ${noun}` : `${noun} ${alarm.assetIdentifier}`;
      await this.record(
        w,
        { id: device.id, organization_id: device.organizationId },
        alarm.issueId === null ? null : Number(alarm.issueId),
        `Alarm **${issueTitleOf(alarm.monitor)}** (${describe(key)}) closed: the device's config no longer has ${what} that this monitor watches.`,
        key,
        'closed',
      );
      if (alarm.issueId !== null) {
        issues.add(Number(alarm.issueId));
      }
    }
    for (const issueId of issues) {
      await this.autoClose(w, issueId);
    }
    return closed;
  }

  /** Resolves an auto-closing, open issue that has no open alarm left. */
  private async autoClose(w: Write, issueId: number): Promise<void> {
    const issue = await IssueModel.query(w.trx).findById(issueId).forUpdate();
    if (!issue || !issue.autoClose || issue.closedAt !== null) {
      return;
    }
    const open = await AlarmModel.query(w.trx).where('issue_id', issueId).whereNull('closed_at').resultSize();
    if (open > 0) {
      return;
    }
    await IssueModel.query(w.trx).patch({ closedAt: new Date(), closedAutomatically: true }).where('id', issueId);
    await w.audit({
      objectType: 'issues',
      objectId: issueId,
      organizationId: issue.organizationId,
      changeType: 'deviceGatewayMonitoring',
      diff: [{ type: 'date', name: 'closedAt', oldValue: null, newValue: new Date().toISOString() }],
    });
    await this.journal.addMessage(w, issueId, { source: 'monitoring', message: 'All alarms closed: the issue resolved itself.' });
  }

  /**
   * Mails an alarm's customer message, once: the alarm is claimed by setting
   * customerMessageSentAt before the mail goes (a crash between the two loses the mail rather
   * than sending it twice). Answers whether it sent.
   */
  async sendCustomerMessage(alarmId: number): Promise<boolean> {
    const claimed = (await this.db.raw(
      `update alarms set customer_message_sent_at = now()
        where id = ? and customer_message_sent_at is null and customer_message is not null and jsonb_array_length(customer_message->'to') > 0
        returning customer_message, monitor`,
      [alarmId],
    )) as { rows: { customer_message: CustomerMessage; monitor: MonitorKind }[] };
    const row = claimed.rows[0];
    if (!row) {
      return false;
    }
    await this.mail.send({
      to: row.customer_message.to.slice(0, 50),
      subject: `Gridport alarm: ${issueTitleOf(row.monitor)}`,
      text: row.customer_message.markdown,
    });
    return true;
  }

  /** Customer messages of alarms opened a while ago that were not mailed (the process stopped before): mailed now. */
  async sendLeftCustomerMessages(olderThanSeconds = 60, limit = 100): Promise<number> {
    const ids = (await this.db('alarms')
      .whereNull('customer_message_sent_at')
      .whereNull('closed_at')
      .whereNotNull('customer_message')
      .whereRaw("jsonb_array_length(customer_message->'to') > 0")
      .whereRaw('created_at < now() - make_interval(secs => ?)', [olderThanSeconds])
      .orderBy('id')
      .limit(limit)
      .pluck('id')) as (string | number)[];
    let sent = 0;
    for (const id of ids) {
      if (await this.sendCustomerMessage(Number(id))) {
        sent += 1;
      }
    }
    return sent;
  }

  private async lockDevice(w: Write, deviceId: number): Promise<DeviceRow | null> {
    const row = (await w
      .trx('devices')
      .where('id', deviceId)
      .forUpdate()
      .first('id', 'name', 'organization_id', 'device_group_id', 'monitor_settings', 'outage_emails', 'outage_user_ids')) as DeviceRow | undefined;
    return row ? { ...row, id: Number(row.id), organization_id: row.organization_id === null ? null : Number(row.organization_id) } : null;
  }

  private async openAlarm(trx: Knex.Transaction, key: AlarmKey): Promise<AlarmModel | undefined> {
    const query = AlarmModel.query(trx).where({ monitor: key.monitor, device_id: key.deviceId }).whereNull('destination_id').whereNull('closed_at');
    return key.assetIdentifier === null ? query.whereNull('asset_identifier').first() : query.where('asset_identifier', key.assetIdentifier).first();
  }

  /**
   * The issue an alarm of the device joins: its open monitoring issue; else the monitoring
   * issue that resolved itself within 24 hours, reopened when it may be; else a new one.
   */
  private async issueFor(w: Write, device: DeviceRow, monitor: MonitorKind): Promise<number> {
    const open = await IssueModel.query(w.trx).where({ device_id: device.id, source: 'monitoring' }).whereNull('closed_at').orderBy('id', 'desc').first();
    if (open) {
      return open.id;
    }
    const recent = await IssueModel.query(w.trx)
      .where({ device_id: device.id, source: 'monitoring', closed_automatically: true })
      .whereRaw('closed_at > now() - make_interval(secs => ?)', [monitorWindows.reopenWithinSeconds])
      .orderBy('closed_at', 'desc')
      .first();
    if (recent?.canReopen) {
      await IssueModel.query(w.trx).patch({ closedAt: null, closedAutomatically: false }).where('id', recent.id);
      await w.audit({
        objectType: 'issues',
        objectId: recent.id,
        organizationId: recent.organizationId,
        changeType: 'deviceGatewayMonitoring',
        diff: [{ type: 'date', name: 'closedAt', oldValue: recent.closedAt?.toISOString() ?? null, newValue: null }],
      });
      await this.journal.addMessage(w, recent.id, { source: 'monitoring', message: 'A new alarm within 24 hours: the issue reopened.' });
      return recent.id;
    }
    const issue = await this.journal.open(w, {
      title: issueTitleOf(monitor),
      source: 'monitoring',
      organizationId: device.organization_id,
      deviceId: device.id,
      autoClose: true,
      canReopen: true,
      gridportIssueOwner: true,
    });
    return issue.id;
  }

  /** A timeline message on the issue and an audit entry on the device. */
  private async record(
    w: Write,
    device: { id: number; organization_id: number | null },
    issueId: number | null,
    message: string,
    key: AlarmKey,
    state: 'opened' | 'firing' | 'recovering' | 'closed',
  ): Promise<void> {
    await w.audit({
      objectType: 'devices',
      objectId: device.id,
      organizationId: device.organization_id,
      changeType: 'deviceGatewayMonitoring',
      diff: [
        { type: 'string', name: 'monitor', oldValue: null, newValue: key.monitor },
        ...(key.assetIdentifier === null ? [] : [{ type: 'string' as const, name: 'assetIdentifier', oldValue: null, newValue: key.assetIdentifier }]),
        { type: 'string', name: 'alarm', oldValue: null, newValue: state },
      ],
    });
    if (issueId !== null) {
      await this.journal.addMessage(w, issueId, { source: 'monitoring', message });
    }
  }

  /** To: the device's outage emails and outage users, and its group's outage contacts; markdown for the customer. */
  private async customerMessageOf(trx: Knex.Transaction, device: DeviceRow, key: AlarmKey): Promise<CustomerMessage> {
    const group = device.device_group_id
      ? ((await trx('device_groups').where('id', device.device_group_id).first('device_outage_emails', 'device_outage_user_ids')) as
          { device_outage_emails: unknown; device_outage_user_ids: unknown } | undefined)
      : undefined;
    const users = await this.directory.users(trx, [...asNumbers(device.outage_user_ids), ...asNumbers(group?.device_outage_user_ids)]);
    const emails = [...asStrings(device.outage_emails), ...[...users.values()].map((user) => user.email), ...asStrings(group?.device_outage_emails)];
    const seen = new Set<string>();
    const to = emails.filter((email) => !seen.has(email.toLowerCase()) && seen.add(email.toLowerCase()));
    const markdown = [
      `# ${issueTitleOf(key.monitor)}`,
      '',
      `Gridport's monitors raised an alarm on your device **${device.name}**${key.assetIdentifier === null ? '' : ` (asset ${key.assetIdentifier})`}: \`${key.monitor}\`.`,
      '',
      'Our operations team has been told and is looking into it. You will hear from us when it is resolved.',
    ].join('\n');
    return { to, markdown };
  }
}

function describe(key: AlarmKey): string {
  return key.assetIdentifier === null ? `\`${key.monitor}\`` : `\`${key.monitor}\`, ${key.assetIdentifier}`;
}
