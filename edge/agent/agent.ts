import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ValidationError } from 'yup';
import { configIssues, cloudToDeviceMessageSchema, parseDeviceConfig, type CloudToDeviceMessage, type DeviceConfig } from '../../contracts/device/config';
import { validateReport, type DeviceReport, type ReportOf } from '../../contracts/hub/reports';
import { GatewayClient, type IncomingMessage } from '../gateway-client/client';
import type { GatewayIdentity } from '../gateway-client/provision';
import type { AssetDriver } from '../drivers/driver';
import type { ControlLoop } from '../control/loop';
import { ScheduleRunner, type ScheduleTarget } from '../control/schedule';
import type { ScheduleItem } from '../../contracts/device/commands';
import { SetpointArbiter } from '../control/setpoints';
import type { ModbusLinks } from '../modbus/link';
import { systemClock, type AgentClock } from './clock';
import { Journal, type AgentLog } from './journal';
import { defaultSystemProbes, readRoutingTable, readSignalQuality, scanNetwork, type SystemProbes } from './system';
import { defaultAgentParts, type AgentParts } from './parts';

/**
 * The gateway agent (device-model.md; docs/edge.md): runs the config the cloud sets, polls the
 * assets through their drivers, runs the control loops through the setpoint arbiter, sends
 * every report through the gateway client (stored on disk until the cloud acknowledges it) and
 * answers every cloud-to-device message of section 3.10.
 */

/** Exit codes the agent asks its supervisor for (docs/edge.md): restart it, update it, or reprovision it. */
export const agentExitCodes = {
  /** reboot with hard: true: the supervisor restarts the process (or the gateway). */
  hardReboot: 75,
  /** forceUpdate: the supervisor installs the newest release, then starts it. */
  forceUpdate: 76,
  /** reprovision: the next start provisions again with the new token it is given. */
  reprovision: 77,
} as const;

/** The config a gateway runs before the cloud sent one: no assets, DHCP on eth0, a report a minute. */
export const defaultDeviceConfig: DeviceConfig = parseDeviceConfig({ network: { eth0: { type: 'dhcp' }, eth1: null }, assets: [], reportingIntervalInSec: 60 });

/** Files of the state directory. */
export const stateFiles = {
  identity: 'identity',
  config: 'config.json',
  /** The schedules held (setAssetSchedule), so a restart carries on with them: the cloud does not send an acknowledged message again. */
  schedules: 'schedules.json',
  reports: 'reports',
  reprovision: 'reprovision-requested',
} as const;

/** Error codes of the agent's error reports (docs/edge.md). */
export const agentErrorCodes = {
  invalidMessage: 'invalid_message',
  invalidConfig: 'invalid_config',
  configNotApplied: 'config_not_applied',
  unsupportedAssetType: 'unsupported_asset_type',
  unsupportedControlLoop: 'unsupported_control_loop',
  unknownAsset: 'unknown_asset',
  unknownControlLoop: 'unknown_control_loop',
  unsupportedParameters: 'unsupported_parameters',
  noOpcXmlDaClient: 'no_opc_xml_da_client',
  noVestasApClient: 'no_vestas_ap_client',
  noModem: 'no_modem',
  tunnelFailed: 'tunnel_failed',
  commandFailed: 'command_failed',
  reportsDropped: 'reports_dropped',
} as const;

export interface AgentOptions {
  /** The cloud's base URL, http(s)://host:port. */
  baseUrl: string;
  identity: Pick<GatewayIdentity, 'certificatePem' | 'privateKey'>;
  /** Where the agent keeps its config and its unsent reports (docs/edge.md). */
  stateDirectory: string;
  clock?: AgentClock;
  /** Drivers, loops, Modbus links, Modbus commands and tunnels; the real ones by default (parts.ts). */
  parts?: Partial<AgentParts>;
  /** Where the journal's lines go on to (the process logger). */
  log?: AgentLog;
  version?: string;
  networkInterface?: string;
  /** Bound of the report store on disk (report-store.ts defaultStoreBytes). */
  maxStoreBytes?: number;
  minBackoffMs?: number;
  maxBackoffMs?: number;
  system?: Partial<SystemProbes>;
  /** Asked to end the process with an agentExitCodes code (hard reboot, forceUpdate, reprovision), after the agent stopped. */
  onExit?: (code: number, reason: string) => void;
}

