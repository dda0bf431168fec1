import { ScheduleRunner } from '../control/schedule';
import { SetpointArbiter } from '../control/setpoints';
import { GatewayClient, type IncomingMessage } from '../gateway-client/client';
import type { GatewayIdentity } from '../gateway-client/provision';
import type { DeviceConfig } from '../../contracts/device/config';
import { Cadence } from './cadence';
import { systemClock, type AgentClock } from './clock';
import { HeldSchedules } from './held-schedules';
import { errorText, Journal, type AgentLog } from './journal';
import { answerMessage } from './messages/answer';
import type { AgentServices } from './messages/context';
import { defaultAgentParts, type AgentParts } from './parts';
import type { DeviceReport } from '../../contracts/hub/reports';
import { Reporter, toJson } from './reporter';
import { buildAssets, closeRuntime, defaultDeviceConfig, type Runtime } from './runtime';
import { AgentState, stateFiles } from './state';
import { defaultSystemProbes, type SystemProbes } from './system';
import { tasksOf } from './tasks';
import { WorkQueue } from './work-queue';
import type { HostNetwork } from '../network/host-network';
import { hostOutcomeReports } from '../network/host-reports';

export { agentExitCodes } from './exit-codes';
export { agentErrorCodes } from './reporter';
export { defaultDeviceConfig } from './runtime';
export { stateFiles } from './state';

/**
 * The gateway agent (device-model.md; docs/edge.md): runs the config the cloud sets, polls the
 * assets through their drivers, runs the control loops through the setpoint arbiter, sends
 * every report through the gateway client (stored on disk until the cloud acknowledges it) and
 * answers every cloud-to-device message of section 3.10.
 *
 * This class wires the parts and keeps their lifecycle: the state directory (state.ts), the
 * reports (reporter.ts), the work on the clock (tasks.ts, cadence.ts), the schedules held
 * (held-schedules.ts) and the messages, one handler per type (messages/).
 */

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
  /** The gateway's own network and VPN as the config asks (edge/network); left as they are without one. */
  hostNetwork?: HostNetwork;
  /** How often a network change that waits for the maintenance window looks whether it opened (default 60 s). */
  maintenanceCheckMs?: number;
  /** Asked to end the process with an agentExitCodes code (hard reboot, forceUpdate, reprovision), after the agent stopped. */
  onExit?: (code: number, reason: string) => void;
}

export class Agent {
  readonly journal: Journal;
  private readonly clock: AgentClock;
  private readonly parts: AgentParts;
  private readonly state: AgentState;
  private readonly reporter: Reporter;
  private readonly schedules: HeldSchedules;
  /** Work on the runtime, one piece at a time: the clock's tasks and config changes. */
  private readonly queue = new WorkQueue();
  private readonly cadence: Cadence;
  private readonly services: AgentServices;
  private client: GatewayClient | null = null;
  private runtime: Runtime | null = null;
  /** Kept across configs: the arbiter starts afresh with each, the schedules of assets and loops still there carry on. */
  private arbiter: SetpointArbiter | null = null;
  private schedule: ScheduleRunner | null = null;
  /** Work a message asks for once it is answered: a restart, an exit. */
  private readonly afterAnswers: (() => Promise<void>)[] = [];
  private cancelMaintenanceCheck: (() => void) | null = null;

