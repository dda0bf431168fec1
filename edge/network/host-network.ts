import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AgentLog } from '../agent/journal';
import { withinMaintenanceWindow, type MaintenanceWindow } from './maintenance-window';
import type { NetworkBackend, NetworkConfig } from './nmcli';
import { openVpnClientConfig, type VpnConfig, type VpnRunner } from './openvpn';

/** What the config asks of the gateway itself: its network and its VPN. */
export interface HostSettings {
  network: NetworkConfig;
  vpn: VpnConfig | null;
}

/** How a change of the gateway's network and VPN ended. */
export type HostNetworkOutcome =
  /** Already as asked: nothing was touched. */
  | { kind: 'unchanged' }
  /** Outside the maintenance window: the change waits for it. */
  | { kind: 'pending'; window: MaintenanceWindow }
  /** Carried out and the cloud reachable; `warnings` names what did not come up (a modem missing, the VPN still trying). */
  | { kind: 'applied'; warnings: string[] }
  /** Refused before anything was touched (a sealed secret this gateway cannot open). */
  | { kind: 'refused'; reason: string }
  /** Carried out, the cloud unreachable until the deadline: the previous settings were restored (`restored`: the cloud is reachable again). */
  | { kind: 'rolledBack'; reason: string; restored: boolean };

export interface HostNetworkOptions {
  backend: NetworkBackend;
  /** The VPN client; null where the agent does not run one. */
  vpn: VpnRunner | null;
  /** Where the settings last carried out are kept (the state directory's host-network.json). */
  stateFile: string;
  /** The gateway's secret key (64 hex characters) that opens sealed VPN secrets; null without one. */
  secretKeyHex: string | null;
  /** Whether the cloud can be reached now (a TCP connection to the hub). */
  cloudReachable: () => Promise<boolean>;
  /** How long the cloud may stay unreachable after a change before the previous settings are restored (default 120 s). */
  rollbackAfterMs?: number;
  /** How long the VPN has to come up before it is reported as still trying (default 30 s). */
  vpnUpWithinMs?: number;
  /** How often reachability is asked while waiting (default 2 s). */
  probeEveryMs?: number;
  /** The agent's clock, for the maintenance window. */
  now?: () => number;
  log: AgentLog;
}

/** A network that uses none of the agent's profiles: the state before the agent first changed anything. */
const untouchedNetwork: NetworkConfig = { eth0: null, eth1: null, routeData: [] };

/** JSON with keys sorted, so two settings compare by content. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}

/** What a config asks of the gateway itself; a DeviceConfig is one. */
export interface HostConfig {
  network: NetworkConfig;
  vpn?: VpnConfig | null;
  maintenanceWindow?: MaintenanceWindow | null;
}