/** A schedule the agent holds for a target, as setAssetSchedule gave it. */
interface HeldSchedule {
  target: ScheduleTarget;
  schedule: ScheduleItem[];
  messageId: string;
}

function scheduleKey(target: ScheduleTarget): string {
  return target.assetIndex !== undefined ? `asset:${target.assetIndex}` : `loop:${target.controlLoopIndex}`;
}

/** A repeating piece of work on the agent's clock. */
interface Task {
  intervalMs: number;
  nextAt: number;
  run: (now: number) => Promise<void>;
}

/** What runs one config: drivers, loops, links and the arbiter. */
interface Runtime {
  config: DeviceConfig;
  links: ModbusLinks;
  drivers: (AssetDriver | undefined)[];
  loops: (ControlLoop | undefined)[];
  arbiter: SetpointArbiter;
  schedule: ScheduleRunner;
  tasks: Task[];
}

type MessageOf<T extends CloudToDeviceMessage['type']> = Extract<CloudToDeviceMessage, { type: T }>;

/** Fastest poll the agent does, ms, whatever loops and flash reports ask. */
const fastestPollMs = 100;
/** Slowest poll, ms: assets are read at least this often, for the loops and the reports. */
const slowestPollMs = 1000;

export class Agent {
  readonly journal: Journal;
  private readonly clock: AgentClock;
  private readonly parts: AgentParts;
  private readonly system: SystemProbes;
  private client: GatewayClient | null = null;
  private runtime: Runtime | null = null;
  /** Kept across configs: the arbiter starts afresh with each, the schedules of assets and loops still there carry on. */
  private arbiter: SetpointArbiter | null = null;
  private schedule: ScheduleRunner | null = null;
  /** The schedules taken, by target, as persisted in schedules.json. */
  private readonly schedulesHeld = new Map<string, HeldSchedule>();
  private cancelTimer: (() => void) | null = null;
  private running = false;
  /** Work on the runtime, one piece at a time: the clock's tasks and config changes. */
  private queue: Promise<void> = Promise.resolve();
  private stopped = true;
  /** Work a message asks for once it is answered: a restart, an exit. */
  private readonly afterAnswers: (() => Promise<void>)[] = [];

  constructor(private readonly options: AgentOptions) {
    this.clock = options.clock ?? systemClock;
    this.journal = new Journal(() => this.clock.now(), options.log);
    this.parts = { ...defaultAgentParts, ...options.parts };
    this.system = { ...defaultSystemProbes, ...options.system };
  }

  private get log(): AgentLog {
    return this.journal.log;
  }

  /** The config running now. */
  get config(): DeviceConfig | null {
    return this.runtime?.config ?? null;
  }

  /** The gateway client (for tests and the demo: connected(), drained()). */
  get gateway(): GatewayClient {
    if (!this.client) {
      throw new Error('start() the agent first');
    }
    return this.client;
  }

  /** Starts the gateway client, then runs the stored config (reported with source local) or the default one. */
  async start(): Promise<void> {
    this.stopped = false;
    await mkdir(this.options.stateDirectory, { recursive: true, mode: 0o700 });
    const client = new GatewayClient({
      baseUrl: this.options.baseUrl,
      identity: this.options.identity,
      storeDirectory: path.join(this.options.stateDirectory, stateFiles.reports),
      version: this.options.version,
      networkInterface: this.options.networkInterface,
      maxStoreBytes: this.options.maxStoreBytes,
      minBackoffMs: this.options.minBackoffMs,
      maxBackoffMs: this.options.maxBackoffMs,
      onMessage: (message) => this.onMessage(message),
      onConnected: () => void this.reportDropped(),
      onError: (error) => this.log('warn', `cloud: ${error.key}: ${error.message}`, error.ids ? { ids: error.ids } : undefined),
    });
    this.client = client;
    await client.start();
    let stored = await this.readStoredConfig();
    try {
      await this.serialize(() => this.apply(stored ?? defaultDeviceConfig));
    } catch (error) {
      // A stored config that cannot run now must not keep the gateway from the cloud, which can send another.
      this.log('error', 'the stored config could not be run; running the default one', { error: error instanceof Error ? error.message : String(error) });
      stored = null;
      await this.serialize(() => this.apply(defaultDeviceConfig));
    }
    await this.serialize(() => this.restoreSchedules());
    const config = stored ?? defaultDeviceConfig;
    await this.report({ type: 'config', at: this.at(), observations: { source: stored ? 'local' : 'default', config: toJson(config) } });
    this.log('info', `agent started with the ${stored ? 'stored' : 'default'} config`, { assets: config.assets.length, loops: config.activeControl.length });
    this.scheduleNext();
  }

