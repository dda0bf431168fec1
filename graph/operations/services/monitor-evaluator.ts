import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { controlLoopDefaults } from '../../../contracts/device/control-loops';
import type { StoredReport } from '../../../contracts/hub/reports';
import {
  assetAlarmCategories,
  isMonitorKind,
  monitorKinds,
  monitorSettingsOf,
  monitorWindows,
  type AssetAlarmCategory,
  type EffectiveMonitorSettings,
  type MonitorKind,
} from '../../../contracts/monitors';
import type { AlarmModel } from '../models/alarm.model';
import type { AlarmKey, AlarmService } from './alarm.service';
import { countLocalConfigWrites, countRestarts } from './monitor-queries';
import { monitorSubjectsOf, type MonitoredAsset } from './monitor-subjects';
import { noMetrics, type NodeMetrics } from '../../common/metrics';
import { Batcher, type BatcherSettings } from '../../common/batcher';
import { isoTime } from '../../common/timestamps';

/** Error report codes of the agent that mean its control loops did not start (edge/agent/reporter.ts agentErrorCodes). */
const failedLoopCodes = new Set(['unsupported_control_loop', 'config_not_applied']);
/**
 * How an asset's setpoint binds it (asset sign convention: production positive, consumption
 * negative). Producers' setpoints cap what they produce and consumers' (an EV charger, a heater)
 * cap what they draw, so either fails only by going past it: a charger whose car draws less than
 * it may is following its setpoint. A battery's setpoint is a target, missed either way.
 */
const cappedProducers = new Set(['solar', 'wind', 'generator']);
const cappedConsumers = new Set(['ev', 'heat']);

/** Whether `activePower` fails the setpoint `effective` of an asset of `category`, beyond `tolerance` W. */
export function straysFromSetpoint(category: string, activePower: number, effective: number, tolerance: number): boolean {
  if (cappedProducers.has(category)) {
    return activePower > effective + tolerance;
  }
  if (cappedConsumers.has(category)) {
    return activePower < effective - tolerance;
  }
  return Math.abs(activePower - effective) > tolerance;
}
/** A device's settings and config are read again after this long, so console changes reach the evaluator. */
const reloadAfterMs = 60_000;
/**
 * A device silent this long is forgotten (memory stays bounded by the devices reporting here) and
 * taken up afresh from its open alarms at its next report: it may have reported to another node
 * meanwhile, or the sweep closed its alarms.
 */
const forgetAfterMs = 5 * 60_000;
/** A loop's step when its config gives none. */
const defaultLoopStepMs = controlLoopDefaults.controlLoopSleep * 1000;
/** Reports of a device kept while its state loads; beyond, the oldest are evaluated late or not at all. */
const backlogMax = 10_000;
/**
 * How the devices' reads are gathered (after a restart every gateway reports at once): a lone
 * device waits at most 2 ms, the others gather while one batch of up to 500 runs, so a fleet
 * takes one devices query and one open-alarms query per batch and at most two of the pool's
 * connections. A failed batch fails its devices together (the pool ran dry: reading each alone
 * would add to it); each keeps its reports and is read again at its first report once
 * `reloadAfterMs` has passed, as a device whose read failed alone always was.
 */
const loadBatching: BatcherSettings = { waitMs: 2, max: 500, inFlight: 1, whenFailed: 'refuseAll' };

/** What the evaluator reads of a device. */
interface DeviceRow {
  id: string | number;
  monitor_settings: unknown;
  config: unknown;
  config_revision: string | number;
}

