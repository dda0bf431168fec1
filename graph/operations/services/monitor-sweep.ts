import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { defaultMonitorSettings, monitorEnabled, monitorSettingsOf, monitorWindows, type MonitorKind } from '../../../contracts/monitors';
import type { AlarmService } from './alarm.service';
import { countLocalConfigWrites, countRestarts, interfaceClass } from './monitor-queries';
import { noMetrics, type NodeMetrics } from '../../common/metrics';

/** How often the sweep runs (MONITOR_SWEEP_SECONDS); its lease lasts three sweeps. */
export interface MonitorSweepSettings {
  sweepSeconds: number;
}

/** The monitors' sweep every MONITOR_SWEEP_SECONDS (docs/operations.md, "Monitors and alarms"). */
export const defaultMonitorSweepSettings: MonitorSweepSettings = { sweepSeconds: 10 };

export interface SweepResult {
  /** False when another node holds the lease: this node did nothing. */
  leased: boolean;
  fired: number;
  cleared: number;
  closed: number;
  mailed: number;
}

interface DeviceRow {
  id: string | number;
  monitor_settings: unknown;
  network_interface: string | null;
  online: boolean;
  last_seen_at: Date | null;
}

/** The disconnect interval of a device in SQL, with the default for what its settings leave out or hold out of range. */
const intervalSql = `coalesce(case when jsonb_typeof(monitor_settings->'disconnectIntervalSeconds') = 'number'
  and (monitor_settings->>'disconnectIntervalSeconds')::numeric between 1 and 86400 then (monitor_settings->>'disconnectIntervalSeconds')::numeric end, ${defaultMonitorSettings.disconnectIntervalSeconds})`;

/**
 * The time-based half of the monitors (docs/operations.md, "Monitors and alarms"): every
 * `sweepSeconds`, the node that holds the sweep lease (monitor_leases; another node takes it
 * over once it runs out) fires and clears the device kinds that depend on time and connection
 * events (disconnect duration and frequency, cloud connectivity, cellular, and the clearing of
 * restart and config-write counts), closes alarms recovered long enough (alarms.closeRecovered,
 * rows taken FOR UPDATE SKIP LOCKED) and mails customer messages a stopped process left unsent.
 * Everything it does is conditional and idempotent, so a sweep cut short is simply done again.
 */
