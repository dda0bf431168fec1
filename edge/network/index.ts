import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AgentLog } from '../agent/journal';
import type { HostCommandOptions } from './commands';
import { HostNetwork } from './host-network';
import { NmcliBackend, type InterfaceNames } from './nmcli';
import { OpenVpnProcess } from './openvpn';
import { cloudEndpoint, tcpReachable } from './reachability';

export { HostNetwork, hostSettingsOf, type HostNetworkOutcome, type HostSettings } from './host-network';
export { hostNetworkCodes } from './host-reports';

/** Files of the state directory this folder uses (docs/edge.md). */
export const hostNetworkFiles = {
  /** The network and VPN settings carried out last. */
  applied: 'host-network.json',
  /** The gateway's secret key, 64 hex characters (mode 0600): opens sealed VPN secrets. */
  secretKey: 'secret.key',
  /** The OpenVPN client config (mode 0600). */
  vpn: 'vpn',
} as const;

export interface HostNetworkSetup {
  stateDirectory: string;
  /** The cloud's base URL: after a change, its host and port must answer. */
  baseUrl: string;
  log: AgentLog;
  /** Where nmcli, openvpn and the probe run (a test's namespace); directly on a gateway. */
  commands?: HostCommandOptions;
  interfaces?: InterfaceNames;
  rollbackAfterMs?: number;
  vpnUpWithinMs?: number;
  probeEveryMs?: number;
  /** The agent's clock, for the maintenance window. */
  now?: () => number;
}

/** The gateway's secret key from the state directory; null without one. */
export async function readSecretKey(stateDirectory: string): Promise<string | null> {
  try {
    return (await readFile(path.join(stateDirectory, hostNetworkFiles.secretKey), 'utf8')).trim();
  } catch {
    return null;
  }
}

/** The gateway's network through NetworkManager (nmcli) and its VPN through openvpn, as the agent runs them on a gateway. */
export async function createHostNetwork(setup: HostNetworkSetup): Promise<HostNetwork> {
  const commands = setup.commands ?? {};
  const { host, port } = cloudEndpoint(setup.baseUrl);
  const network = new HostNetwork({
    backend: new NmcliBackend({ ...commands, ...(setup.interfaces ? { interfaces: setup.interfaces } : {}) }),
    vpn: new OpenVpnProcess(path.join(setup.stateDirectory, hostNetworkFiles.vpn), commands),
    stateFile: path.join(setup.stateDirectory, hostNetworkFiles.applied),
    secretKeyHex: await readSecretKey(setup.stateDirectory),
    cloudReachable: () => tcpReachable(host, port, 3000, commands),
    rollbackAfterMs: setup.rollbackAfterMs,
    vpnUpWithinMs: setup.vpnUpWithinMs,
    probeEveryMs: setup.probeEveryMs,
    now: setup.now,
    log: setup.log,
  });
  await network.load();
  return network;
}