  /** Stops the loops and drivers and closes the connection; unsent reports stay on disk for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
    await this.queue;
    await this.teardown();
    await this.client?.stop();
    this.client = null;
    this.arbiter = null;
    this.schedule = null;
  }

  /** Restarts in process (reboot): everything stopped, then started again from the state directory. */
  async restart(): Promise<void> {
    this.log('info', 'agent restarting');
    await this.stop();
    await this.start();
  }

  private serialize<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  // -------------------------------------------------------------------------------------------
  // Config
  // -------------------------------------------------------------------------------------------

  private async readStoredConfig(): Promise<DeviceConfig | null> {
    let text: string;
    try {
      text = await readFile(path.join(this.options.stateDirectory, stateFiles.config), 'utf8');
    } catch {
      return null;
    }
    try {
      return parseDeviceConfig(JSON.parse(text));
    } catch (error) {
      this.log('error', 'the stored config is not valid; running the default one', { error: error instanceof Error ? error.message : String(error) });
      return null;
    }
  }

  private async persistConfig(config: DeviceConfig): Promise<void> {
    await this.writeStateFile(stateFiles.config, config);
  }

  /** Writes a file of the state directory whole or not at all. */
  private async writeStateFile(name: string, value: unknown): Promise<void> {
    const file = path.join(this.options.stateDirectory, name);
    const temporary = `${file}.${randomUUID()}.tmp`;
    await writeFile(temporary, JSON.stringify(value));
    await rename(temporary, file);
  }

  /** Keeps the schedules held on disk, without the items that have ended. */
  private async persistSchedules(): Promise<void> {
    const now = this.clock.now();
    const held = [...this.schedulesHeld.values()].map((entry) => ({ ...entry, schedule: entry.schedule.filter((item) => Date.parse(item.endAt) > now) })).filter((entry) => entry.schedule.length > 0);
    await this.writeStateFile(stateFiles.schedules, held);
  }

  /** Takes up the schedules held before a restart again, for the targets the running config still has. */
  private async restoreSchedules(): Promise<void> {
    const runtime = this.runtime;
    let held: HeldSchedule[];
    try {
      held = JSON.parse(await readFile(path.join(this.options.stateDirectory, stateFiles.schedules), 'utf8')) as HeldSchedule[];
    } catch {
      return;
    }
    if (!runtime || !Array.isArray(held)) {
      return;
    }
    for (const entry of held) {
      const { target } = entry;
      const exists = target.assetIndex !== undefined ? runtime.config.assets[target.assetIndex] !== undefined : runtime.loops[target.controlLoopIndex] !== undefined;
      if (exists && Array.isArray(entry.schedule)) {
        runtime.schedule.setSchedule(target, entry.schedule, entry.messageId);
        this.schedulesHeld.set(scheduleKey(target), entry);
      }
    }
    if (this.schedulesHeld.size > 0) {
      this.log('info', `took up ${this.schedulesHeld.size} schedule(s) held before the restart`);
    }
  }

  /** Builds drivers, loops and tasks for a config, replacing what ran; throws when the config cannot be run (what ran is gone then). */
  private async apply(config: DeviceConfig): Promise<void> {
    await this.teardown();
    const links = this.parts.createLinks(this.log);
    const context = { links, log: this.log };
    const drivers: (AssetDriver | undefined)[] = [];
    const loops: (ControlLoop | undefined)[] = [];
    const arbiter = this.arbiter ?? new SetpointArbiter(config);
    arbiter.configure(config);
    this.arbiter = arbiter;
    const schedule =
      this.schedule ??
      new ScheduleRunner({
        config,
        arbiter,
        execute: async (index, command) => (await this.runtime?.drivers[index]?.execute(command)) ?? false,
        clock: () => this.clock.now(),
        log: this.log,
      });
    schedule.configure(config);
    this.schedule = schedule;
    this.runtime = { config, links, drivers, loops, arbiter, schedule, tasks: [] };
    const unsupported: DeviceReport[] = [];
    config.assets.forEach((asset, index) => {
      const driver = this.parts.createDriver(index, asset, context) ?? undefined;
      drivers.push(driver);
      if (!driver) {
        unsupported.push(this.errorReport(agentErrorCodes.unsupportedAssetType, `asset ${index} (${asset.type}): no driver for this asset type; it is not read`, { asset: index }));
      }
    });
    config.activeControl.forEach((loopConfig, index) => {
      const loop = this.parts.createControlLoop(index, loopConfig, config) ?? undefined;
      loops.push(loop);
      if (!loop) {
        unsupported.push(this.errorReport(agentErrorCodes.unsupportedControlLoop, `control loop ${index} (${loopConfig.type}): not built on this agent; it does not run`));
      }
    });
    for (const report of unsupported) {
      await this.report(report);
    }
    this.runtime.tasks = this.tasksOf(this.runtime);
    this.scheduleNext();
  }