interface DeviceState {
  deviceId: number;
  settings: EffectiveMonitorSettings;
  settingsText: string;
  /** The saved config's revision as read last: when it moves, the open alarms are read again (a config change closes those it left without a subject). */
  configRevision: number;
  assets: MonitoredAsset[];
  controllers: string[];
  /** Each loop's step (controlLoopSleep) in ms: an iteration longer than that is slow. */
  controllerStepsMs: number[];
  /** Keys (monitor|subject) of the alarms open and firing, as the database has them. */
  firing: Set<string>;
  /** Consecutive bad and good reports per monitor and subject. */
  streaks: Map<string, { bad: number; good: number }>;
  /** environmentalSensor.constantTooLong: the last values of each sensor and since when (ms). */
  constants: Map<number, { values: string; since: number }>;
  /** `<category>.alarm`: the asset alarm codes active per asset identifier. */
  assetAlarmCodes: Map<string, Set<string>>;
  /** A loop failed to start since the last config report: that config report belongs to the failed run. */
  loopFailedThisRun: boolean;
  loadedAt: number;
  lastReportAt: number;
  loading: boolean;
  ready: boolean;
  backlog: StoredReport[];
}

const keyOf = (monitor: MonitorKind, subject: string | null): string => `${monitor}|${subject ?? ''}`;

/**
 * The report-driven half of the monitors (docs/operations.md, "Monitors and alarms"): the hub
 * hands it each batch of reports right after the batch committed, on the node that stored it
 * (a device's reports all arrive on the node holding its connection). It keeps each device's
 * monitor state in memory and touches the database only when a state changes (an alarm fires
 * or clears) and for the rare report types that need history (config). Messages from the
 * device are audited apart, monitors or not (graph/fleet/services/message-from-device.service.ts). After a restart a device's state is taken up again
 * from its open alarms. Time-based conditions are the sweep's (monitor-sweep.ts).
 */
export class MonitorEvaluator {
  private readonly devices = new Map<number, DeviceState>();
  private chain: Promise<void> = Promise.resolve();
  private readonly loads = new Set<Promise<void>>();
  private prunedAt = Date.now();
  private closed = false;
  /** Errors of gathered reads already logged for their whole batch. */
  private readonly readFailuresLogged = new WeakSet<object>();
  private readonly deviceReads = new Batcher((deviceIds: number[]) => this.readDevices(deviceIds), loadBatching);
  private readonly openAlarmReads = new Batcher((deviceIds: number[]) => this.readOpenAlarms(deviceIds), loadBatching);
  /** For logs and the benchmark. */
  readonly stats = { reports: 0, fired: 0, cleared: 0, writes: 0 };

  constructor(
    private readonly db: Knex,
    private readonly alarms: AlarmService,
    private readonly log: Logger,
    private readonly metrics: NodeMetrics = noMetrics,
  ) {}

  /** A committed batch of stored reports. Returns at once; database work runs behind, in order. */
  evaluate(reports: readonly StoredReport[]): void {
    if (this.closed) {
      return;
    }
    const now = Date.now();
    if (now - this.prunedAt > forgetAfterMs) {
      this.prune(now);
    }
    let evaluated = 0;
    for (const report of reports) {
      this.stats.reports += 1;
      let state = this.devices.get(report.deviceId);
      if (state && !state.loading && now - state.lastReportAt > forgetAfterMs) {
        state = undefined;
      }
      if (!state) {
        state = this.newState(report.deviceId);
        this.devices.set(report.deviceId, state);
        this.load(state);
      } else if (!state.loading && now - state.loadedAt > reloadAfterMs) {
        this.load(state);
      }
      state.lastReportAt = now;
      if (!state.ready) {
        if (state.backlog.length < backlogMax) {
          state.backlog.push(report);
        }
        continue;
      }
      this.apply(state, report);
      evaluated += 1;
    }
    // A report held while its device's state loads is counted when it is taken up (evaluate runs again on the backlog).
    this.metrics.monitorReportsEvaluated(evaluated);
  }

  /** Waits for the database work queued so far (tests, shutdown). */
  async idle(): Promise<void> {
    let chain: Promise<void>;
    do {
      await Promise.all([...this.loads]);
      chain = this.chain;
      await chain;
    } while (chain !== this.chain || this.loads.size > 0);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
  }

  private prune(now: number): void {
    this.prunedAt = now;
    for (const [deviceId, state] of this.devices) {
      if (!state.loading && now - state.lastReportAt > forgetAfterMs) {
        this.devices.delete(deviceId);
      }
    }
  }

  /** Forgets a device (its state is taken up again from the database at its next report). */
  forget(deviceId: number): void {
    this.devices.delete(deviceId);
  }