  constructor(private readonly options: AgentOptions) {
    this.clock = options.clock ?? systemClock;
    this.journal = new Journal(() => this.clock.now(), options.log);
    this.parts = { ...defaultAgentParts, ...options.parts };
    const log = this.journal.log;
    this.state = new AgentState(options.stateDirectory, log);
    this.reporter = new Reporter(this.clock, log, () => this.client);
    this.schedules = new HeldSchedules(this.state, this.clock, log);
    this.cadence = new Cadence(this.clock, this.queue, log, () => this.runtime);
    this.services = {
      clock: this.clock,
      log,
      journal: this.journal,
      parts: this.parts,
      system: { ...defaultSystemProbes, ...options.system },
      connection: { baseUrl: options.baseUrl, identity: options.identity },
      state: this.state,
      reporter: this.reporter,
      schedules: this.schedules,
      runtime: () => this.runtime,
      host: options.hostNetwork ?? null,
      run: (config) => this.queue.run(() => this.apply(config)),
      afterAnswer: (work) => void this.afterAnswers.push(work),
      restart: () => this.restart(),
      exit: (code, reason) => this.exit(code, reason),
    };
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
    this.cadence.start();
    await this.state.prepare();
    const client = new GatewayClient({
      baseUrl: this.options.baseUrl,
      identity: this.options.identity,
      storeDirectory: this.state.file(stateFiles.reports),
      version: this.options.version,
      networkInterface: this.options.networkInterface,
      maxStoreBytes: this.options.maxStoreBytes,
      minBackoffMs: this.options.minBackoffMs,
      maxBackoffMs: this.options.maxBackoffMs,
      onMessage: (message) => this.onMessage(message),
      onConnected: () => void this.reporter.sendDropped(),
      onError: (error) => this.log('warn', `cloud: ${error.key}: ${error.message}`, error.ids ? { ids: error.ids } : undefined),
    });
    this.client = client;
    await client.start();
    let stored = await this.state.readConfig();
    let unsupported: DeviceReport[];
    try {
      unsupported = await this.services.run(stored ?? defaultDeviceConfig);
    } catch (error) {
      // A stored config that cannot run now must not keep the gateway from the cloud, which can send another.
      this.log('error', 'the stored config could not be run; running the default one', { error: errorText(error) });
      stored = null;
      unsupported = await this.services.run(defaultDeviceConfig);
    }
    await this.queue.run(() => this.schedules.restore(this.runtime));
    const config = stored ?? defaultDeviceConfig;
    await this.reporter.send({ type: 'config', at: this.reporter.at(), observations: { source: stored ? 'local' : 'default', config: toJson(config) } });
    for (const report of unsupported) {
      await this.reporter.send(report);
    }
    await this.resumeHostNetwork(stored);
    this.log('info', `agent started with the ${stored ? 'stored' : 'default'} config`, { assets: config.assets.length, loops: config.activeControl.length });
    this.cadence.scheduleNext();
  }

  /** Stops the loops and drivers and closes the connection; unsent reports stay on disk for the next start. */
  async stop(): Promise<void> {
    this.cadence.stop();
    this.cancelMaintenanceCheck?.();
    this.cancelMaintenanceCheck = null;
    await this.queue.idle();
    await this.teardown();
    await this.options.hostNetwork?.close();
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

  /** Builds drivers, loops and tasks for a config, replacing what ran; throws when the config cannot be run (what ran is gone then). */
  private async apply(config: DeviceConfig): Promise<DeviceReport[]> {
    await this.teardown();
    const links = this.parts.createLinks(this.log);
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
    const runtime: Runtime = { config, links, drivers: [], loops: [], arbiter, schedule, tasks: [] };
    this.runtime = runtime;
    const { drivers, loops, unsupported } = buildAssets(config, links, this.parts, this.log, this.reporter);
    runtime.drivers = drivers;
    runtime.loops = loops;
    runtime.tasks = tasksOf(runtime, this.clock.now(), (report) => this.reporter.send(report));
    this.cadence.scheduleNext();
    return unsupported;
  }

  /**
   * The stored config's network and VPN at start (the VPN client is the agent's child and must
   * run again; a change that waited for the window still does), and the look, each
   * maintenanceCheckMs, whether a waiting change may run now. The default config never touches
   * the gateway's network: a gateway the cloud has not configured keeps what it was installed with.
   */
  private async resumeHostNetwork(stored: DeviceConfig | null): Promise<void> {
    const host = this.options.hostNetwork;
    if (!host) {
      return;
    }
    await host.load();
    if (stored) {
      const outcome = await this.queue.run(() => host.change(stored));
      for (const report of hostOutcomeReports(outcome, this.reporter, false)) {
        await this.reporter.send(report);
      }
    }
    const check = async (): Promise<void> => {
      const waited = host.isPending;
      const outcome = waited ? await this.queue.run(() => host.runPendingIfDue()) : null;
      if (outcome) {
        for (const report of hostOutcomeReports(outcome, this.reporter, true)) {
          await this.reporter.send(report);
        }
      }
      this.cancelMaintenanceCheck = this.clock.schedule(check, this.options.maintenanceCheckMs ?? 60_000);
    };
    this.cancelMaintenanceCheck = this.clock.schedule(check, this.options.maintenanceCheckMs ?? 60_000);
  }

  private async teardown(): Promise<void> {
    const runtime = this.runtime;
    this.runtime = null;
    if (runtime) {
      await closeRuntime(runtime, this.log);
    }
  }

  /** One message at a time, in their order (the gateway client hands them so); resolves once answered (then the client acknowledges the envelope). */
  private async onMessage(incoming: IncomingMessage): Promise<void> {
    try {
      await answerMessage(incoming, this.services);
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

  private async exit(code: number, reason: string): Promise<void> {
    this.log('warn', `agent exiting with ${code}: ${reason}`);
    // The answer goes out first when the link allows; it stays on disk otherwise.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.client?.drained(), new Promise((resolve) => (timer = setTimeout(resolve, 2000)))]);
    clearTimeout(timer);
    await this.stop();
    this.options.onExit?.(code, reason);
  }
}