  private async teardown(): Promise<void> {
    const runtime = this.runtime;
    this.runtime = null;
    if (!runtime) {
      return;
    }
    for (const loop of runtime.loops) {
      await loop?.close().catch((error: unknown) => this.log('warn', 'a control loop did not close', { error: String(error) }));
    }
    for (const driver of runtime.drivers) {
      await driver?.close().catch((error: unknown) => this.log('warn', 'a driver did not close', { error: String(error) }));
    }
    await runtime.links.close().catch((error: unknown) => this.log('warn', 'the Modbus links did not close', { error: String(error) }));
  }

  private async setConfig(messageId: string, config: DeviceConfig): Promise<void> {
    const previous = this.runtime?.config ?? defaultDeviceConfig;
    try {
      await this.serialize(() => this.apply(config));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log('error', 'a config could not be run; the previous one runs again', { error: reason });
      await this.serialize(() => this.apply(previous));
      await this.report(this.errorReport(agentErrorCodes.configNotApplied, `The config could not be run: ${reason}`, { messageId, messageType: 'setConfig' }));
      return;
    }
    await this.persistConfig(config);
    await this.report({ type: 'config', at: this.at(), observations: { messageId, source: 'cloud', config: toJson(config) } });
    this.log('info', 'config from the cloud applied', { assets: config.assets.length, loops: config.activeControl.length });
  }

  // -------------------------------------------------------------------------------------------
  // The work on the clock: polls, loops, reports
  // -------------------------------------------------------------------------------------------

  private tasksOf(runtime: Runtime): Task[] {
    const now = this.clock.now();
    const { config } = runtime;
    const task = (intervalSeconds: number, run: (now: number) => Promise<void>): Task => ({ intervalMs: Math.max(1, Math.round(intervalSeconds * 1000)), nextAt: now, run });
    const flashIntervals = config.assets.map((asset) => flashIntervalOf(asset));
    const pollMs = Math.max(
      fastestPollMs,
      Math.min(slowestPollMs, ...config.activeControl.map((loop) => loop.controlLoopSleep * 1000), ...flashIntervals.filter((interval): interval is number => interval !== null).map((interval) => interval * 1000)),
    );
    const tasks: Task[] = [task(pollMs / 1000, (at) => this.pollAndSchedule(runtime, at))];
    runtime.loops.forEach((loop, index) => {
      if (loop) {
        tasks.push(task(loop.sleepSeconds, (at) => this.step(runtime, loop, index, at)));
      }
    });
    // The arbiter writes after the loops of the same instant (tasks due together run in this order).
    tasks.push(task(pollMs / 1000, (at) => runtime.arbiter.apply(at, runtime.drivers)));
    tasks.push(task(config.reportingIntervalInSec, (at) => this.assetReports(runtime, at, null)));
    flashIntervals.forEach((interval, index) => {
      if (interval !== null && runtime.drivers[index]) {
        tasks.push(task(interval, (at) => this.assetReports(runtime, at, index)));
      }
    });
    runtime.loops.forEach((loop, index) => {
      const loopConfig = config.activeControl[index];
      if (loop && loopConfig) {
        tasks.push(task(loopConfig.reportingInterval ?? config.reportingIntervalInSec, (at) => this.loopReports(loop, at)));
      }
    });
    return tasks;
  }

  private scheduleNext(): void {
    const runtime = this.runtime;
    if (this.stopped || !runtime || runtime.tasks.length === 0) {
      return;
    }
    const next = Math.min(...runtime.tasks.map((task) => task.nextAt));
    this.cancelTimer?.();
    this.cancelTimer = this.clock.schedule(() => this.runDue(), next - this.clock.now());
  }