export class MonitorSweep {
  readonly holder = randomUUID();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly db: Knex,
    private readonly alarms: AlarmService,
    private readonly settings: MonitorSweepSettings,
    private readonly log: Logger,
    private readonly metrics: NodeMetrics = noMetrics,
  ) {}

  start(): void {
    if (this.timer) {
      return;
    }
    this.timer = setInterval(() => {
      if (!this.running) {
        this.running = this.runOnce()
          .catch((error: unknown) => this.log.error({ err: error }, 'monitors: the sweep failed; it runs again at the next interval'))
          .finally(() => {
            this.running = null;
          });
      }
    }, this.settings.sweepSeconds * 1000);
    // A chore: it must not keep a process alive.
    this.timer.unref();
  }

  /** Stops sweeping, waits for a sweep under way and gives up the lease. */
  async stop(): Promise<void> {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
    await this.running;
    await this.db('monitor_leases').where({ name: 'sweep', holder: this.holder }).delete();
  }

  /** Takes or renews the lease; true while this node holds it. */
  async takeLease(): Promise<boolean> {
    const result = (await this.db.raw(
      `insert into monitor_leases (name, holder, expires_at) values ('sweep', ?, now() + make_interval(secs => ?))
       on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
       where monitor_leases.holder = excluded.holder or monitor_leases.expires_at < now()
       returning holder`,
      [this.holder, this.settings.sweepSeconds * 3],
    )) as { rows: { holder: string }[] };
    return result.rows.length > 0;
  }

  /** One sweep, when this node holds the lease. */
  async runOnce(): Promise<SweepResult> {
    const result: SweepResult = { leased: false, fired: 0, cleared: 0, closed: 0, mailed: 0 };
    if (!(await this.takeLease())) {
      return result;
    }
    result.leased = true;
    const count = (fired: boolean, changed: boolean | string) => {
      if (fired && changed === 'opened') {
        result.fired += 1;
      } else if (!fired && changed === true) {
        result.cleared += 1;
      }
    };
    await this.disconnectDuration(count);
    await this.disconnectFrequency(count);
    await this.cloudConnectivity(count);
    await this.cloudCellular(count);
    await this.countsBelowLimit(count);
    result.closed = await this.alarms.closeRecovered();
    result.mailed = await this.alarms.sendLeftCustomerMessages();
    this.metrics.monitorSweep();
    return result;
  }

  /** device.disconnect.duration: offline longer than disconnectIntervalSeconds fires; online again clears. */
  private async disconnectDuration(count: (fired: boolean, changed: boolean | string) => void): Promise<void> {
    const monitor: MonitorKind = 'device.disconnect.duration';
    const offline = (await this.db.raw(
      `select id, monitor_settings, network_interface, online, last_seen_at from devices
        where not online and monitor_connectivity and last_seen_at is not null
          and last_seen_at < now() - make_interval(secs => ${intervalSql})
          and not exists (select 1 from alarms a where a.monitor = ? and a.device_id = devices.id and a.closed_at is null and a.recovering_since is null)
        order by id limit 1000`,
      [monitor],
    )) as { rows: DeviceRow[] };
    for (const device of offline.rows) {
      if (monitorEnabled(monitorSettingsOf(device.monitor_settings), monitor)) {
        count(
          true,
          await this.alarms.fire({ monitor, deviceId: Number(device.id), assetIdentifier: null }, { lastSeenAt: device.last_seen_at?.toISOString() ?? null }),
        );
      }
    }
    const back = (await this.db.raw(
      `select a.device_id from alarms a join devices d on d.id = a.device_id
        where a.monitor = ? and a.closed_at is null and a.recovering_since is null and (d.online or not d.monitor_connectivity) limit 1000`,
      [monitor],
    )) as { rows: { device_id: string | number }[] };
    for (const row of back.rows) {
      count(false, await this.alarms.clear({ monitor, deviceId: Number(row.device_id), assetIdentifier: null }));
    }
  }

  /** device.disconnect.frequency.<interface>: more than acceptableBadConnectionCount disconnects of one interface class within the hour. */
  private async disconnectFrequency(count: (fired: boolean, changed: boolean | string) => void): Promise<void> {
    const rows = (await this.db.raw(
      `select e.device_id, e.network_interface, count(*) as disconnects, d.monitor_settings, d.monitor_connectivity
         from device_connection_events e join devices d on d.id = e.device_id
        where e.kind = 'disconnected' and e.at > now() - make_interval(secs => ?)
        group by e.device_id, e.network_interface, d.monitor_settings, d.monitor_connectivity`,
      [monitorWindows.frequencyWindowSeconds],
    )) as {
      rows: {
        device_id: string | number;
        network_interface: string | null;
        disconnects: string | number;
        monitor_settings: unknown;
        monitor_connectivity: boolean;
      }[];
    };
    const counts = new Map<string, { deviceId: number; monitor: MonitorKind; disconnects: number; limit: number; watched: boolean }>();
    for (const row of rows.rows) {
      const monitor: MonitorKind = `device.disconnect.frequency.${interfaceClass(row.network_interface)}`;
      const key = `${Number(row.device_id)}|${monitor}`;
      const entry = counts.get(key) ?? {
        deviceId: Number(row.device_id),
        monitor,
        disconnects: 0,
        limit: monitorSettingsOf(row.monitor_settings).acceptableBadConnectionCount,
        watched: row.monitor_connectivity,
      };
      entry.disconnects += Number(row.disconnects);
      counts.set(key, entry);
    }
    for (const entry of counts.values()) {
      if (entry.watched && entry.disconnects > entry.limit) {
        count(
          true,
          await this.alarms.fire(
            { monitor: entry.monitor, deviceId: entry.deviceId, assetIdentifier: null },
            { disconnects: entry.disconnects, withinSeconds: monitorWindows.frequencyWindowSeconds },
          ),
        );
      }
    }
    for (const alarm of await this.alarms.firingOf(['device.disconnect.frequency.ethernet', 'device.disconnect.frequency.cellular'])) {
      const entry = counts.get(`${alarm.deviceId}|${alarm.monitor}`);
      if (!entry || !entry.watched || entry.disconnects <= entry.limit) {
        count(false, await this.alarms.clear({ monitor: alarm.monitor as MonitorKind, deviceId: Number(alarm.deviceId), assetIdentifier: null }));
      }
    }
  }

  /** device.cloud.connectivity: offline more than thresholdPercentage of the last 24 hours. */
  private async cloudConnectivity(count: (fired: boolean, changed: boolean | string) => void): Promise<void> {
    const monitor: MonitorKind = 'device.cloud.connectivity';
    const windowSeconds = monitorWindows.connectivityWindowSeconds;
    const events = (await this.db.raw(
      `select e.device_id, e.kind, e.at, d.monitor_settings, d.monitor_connectivity, d.online
         from device_connection_events e join devices d on d.id = e.device_id
        where e.at > now() - make_interval(secs => ?)
          and e.device_id in (select device_id from device_connection_events where kind = 'disconnected' and at > now() - make_interval(secs => ?)
                              union select device_id from alarms where monitor = ? and closed_at is null and device_id is not null)
        order by e.device_id, e.at, e.id`,
      [windowSeconds, windowSeconds, monitor],
    )) as { rows: { device_id: string | number; kind: string; at: Date; monitor_settings: unknown; monitor_connectivity: boolean; online: boolean }[] };
    const deviceIds = [...new Set(events.rows.map((row) => Number(row.device_id)))];
    // Offline at the window's start when the last event before it was a disconnect; a device with none before had not come into service.
    const before = deviceIds.length
      ? ((await this.db.raw(
          `select distinct on (device_id) device_id, kind from device_connection_events
            where device_id in (${deviceIds.map(() => '?').join(', ')}) and at <= now() - make_interval(secs => ?)
            order by device_id, at desc, id desc`,
          [...deviceIds, windowSeconds],
        )) as { rows: { device_id: string | number; kind: string }[] })
      : { rows: [] };
    const offlineAtStart = new Set(before.rows.filter((row) => row.kind === 'disconnected').map((row) => Number(row.device_id)));
    const now = Date.now();
    const start = now - windowSeconds * 1000;
    const offlineShare = new Map<number, { share: number; threshold: number; watched: boolean }>();
    let index = 0;
    while (index < events.rows.length) {
      const first = events.rows[index];
      if (!first) {
        break;
      }
      const deviceId = Number(first.device_id);
      let offlineMs = 0;
      let offlineSince: number | null = offlineAtStart.has(deviceId) ? start : null;
      for (; index < events.rows.length && Number(events.rows[index]?.device_id) === deviceId; index += 1) {
        const event = events.rows[index];
        if (!event) {
          break;
        }
        const at = event.at.getTime();
        if (event.kind === 'disconnected' && offlineSince === null) {
          offlineSince = at;
        } else if (event.kind === 'connected' && offlineSince !== null) {
          offlineMs += at - offlineSince;
          offlineSince = null;
        }
      }
      if (offlineSince !== null && !first.online) {
        offlineMs += now - offlineSince;
      }
      offlineShare.set(deviceId, {
        share: (offlineMs / (windowSeconds * 1000)) * 100,
        threshold: monitorSettingsOf(first.monitor_settings).thresholdPercentage,
        watched: first.monitor_connectivity,
      });
    }
    for (const [deviceId, entry] of offlineShare) {
      if (entry.watched && entry.share > entry.threshold) {
        count(true, await this.alarms.fire({ monitor, deviceId, assetIdentifier: null }, { offlinePercentage: Math.round(entry.share * 10) / 10 }));
      }
    }
    for (const alarm of await this.alarms.firingOf([monitor])) {
      const deviceId = Number(alarm.deviceId);
      const entry = offlineShare.get(deviceId);
      if (!entry) {
        // No event within the window: offline all of it, unless it is online (and watched) now.
        const device = (await this.db('devices').where('id', deviceId).first('online', 'monitor_connectivity')) as
          { online: boolean; monitor_connectivity: boolean } | undefined;
        if (!device || device.online || !device.monitor_connectivity) {
          count(false, await this.alarms.clear({ monitor, deviceId, assetIdentifier: null }));
        }
        continue;
      }
      if (!entry.watched || entry.share <= entry.threshold) {
        count(false, await this.alarms.clear({ monitor, deviceId, assetIdentifier: null }));
      }
    }
  }

  /** device.cloud.cellular: online over a cellular interface longer than disconnectIntervalSeconds; cleared online over another interface or offline. */
  private async cloudCellular(count: (fired: boolean, changed: boolean | string) => void): Promise<void> {
    const monitor: MonitorKind = 'device.cloud.cellular';
    const online = (await this.db.raw(
      `select id, monitor_settings, network_interface, online, last_seen_at from devices
        where online and monitor_connectivity and network_interface is not null and last_seen_at < now() - make_interval(secs => ${intervalSql})
          and not exists (select 1 from alarms a where a.monitor = ? and a.device_id = devices.id and a.closed_at is null and a.recovering_since is null)
        order by id limit 5000`,
      [monitor],
    )) as { rows: DeviceRow[] };
    for (const device of online.rows) {
      if (interfaceClass(device.network_interface) === 'cellular' && monitorEnabled(monitorSettingsOf(device.monitor_settings), monitor)) {
        count(true, await this.alarms.fire({ monitor, deviceId: Number(device.id), assetIdentifier: null }, { networkInterface: device.network_interface }));
      }
    }
    const firing = (await this.db.raw(
      `select a.device_id, d.online, d.network_interface, d.monitor_connectivity from alarms a join devices d on d.id = a.device_id
        where a.monitor = ? and a.closed_at is null and a.recovering_since is null limit 1000`,
      [monitor],
    )) as { rows: { device_id: string | number; online: boolean; network_interface: string | null; monitor_connectivity: boolean }[] };
    for (const row of firing.rows) {
      if (!row.online || !row.monitor_connectivity || interfaceClass(row.network_interface) !== 'cellular') {
        count(false, await this.alarms.clear({ monitor, deviceId: Number(row.device_id), assetIdentifier: null }));
      }
    }
  }

  /** device.restart and device.localConfigWriteFrequency clear once the hour holds no more than acceptableBadConnectionCount of them. */
  private async countsBelowLimit(count: (fired: boolean, changed: boolean | string) => void): Promise<void> {
    for (const alarm of await this.alarms.firingOf(['device.restart', 'device.localConfigWriteFrequency'])) {
      const deviceId = Number(alarm.deviceId);
      const device = (await this.db('devices').where('id', deviceId).first('monitor_settings')) as { monitor_settings: unknown } | undefined;
      const limit = monitorSettingsOf(device?.monitor_settings).acceptableBadConnectionCount;
      const seen =
        alarm.monitor === 'device.restart'
          ? await countRestarts(this.db, deviceId, monitorWindows.frequencyWindowSeconds)
          : await countLocalConfigWrites(this.db, deviceId, monitorWindows.frequencyWindowSeconds);
      if (seen <= limit) {
        count(false, await this.alarms.clear({ monitor: alarm.monitor as MonitorKind, deviceId, assetIdentifier: null }));
      }
    }
  }
}