  private newState(deviceId: number): DeviceState {
    return {
      deviceId,
      settings: monitorSettingsOf({}),
      settingsText: '',
      configRevision: -1,
      assets: [],
      controllers: [],
      controllerStepsMs: [],
      firing: new Set(),
      streaks: new Map(),
      constants: new Map(),
      assetAlarmCodes: new Map(),
      loopFailedThisRun: false,
      loadedAt: 0,
      lastReportAt: 0,
      loading: false,
      ready: false,
      backlog: [],
    };
  }

  /** Some devices' rows, one query; undefined for a device that is gone. */
  private async readDevices(deviceIds: number[]): Promise<(DeviceRow | undefined)[]> {
    return this.gatheredRead('rows', deviceIds, async () => {
      const rows = (await this.db('devices')
        .whereIn('id', [...new Set(deviceIds)])
        .select('id', 'monitor_settings', 'config', 'config_revision')) as DeviceRow[];
      const byId = new Map(rows.map((row) => [Number(row.id), row]));
      return deviceIds.map((deviceId) => byId.get(deviceId));
    });
  }

  /** Some devices' open alarms, one query. */
  private async readOpenAlarms(deviceIds: number[]): Promise<AlarmModel[][]> {
    return this.gatheredRead('open alarms', deviceIds, async () => {
      const open = await this.alarms.openAlarmsOfMany(deviceIds);
      return deviceIds.map((deviceId) => open.get(deviceId) ?? []);
    });
  }