  /** Runs every task due now, in order; a task that failed is logged and runs again at its next time. */
  private runDue(): Promise<void> {
    this.cancelTimer = null;
    if (this.running || this.stopped) {
      return Promise.resolve();
    }
    this.running = true;
    return this.serialize(async () => {
      const runtime = this.runtime;
      const now = this.clock.now();
      for (const task of runtime?.tasks ?? []) {
        if (task.nextAt > now || this.runtime !== runtime) {
          continue;
        }
        // Late work is not made up: the next run is an interval after this one.
        task.nextAt += task.intervalMs;
        if (task.nextAt <= now) {
          task.nextAt = now + task.intervalMs;
        }
        try {
          await task.run(now);
        } catch (error) {
          this.log('error', 'agent task failed', { error: error instanceof Error ? error.message : String(error) });
        }
      }
    }).finally(() => {
      this.running = false;
      this.scheduleNext();
    });
  }

  /** Reads every asset, then brings the cloud's schedules to what they say now (before the loops, which see their scheduled limits). */
  private async pollAndSchedule(runtime: Runtime, now: number): Promise<void> {
    await Promise.all(runtime.drivers.map((driver) => driver?.poll()));
    const reports = await runtime.schedule.step(
      runtime.drivers.map((driver) => driver?.state),
      now,
    );
    for (const report of reports) {
      await this.report(report);
    }
  }

  private async step(runtime: Runtime, loop: ControlLoop, index: number, now: number): Promise<void> {
    const assets = runtime.drivers.map((driver) => driver?.state);
    const cloudSetpoints = new Map<number, number>();
    runtime.config.assets.forEach((_asset, assetIndex) => {
      const cloud = runtime.arbiter.desired(assetIndex).cloud;
      if (cloud !== undefined) {
        cloudSetpoints.set(assetIndex, cloud);
      }
    });
    const scheduledLimit = runtime.schedule.scheduledLimit(index);
    const step = await loop.step({
      now,
      config: runtime.config,
      assets,
      cloudSetpoints,
      baseline: runtime.arbiter.baselines(now, assets),
      ...(scheduledLimit === undefined ? {} : { scheduledLimit }),
    });
    runtime.arbiter.applyLoopStep(index, step);
    for (const [assetIndex, command] of step.commands ?? []) {
      await runtime.drivers[assetIndex]?.execute(command);
    }
  }

  /** The regular report of every asset (`only` null), or the flash report of one. */
  private async assetReports(runtime: Runtime, now: number, only: number | null): Promise<void> {
    const at = new Date(now);
    for (const [index, driver] of runtime.drivers.entries()) {
      if (!driver || (only !== null && index !== only)) {
        continue;
      }
      const report = driver.buildReport(at, runtime.arbiter.observations(index), only !== null);
      if (report) {
        await this.report(report);
      }
    }
  }