export function hostSettingsOf(config: HostConfig): HostSettings {
  return { network: config.network, vpn: config.vpn ?? null };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The gateway's own network and VPN as the config asks (docs/edge.md "The gateway's own
 * network"): a change is disruptive, so it runs only inside the config's maintenance window
 * (pending until then); once carried out, the cloud must be reachable within
 * `rollbackAfterMs`, else the previous settings are restored. Only a change touches the host:
 * the same settings again leave every profile as it is.
 */
export class HostNetwork {
  private applied: HostSettings | null = null;
  private pending: HostSettings | null = null;
  private pendingWindow: MaintenanceWindow | null = null;
  private vpnRunning = false;

  constructor(private readonly options: HostNetworkOptions) {}

  /** Reads the settings last carried out (host-network.json). */
  async load(): Promise<void> {
    try {
      this.applied = JSON.parse(await readFile(this.options.stateFile, 'utf8')) as HostSettings;
    } catch {
      this.applied = null;
    }
  }

  /** The settings carried out last, null before the first change. */
  get current(): HostSettings | null {
    return this.applied;
  }

  /** Whether a change waits for the maintenance window. */
  get isPending(): boolean {
    return this.pending !== null;
  }

  /** Brings the gateway to a config's network and VPN, now or (outside its maintenance window) later: see HostNetworkOutcome. */
  async change(config: HostConfig): Promise<HostNetworkOutcome> {
    const desired = hostSettingsOf(config);
    if (this.applied !== null && canonical(desired) === canonical(this.applied)) {
      this.pending = null;
      this.pendingWindow = null;
      return this.keepVpnRunning();
    }
    const window = config.maintenanceWindow ?? null;
    if (!withinMaintenanceWindow(window, new Date(this.now()))) {
      this.pending = desired;
      this.pendingWindow = window;
      this.options.log('info', `network change waits for the maintenance window ${window?.start}-${window?.end}`);
      return { kind: 'pending', window: window as MaintenanceWindow };
    }
    return this.carryOut(desired);
  }

  /** Carries out the change that waits, once inside its window; null when none waits or the window is not open yet. */
  async runPendingIfDue(): Promise<HostNetworkOutcome | null> {
    const pending = this.pending;
    if (pending === null || !withinMaintenanceWindow(this.pendingWindow, new Date(this.now()))) {
      return null;
    }
    this.pending = null;
    this.pendingWindow = null;
    return this.carryOut(pending);
  }

  /** Stops the VPN client (the agent stops); the profiles stay, NetworkManager keeps them up. */
  async close(): Promise<void> {
    this.vpnRunning = false;
    await this.options.vpn?.stop();
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** After a restart the profiles are still up but the VPN client, a child of the agent, is not. */
  private async keepVpnRunning(): Promise<HostNetworkOutcome> {
    const vpn = this.applied?.vpn ?? null;
    if (vpn === null || this.vpnRunning || this.options.vpn === null) {
      return { kind: 'unchanged' };
    }
    const warnings: string[] = [];
    await this.startVpn(openVpnClientConfig(vpn, this.options.secretKeyHex), warnings);
    return warnings.length === 0 ? { kind: 'unchanged' } : { kind: 'applied', warnings };
  }

  private async carryOut(desired: HostSettings): Promise<HostNetworkOutcome> {
    let vpnText: string | null;
    try {
      // Secrets are opened before anything is touched: a config this gateway cannot read changes nothing.
      vpnText = desired.vpn === null ? null : openVpnClientConfig(desired.vpn, this.options.secretKeyHex);
    } catch (error) {
      return { kind: 'refused', reason: error instanceof Error ? error.message : String(error) };
    }
    const previous = this.applied;
    let warnings: string[] = [];
    let failure: string | null = null;
    try {
      warnings = await this.bringTo(desired.network, vpnText);
      if (!(await this.waitForCloud())) {
        failure = `the cloud was not reachable within ${Math.round(this.rollbackAfterMs / 1000)} s after the change${warnings.length > 0 ? ` (${warnings.join('; ')})` : ''}`;
      }
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    if (failure === null) {
      await this.remember(desired);
      this.options.log('info', 'network change carried out', warnings.length > 0 ? { warnings } : undefined);
      return { kind: 'applied', warnings };
    }
    this.options.log('error', `network change rolled back: ${failure}`);
    let restored = false;
    try {
      const previousVpn = previous?.vpn ? openVpnClientConfig(previous.vpn, this.options.secretKeyHex) : null;
      await this.bringTo(previous?.network ?? untouchedNetwork, previousVpn);
      restored = await this.waitForCloud();
    } catch (error) {
      this.options.log('error', 'restoring the previous network failed', { error: error instanceof Error ? error.message : String(error) });
    }
    return { kind: 'rolledBack', reason: failure, restored };
  }

  private get rollbackAfterMs(): number {
    return this.options.rollbackAfterMs ?? 120_000;
  }

  /** The profiles, then the VPN over them; answers what did not come up. */
  private async bringTo(network: NetworkConfig, vpnText: string | null): Promise<string[]> {
    const down = await this.options.backend.apply(network);
    const warnings = down.map(({ slot, reason }) => `${slot} did not come up: ${reason}`);
    if (vpnText === null) {
      this.vpnRunning = false;
      await this.options.vpn?.stop();
    } else {
      await this.startVpn(vpnText, warnings);
    }
    return warnings;
  }

  private async startVpn(text: string, warnings: string[]): Promise<void> {
    if (this.options.vpn === null) {
      warnings.push('vpn: this agent runs no VPN client');
      return;
    }
    // A client still trying counts as running: openvpn goes on retrying the server by itself.
    this.vpnRunning = true;
    try {
      await this.options.vpn.start(text, this.options.vpnUpWithinMs ?? 30_000);
    } catch (error) {
      warnings.push(`vpn: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async waitForCloud(): Promise<boolean> {
    // Real time, not the agent's clock: the probes take real time, whatever clock the agent runs on.
    const deadline = Date.now() + this.rollbackAfterMs;
    for (;;) {
      if (await this.options.cloudReachable()) {
        return true;
      }
      if (Date.now() >= deadline) {
        return false;
      }
      await sleep(this.options.probeEveryMs ?? 2000);
    }
  }

  private async remember(settings: HostSettings): Promise<void> {
    this.applied = settings;
    await mkdir(path.dirname(this.options.stateFile), { recursive: true, mode: 0o700 });
    const temporary = `${this.options.stateFile}.tmp`;
    await writeFile(temporary, JSON.stringify(settings), { mode: 0o600 });
    await rename(temporary, this.options.stateFile);
  }
}