  /**
   * A read gathered for several devices; when it fails, one line says so for all of them (each
   * device's load then fails with the same error and does not log it again).
   */
  private async gatheredRead<T>(what: string, deviceIds: number[], read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      this.log.error(
        { err: error, devices: deviceIds.length, firstDevices: deviceIds.slice(0, 10) },
        `monitors: reading ${deviceIds.length} devices' ${what} failed; each is read again at its next report`,
      );
      if (typeof error === 'object' && error !== null) {
        this.readFailuresLogged.add(error);
      }
      throw error;
    }
  }

  /**
   * Reads the device's settings, config and open alarms, gathered with the other devices read
   * meanwhile (loadBatching); then evaluates what waited meanwhile.
   */
  private load(state: DeviceState): void {
    state.loading = true;
    const loading = (async () => {
      try {
        const device = await this.deviceReads.submit(state.deviceId);
        if (!device) {
          this.devices.delete(state.deviceId);
          return;
        }
        const settingsText = JSON.stringify(device.monitor_settings ?? {});
        const configRevision = Number(device.config_revision);
        // Settings changed (a monitor turned off or on) or the config (its change closed alarms left without a subject): the open alarms are read again.
        const refresh = !state.ready || settingsText !== state.settingsText || configRevision !== state.configRevision;
        state.settingsText = settingsText;
        state.configRevision = configRevision;
        state.settings = monitorSettingsOf(device.monitor_settings);
        const subjects = monitorSubjectsOf(device.config);
        state.assets = subjects.assets;
        state.controllers = subjects.loops.map((loop) => loop.identifier);
        state.controllerStepsMs = subjects.loops.map((loop) => loop.stepMs);
        if (refresh) {
          const open = await this.openAlarmReads.submit(state.deviceId);
          state.firing.clear();
          for (const alarm of open) {
            if (alarm.recoveringSince === null && isMonitorKind(alarm.monitor)) {
              state.firing.add(keyOf(alarm.monitor, alarm.assetIdentifier));
            }
          }
        }
        state.loadedAt = Date.now();
        state.ready = true;
        const backlog = state.backlog;
        state.backlog = [];
        this.evaluate(backlog);
      } catch (error) {
        if (!this.readFailuresLogged.has(error as object)) {
          this.log.error({ err: error, device: state.deviceId }, 'monitors: reading a device failed; tried again at its next report');
        }
        state.loadedAt = Date.now();
      } finally {
        state.loading = false;
      }
    })();
    this.loads.add(loading);
    void loading.finally(() => this.loads.delete(loading));
  }

  private apply(state: DeviceState, report: StoredReport): void {
    const observations = (report.body.observations ?? {}) as Record<string, unknown>;
    switch (report.type) {
      case 'alarm':
        this.onAlarmReport(state, report, observations);
        return;
      case 'error':
        if (typeof observations.code === 'string' && failedLoopCodes.has(observations.code)) {
          if (observations.code === 'unsupported_control_loop') {
            state.loopFailedThisRun = true;
          }
          this.transition(state, 'device.failedToInitializeActiveControl', null, true, { code: observations.code, message: observations.message ?? null });
        }
        return;
      case 'config':
        this.onConfigReport(state, observations);
        return;
      case 'environmental':
        this.onEnvironmental(state, report, observations);
        this.onConnectionStatistics(state, report, observations);
        return;
      case 'assetIdentifiers':
        this.onIdentifiers(state, observations);
        return;
      case 'assetMetadata':
        if (report.assetIndex !== null && typeof observations.serialNumber === 'string') {
          this.onIdentifierRead(state, report.assetIndex, observations.serialNumber);
        }
        return;
      case 'temperaturePowerLimiterStatus':
        if (report.controllerIndex !== null) {
          const subject = state.controllers[report.controllerIndex] ?? `control loop ${report.controllerIndex}`;
          this.streak(state, 'temperaturePowerLimiter.fallback', subject, observations.state === 'fallback' || observations.state === 'error', {
            state: observations.state,
          });
        }
        return;
      default:
        if (report.controllerIndex !== null && report.type.endsWith('Status')) {
          this.onLoopStatus(state, report.controllerIndex, observations);
          return;
        }
        if (report.assetIndex !== null && !report.type.endsWith('.flash')) {
          this.onConnectionStatistics(state, report, observations);
          this.onSetpoints(state, report, observations);
        }
    }
  }

  /**
   * What the agent does not raise itself, read from every loop's status: an iteration longer
   * than the loop's step (activeControl.slowControlLoop), and assets it could not control in the
   * last iteration (activeControl.assetsTooOftenUncontrollable); each in a row.
   */
  private onLoopStatus(state: DeviceState, controllerIndex: number, observations: Record<string, unknown>): void {
    const subject = state.controllers[controllerIndex] ?? `control loop ${controllerIndex}`;
    if (typeof observations.iterationMs === 'number') {
      const stepMs = state.controllerStepsMs[controllerIndex] ?? defaultLoopStepMs;
      this.streak(state, 'activeControl.slowControlLoop', subject, observations.iterationMs > stepMs, { iterationMs: observations.iterationMs, stepMs });
    }
    if (Array.isArray(observations.uncontrollableAssets)) {
      this.streak(state, 'activeControl.assetsTooOftenUncontrollable', subject, observations.uncontrollableAssets.length > 0, {
        uncontrollableAssets: observations.uncontrollableAssets.slice(0, 20),
      });
    }
  }

  /** The agent's own alarms: a kind by its code (control loops name theirs in the description), or the asset category's alarm. */
  private onAlarmReport(state: DeviceState, report: StoredReport, observations: Record<string, unknown>): void {
    const code = typeof observations.code === 'string' ? observations.code : null;
    const active = observations.active === true;
    if (code === null) {
      return;
    }
    if (isMonitorKind(code) && monitorKinds[code].subject !== 'destination') {
      const loop = typeof observations.description === 'string' ? /^control loop (\d+)/.exec(observations.description) : null;
      const subject =
        monitorKinds[code].subject === 'device'
          ? null
          : report.assetIndex !== null
            ? this.assetIdentifier(state, report.assetIndex)
            : loop
              ? (state.controllers[Number(loop[1])] ?? `control loop ${loop[1]}`)
              : null;
      this.transition(state, code, subject, active, { code, level: observations.level ?? null, description: observations.description ?? null });
      return;
    }
    if (report.assetIndex === null) {
      return;
    }
    const asset = state.assets[report.assetIndex];
    const category = asset?.category;
    if (!category || !(assetAlarmCategories as readonly string[]).includes(category)) {
      return;
    }
    const subject = this.assetIdentifier(state, report.assetIndex);
    const codes = state.assetAlarmCodes.get(subject) ?? new Set<string>();
    if (active) {
      codes.add(code);
    } else {
      codes.delete(code);
    }
    state.assetAlarmCodes.set(subject, codes);
    this.transition(state, `${category as AssetAlarmCategory}.alarm`, subject, codes.size > 0, { codes: [...codes], level: observations.level ?? null });
  }

  /** Restarts and on-site config writes are counted from the stored config reports (rare; restart-safe). */
  private onConfigReport(state: DeviceState, observations: Record<string, unknown>): void {
    const failedThisRun = state.loopFailedThisRun;
    state.loopFailedThisRun = false;
    if (!failedThisRun) {
      this.transition(state, 'device.failedToInitializeActiveControl', null, false, {});
    }
    // The device runs another config: its assets and loops are read again.
    if (!state.loading) {
      this.load(state);
    }
    const limit = state.settings.acceptableBadConnectionCount;
    const deviceId = state.deviceId;
    if (observations.messageId === undefined && (observations.source === 'local' || observations.source === 'default')) {
      // The sweep clears these when the hour's count falls, so they are fired without the in-memory state (fire is idempotent).
      this.enqueue(async () => {
        const restarts = await countRestarts(this.db, deviceId, monitorWindows.frequencyWindowSeconds);
        if (restarts > limit) {
          await this.alarms.fire(
            { monitor: 'device.restart', deviceId, assetIdentifier: null },
            { restarts, withinSeconds: monitorWindows.frequencyWindowSeconds },
          );
        }
        const writes = await countLocalConfigWrites(this.db, deviceId, monitorWindows.frequencyWindowSeconds);
        if (writes > limit) {
          await this.alarms.fire(
            { monitor: 'device.localConfigWriteFrequency', deviceId, assetIdentifier: null },
            { writes, withinSeconds: monitorWindows.frequencyWindowSeconds },
          );
        }
      });
    }
  }

  private onConnectionStatistics(state: DeviceState, report: StoredReport, observations: Record<string, unknown>): void {
    const statistics = observations.connectionStatistics as Record<string, unknown> | undefined;
    if (!statistics || report.assetIndex === null) {
      return;
    }
    let total = 0;
    for (const value of Object.values(statistics)) {
      total += typeof value === 'number' ? value : 0;
    }
    if (total === 0) {
      return;
    }
    const success = typeof statistics.success === 'number' ? statistics.success : 0;
    const failedPercentage = ((total - success) / total) * 100;
    this.streak(state, 'asset.connectivity', this.assetIdentifier(state, report.assetIndex), failedPercentage > state.settings.thresholdPercentage, {
      failedPercentage: Math.round(failedPercentage * 10) / 10,
    });
  }

  private onSetpoints(state: DeviceState, report: StoredReport, observations: Record<string, unknown>): void {
    const setpoints = observations.setpoints as { effective?: unknown; confirmed?: unknown } | undefined;
    if (!setpoints || report.assetIndex === null || typeof setpoints.effective !== 'number') {
      return;
    }
    const effective = setpoints.effective;
    const tolerance = Math.max((Math.abs(effective) * state.settings.thresholdPercentage) / 100, 100);
    const subject = this.assetIdentifier(state, report.assetIndex);
    if (typeof observations.activePower === 'number') {
      const strays = straysFromSetpoint(state.assets[report.assetIndex]?.category ?? '', observations.activePower, effective, tolerance);
      this.streak(state, 'asset.powerUnresponsive', subject, strays, { activePower: observations.activePower, effective });
    }
    if (typeof setpoints.confirmed === 'number') {
      this.streak(state, 'asset.setpointUnresponsive', subject, Math.abs(setpoints.confirmed - effective) > tolerance, {
        confirmed: setpoints.confirmed,
        effective,
      });
    }
  }

  private onEnvironmental(state: DeviceState, report: StoredReport, observations: Record<string, unknown>): void {
    if (report.assetIndex === null) {
      return;
    }
    const values = [
      observations.irradiance,
      observations.ambientTemperature,
      observations.moduleTemperature,
      observations.windSpeed,
      observations.temperatures,
    ];
    if (values.every((value) => value === undefined || value === null)) {
      return;
    }
    const text = JSON.stringify(values);
    const at = Date.parse(report.at);
    const last = state.constants.get(report.assetIndex);
    if (!last || last.values !== text) {
      state.constants.set(report.assetIndex, { values: text, since: at });
      this.transition(state, 'environmentalSensor.constantTooLong', this.assetIdentifier(state, report.assetIndex), false, {});
      return;
    }
    if (at - last.since > monitorWindows.constantTooLongSeconds * 1000) {
      this.transition(state, 'environmentalSensor.constantTooLong', this.assetIdentifier(state, report.assetIndex), true, {
        since: isoTime(new Date(last.since)),
      });
    }
  }

  private onIdentifiers(state: DeviceState, observations: Record<string, unknown>): void {
    const assets = Array.isArray(observations.assets) ? (observations.assets as { asset?: unknown; identifier?: unknown }[]) : [];
    for (const entry of assets) {
      if (typeof entry.asset === 'number' && typeof entry.identifier === 'string') {
        this.onIdentifierRead(state, entry.asset, entry.identifier);
      }
    }
  }

  /** `<category>.metadataMismatch`: the identifier (serial number) read from an asset is not the configured one. */
  private onIdentifierRead(state: DeviceState, assetIndex: number, read: string): void {
    const asset = state.assets[assetIndex];
    const category = asset?.category;
    if (!asset || !category || !(assetAlarmCategories as readonly string[]).includes(category) || asset.identifier === `asset ${assetIndex}`) {
      return;
    }
    this.transition(state, `${category as AssetAlarmCategory}.metadataMismatch`, asset.identifier, read !== asset.identifier, {
      read,
      configured: asset.identifier,
    });
  }

  /** Fires after more than acceptableBadConnectionCount bad reports in a row; clears after as many good ones. */
  private streak(state: DeviceState, monitor: MonitorKind, subject: string, bad: boolean, details: Record<string, unknown>): void {
    const key = keyOf(monitor, subject);
    let streak = state.streaks.get(key);
    if (!streak) {
      streak = { bad: 0, good: 0 };
      state.streaks.set(key, streak);
    }
    const limit = state.settings.acceptableBadConnectionCount;
    if (bad) {
      streak.bad += 1;
      streak.good = 0;
      if (streak.bad > limit) {
        this.transition(state, monitor, subject, true, details);
      }
      return;
    }
    streak.good += 1;
    streak.bad = 0;
    if (streak.good >= limit) {
      this.transition(state, monitor, subject, false, details);
    }
  }

  private assetIdentifier(state: DeviceState, index: number): string {
    return state.assets[index]?.identifier ?? `asset ${index}`;
  }

  /** A monitor's state for one subject: the database is written only when it changes. */
  private transition(state: DeviceState, monitor: MonitorKind, subject: string | null, firing: boolean, details: Record<string, unknown>): void {
    const key = keyOf(monitor, subject);
    if (firing === state.firing.has(key)) {
      return;
    }
    const alarmKey: AlarmKey = { monitor, deviceId: state.deviceId, assetIdentifier: subject };
    if (firing) {
      state.firing.add(key);
      this.stats.fired += 1;
      this.enqueue(
        async () => {
          const outcome = await this.alarms.fire(alarmKey, details);
          if (outcome === 'gone') {
            this.devices.delete(state.deviceId);
          }
        },
        () => state.firing.delete(key),
      );
      return;
    }
    state.firing.delete(key);
    this.stats.cleared += 1;
    this.enqueue(
      async () => {
        await this.alarms.clear(alarmKey);
      },
      () => state.firing.add(key),
    );
  }

  /** Runs database work one piece at a time, in order; a failure is logged and undone in memory so that the next report tries again. */
  private enqueue(work: () => Promise<void>, undo?: () => void): void {
    this.stats.writes += 1;
    this.chain = this.chain.then(work).catch((error: unknown) => {
      undo?.();
      this.log.error({ err: error }, 'monitors: recording a monitor state failed');
    });
  }
}