  private async loopReports(loop: ControlLoop, now: number): Promise<void> {
    const at = new Date(now);
    await this.report(loop.statusReport(at));
    for (const report of loop.drainReports(at)) {
      await this.report(report);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Reports
  // -------------------------------------------------------------------------------------------

  private at(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** Sends a report (stored on disk first); one that does not pass the contract is logged, not sent (the cloud would refuse it). */
  private async report(report: DeviceReport): Promise<void> {
    const checked = validateReport(report);
    if (!checked.ok) {
      this.log('error', `report ${report.type} does not pass its schema; not sent`, { issues: checked.issues });
      return;
    }
    await this.client?.report(report);
  }

  private errorReport(code: string, message: string, about: { messageId?: string; messageType?: string; asset?: number } = {}): ReportOf<'error'> {
    return {
      type: 'error',
      at: this.at(),
      ...(about.asset === undefined ? {} : { asset: about.asset }),
      observations: {
        ...(about.messageId === undefined ? {} : { messageId: about.messageId }),
        ...(about.messageType === undefined ? {} : { messageType: about.messageType }),
        code,
        message: message.slice(0, 2000),
      },
    };
  }

  /** After a reconnection: what the full store did not keep, as one error report (then the counter starts again). */
  private async reportDropped(): Promise<void> {
    const client = this.client;
    if (!client) {
      return;
    }
    const dropped = client.dropped;
    if (dropped.regular + dropped.flash === 0) {
      return;
    }
    const since = dropped.since === null ? '' : ` since ${new Date(dropped.since).toISOString()}`;
    await this.report(
      this.errorReport(
        agentErrorCodes.reportsDropped,
        `The report store was full${since}: ${dropped.regular + dropped.flash} reports were not kept (regular ${dropped.regular}, flash ${dropped.flash}).`,
      ),
    );
    await client.clearDropped(dropped);
    this.log('warn', 'reports dropped while the store was full', { regular: dropped.regular, flash: dropped.flash });
  }

  // -------------------------------------------------------------------------------------------
  // Cloud-to-device messages (device-model.md section 3.10)
  // -------------------------------------------------------------------------------------------

  /** Carries out one message and answers it with its report, an ack report, or an error report; resolves once answered (then the client acknowledges the envelope). */
  /** One message at a time, in their order (the gateway client hands them so). */
  private async onMessage(incoming: IncomingMessage): Promise<void> {
    try {
      await this.answer(incoming);
    } finally {
      const work = this.afterAnswers.splice(0);
      // A timer runs after the client's acknowledgement, which follows this promise at once.
      setTimeout(() => {
        for (const piece of work) {
          piece().catch((error: unknown) => this.log('error', 'work after a message failed', { error: String(error) }));
        }
      }, 0);
    }
  }

  private async answer({ id, payload }: IncomingMessage): Promise<void> {
    let message: CloudToDeviceMessage;
    try {
      message = cloudToDeviceMessageSchema.validateSync(payload, { abortEarly: false });
    } catch (error) {
      const type = typeof (payload as { type?: unknown } | null)?.type === 'string' ? String((payload as { type: string }).type).slice(0, 64) : undefined;
      const isConfig = type === 'setConfig';
      const issues = isConfig ? configIssues((payload as { config?: unknown }).config) : issuesText(error);
      const text = Array.isArray(issues) ? issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ') : issues;
      this.log('warn', `message ${id} refused: ${text}`);
      await this.report(
        this.errorReport(isConfig ? agentErrorCodes.invalidConfig : agentErrorCodes.invalidMessage, `The message is not valid: ${text}`, { messageId: id, ...(type ? { messageType: type } : {}) }),
      );
      return;
    }
    this.log('info', `message ${id}: ${message.type}`);
    try {
      const acknowledged = await this.carryOut(id, message);
      if (acknowledged) {
        await this.report({ type: 'ack', at: this.at(), observations: { messageId: id, messageType: message.type } });
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log('error', `message ${id} (${message.type}) failed: ${reason}`);
      await this.report(this.errorReport(agentErrorCodes.commandFailed, reason, { messageId: id, messageType: message.type }));
    }
  }

  /** Carries out a message; resolves true when it was carried out (an ack report follows), false when it was answered with an error report. */
  private async carryOut(id: string, message: CloudToDeviceMessage): Promise<boolean> {
    const fail = async (code: string, text: string, asset?: number) => {
      await this.report(this.errorReport(code, text, { messageId: id, messageType: message.type, ...(asset === undefined ? {} : { asset }) }));
      return false;
    };
    switch (message.type) {
      case 'setConfig':
        await this.setConfig(id, message.config);
        return true;
      case 'executeModbusCommand':
        return this.executeModbusCommand(id, message);
      case 'executeOPCXMLDACommand':
        return fail(agentErrorCodes.noOpcXmlDaClient, 'This agent has no OPC XML-DA client.');
      case 'executeVestasAPCommand':
        return fail(agentErrorCodes.noVestasApClient, 'This agent has no Vestas AP client.', message.assetIndex);
      case 'getMetadata':
        return this.getMetadata(id, message, fail);
      case 'reboot':
        this.afterAnswer(async () => {
          if (message.hard) {
            await this.exit(agentExitCodes.hardReboot, 'hard reboot asked by the cloud');
          } else {
            await this.restart();
          }
        });
        return true;
      case 'forceUpdate':
        this.afterAnswer(() => this.exit(agentExitCodes.forceUpdate, 'update asked by the cloud'));
        return true;
      case 'reprovision':
        await writeFile(path.join(this.options.stateDirectory, stateFiles.reprovision), new Date(this.clock.now()).toISOString());
        this.afterAnswer(() => this.exit(agentExitCodes.reprovision, 'reprovisioning asked by the cloud'));
        return true;
      case 'debugPing':
        // The ack report is the echo.
        await this.report({ type: 'ack', at: this.at(), observations: { messageId: id, messageType: message.type, ...(message.payload === undefined ? {} : { payload: message.payload }) } });
        return false;
      case 'setAssetSchedule':
        return this.setAssetSchedule(id, message, fail);
      case 'setAssetParameters':
        return this.setAssetParameters(id, message, fail);
      case 'getJournal':
        await this.report({ type: 'journal', at: this.at(), observations: { messageId: id, lines: this.journal.tail(message.lines) } });
        return true;
      case 'getSignalQuality': {
        const signal = await readSignalQuality(this.system.run);
        if (!signal) {
          return fail(agentErrorCodes.noModem, 'This gateway has no cellular modem (ModemManager lists none).');
        }
        await this.report({ type: 'signalQuality', at: this.at(), observations: { messageId: id, ...signal } });
        return true;
      }
      case 'getRoutingTable':
        await this.report({ type: 'routingTable', at: this.at(), observations: { messageId: id, routes: await readRoutingTable(this.system) } });
        return true;
      case 'scanNetwork':
        await this.report({ type: 'networkScan', at: this.at(), observations: { messageId: id, hosts: await scanNetwork(this.system) } });
        return true;
      case 'openTunnel':
        try {
          await this.parts.openTunnel({ baseUrl: this.options.baseUrl, identity: this.options.identity, tunnelId: message.tunnelId, destination: message.destination, log: this.log });
        } catch (error) {
          return fail(agentErrorCodes.tunnelFailed, `The tunnel to ${message.destination} could not be opened: ${error instanceof Error ? error.message : String(error)}`);
        }
        return true;
      case 'ack':
        return true;
      default:
        return false;
    }
  }

  /** Runs `work` once the message is answered and its envelope acknowledged (the client acknowledges when onMessage resolves). */
  private afterAnswer(work: () => Promise<void>): void {
    this.afterAnswers.push(work);
  }

  private async exit(code: number, reason: string): Promise<void> {
    this.log('warn', `agent exiting with ${code}: ${reason}`);
    // The answer goes out first when the link allows; it stays on disk otherwise.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.client?.drained(), new Promise((resolve) => (timer = setTimeout(resolve, 2000)))]);
    clearTimeout(timer);
    await this.stop();
    this.options.onExit?.(code, reason);
  }

  private async executeModbusCommand(id: string, message: MessageOf<'executeModbusCommand'>): Promise<boolean> {
    const links = this.runtime?.links ?? this.parts.createLinks(this.log);
    try {
      const report = await this.parts.executeModbusCommand(links, message, id, new Date(this.clock.now()));
      await this.report(report);
      return report.observations.error === undefined;
    } finally {
      if (!this.runtime || this.runtime.links !== links) {
        // A pool made for this one command (no config runs) goes with it.
        await links.close();
      }
    }
  }

  private async getMetadata(id: string, message: MessageOf<'getMetadata'>, fail: (code: string, text: string, asset?: number) => Promise<boolean>): Promise<boolean> {
    const drivers = this.runtime?.drivers ?? [];
    const indices = message.assetIndex === undefined ? drivers.map((_driver, index) => index) : [message.assetIndex];
    if (message.assetIndex !== undefined && !drivers[message.assetIndex]) {
      return fail(agentErrorCodes.unknownAsset, `No asset with a driver at index ${message.assetIndex}.`, message.assetIndex);
    }
    for (const index of indices) {
      const driver = drivers[index];
      if (!driver) {
        continue;
      }
      const metadata = (await driver.metadata()) ?? {};
      await this.report({ type: 'assetMetadata', at: this.at(), asset: index, observations: { messageId: id, ...metadataObservations(metadata, driver.config.nominalActivePower) } });
    }
    return true;
  }

  private async setAssetSchedule(id: string, message: MessageOf<'setAssetSchedule'>, fail: (code: string, text: string, asset?: number) => Promise<boolean>): Promise<boolean> {
    const runtime = this.runtime;
    if (!runtime) {
      return fail(agentErrorCodes.configNotApplied, 'No config runs.');
    }
    if (message.assetIndex !== undefined) {
      if (!runtime.config.assets[message.assetIndex]) {
        return fail(agentErrorCodes.unknownAsset, `No asset at index ${message.assetIndex}.`);
      }
    } else if (!runtime.loops[message.controlLoopIndex ?? -1]) {
      return fail(agentErrorCodes.unknownControlLoop, `No running control loop at index ${message.controlLoopIndex ?? -1}.`);
    }
    const target: ScheduleTarget = message.assetIndex !== undefined ? { assetIndex: message.assetIndex } : { controlLoopIndex: message.controlLoopIndex ?? -1 };
    runtime.schedule.setSchedule(target, message.schedule, id);
    if (message.schedule.length > 0) {
      this.schedulesHeld.set(scheduleKey(target), { target, schedule: message.schedule, messageId: id });
    } else {
      this.schedulesHeld.delete(scheduleKey(target));
    }
    await this.persistSchedules();
    this.log('info', `schedule of ${message.schedule.length} items taken`, { id });
    return true;
  }

  private async setAssetParameters(id: string, message: MessageOf<'setAssetParameters'>, fail: (code: string, text: string, asset?: number) => Promise<boolean>): Promise<boolean> {
    const runtime = this.runtime;
    const { parameters } = message;
    if (message.assetIndex !== undefined) {
      const driver = runtime?.drivers[message.assetIndex];
      if (!driver) {
        return fail(agentErrorCodes.unknownAsset, `No asset with a driver at index ${message.assetIndex}.`, message.assetIndex);
      }
      if (parameters.type !== 'demoBattery' || !driver.applyParameters || !(await driver.applyParameters(parameters))) {
        return fail(agentErrorCodes.unsupportedParameters, `Asset ${message.assetIndex} (${driver.config.type}) takes no ${parameters.type} parameters.`, message.assetIndex);
      }
      await this.report({ type: 'executedAssetParameters', at: this.at(), asset: message.assetIndex, observations: { messageId: id, parameters: toJson(parameters) } });
      return true;
    }
    const index = message.controlLoopIndex ?? -1;
    const loop = runtime?.loops[index];
    if (!loop) {
      return fail(agentErrorCodes.unknownControlLoop, `No running control loop at index ${index}.`);
    }
    if (parameters.type !== 'hedno' || !loop.applyParameters || !loop.applyParameters(parameters)) {
      return fail(agentErrorCodes.unsupportedParameters, `Control loop ${index} (${loop.type}) takes no ${parameters.type} parameters.`);
    }
    await this.report({ type: 'executedAssetParameters', at: this.at(), controller: index, observations: { messageId: id, parameters: toJson(parameters) } });
    return true;
  }
}

/** The flash interval of an asset, s; null when it sends no flash reports. */
function flashIntervalOf(asset: DeviceConfig['assets'][number]): number | null {
  if ('enableFlashReport' in asset && asset.enableFlashReport !== undefined) {
    return asset.enableFlashReport.reportingInterval;
  }
  if ('noFlashReport' in asset && asset.noFlashReport === false) {
    return 1;
  }
  return null;
}

const metadataFields = ['manufacturer', 'model', 'serialNumber', 'firmwareVersion', 'hardwareVersion'] as const;

/** A driver's metadata as the assetMetadata report's fields; the rest under details. */
function metadataObservations(metadata: Record<string, string | number | null>, nominal: number | undefined): Omit<ReportOf<'assetMetadata'>['observations'], 'messageId'> {
  const observations: Record<string, unknown> = {};
  const details: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if ((metadataFields as readonly string[]).includes(key)) {
      if (value !== null) {
        observations[key] = String(value).slice(0, 200);
      }
    } else if (key === 'nominalActivePower' && typeof value === 'number') {
      observations.nominalActivePower = value;
    } else {
      details[key] = value;
    }
  }
  if (observations.nominalActivePower === undefined && nominal !== undefined) {
    observations.nominalActivePower = nominal;
  }
  return { ...observations, ...(Object.keys(details).length > 0 ? { details } : {}) } as Omit<ReportOf<'assetMetadata'>['observations'], 'messageId'>;
}

function toJson(value: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

function issuesText(error: unknown): { path: string; message: string }[] | string {
  if (error instanceof ValidationError) {
    return error.inner.length > 0 ? error.inner.map((inner) => ({ path: inner.path ?? '', message: inner.message })) : [{ path: error.path ?? '', message: error.message }];
  }
  return error instanceof Error ? error.message : String(error);
}
