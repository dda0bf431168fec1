import type { DeviceConfig } from '../../contracts/device/config';
import { runHostCommand, type HostCommandOptions } from './commands';

/** The config's `network` (device-model.md section 3.1). */
export type NetworkConfig = DeviceConfig['network'];

/** A slot of the config's network: the two Ethernet interfaces and the cellular modem. */
export type NetworkSlot = 'eth0' | 'eth1' | 'cellular';
export const networkSlots: readonly NetworkSlot[] = ['eth0', 'eth1', 'cellular'];

/** The kernel interface behind each Ethernet slot; a gateway's are eth0 and eth1. The modem is any (`*`). */
export interface InterfaceNames {
  eth0: string;
  eth1: string;
}
export const defaultInterfaceNames: InterfaceNames = { eth0: 'eth0', eth1: 'eth1' };

/**
 * The profiles the agent owns are named `gridport-<slot>`: it adds, changes and deletes these
 * and never another profile of the gateway (a distribution's "Wired connection 1", a
 * technician's own).
 */
export const profilePrefix = 'gridport-';
export function profileName(slot: NetworkSlot): string {
  return `${profilePrefix}${slot}`;
}

/** Brings the gateway's interfaces to a config's network. */
export interface NetworkBackend {
  /**
   * Writes and activates the profile of each slot the network names and removes the agent's
   * profiles of the slots it leaves out. Answers the slots whose profile did not come up, with
   * why; throws only when a profile could not even be written.
   */
  apply(network: NetworkConfig): Promise<{ slot: NetworkSlot; reason: string }[]>;
}

/** One nmcli invocation and the slot it activates, if it is a `connection up`. */
export interface NmcliStep {
  argv: string[];
  activates?: NetworkSlot;
}

function ipv4ToNumber(ip: string): number {
  return ip.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
}

/** Whether `ip` is inside `network`/`prefix`. */
function inSubnet(ip: string, network: string, prefix: number): boolean {
  if (prefix === 0) {
    return true;
  }
  const size = 2 ** (32 - prefix);
  return Math.floor(ipv4ToNumber(ip) / size) === Math.floor(ipv4ToNumber(network) / size);
}

/**
 * The slot a routeData entry belongs to: the static interface whose subnet holds its nextHop;
 * else the first slot in use (eth0, eth1, cellular), since a DHCP subnet is known only once leased.
 */
function slotOfRoute(network: NetworkConfig, nextHop: string, used: NetworkSlot[]): NetworkSlot | undefined {
  for (const slot of ['eth0', 'eth1'] as const) {
    const settings = network[slot];
    if (settings?.type === 'static' && inSubnet(nextHop, settings.ip, settings.routingPrefix)) {
      return slot;
    }
  }
  return used[0];
}

/** The nmcli property values of one slot (nm-settings-nmcli(5)): IPv4, DNS, metric and routes. */
function slotSettings(network: NetworkConfig, slot: NetworkSlot, routes: string[]): string[] {
  const dns = network.dns;
  const common = [
    'connection.autoconnect',
    'yes',
    'ipv4.dns',
    (dns?.servers ?? []).join(','),
    'ipv4.ignore-auto-dns',
    dns?.ignoreAuto === true ? 'yes' : 'no',
    'ipv4.dns-priority',
    String(dns?.priority ?? 0),
    'ipv4.routes',
    routes.join(', '),
    'ipv4.may-fail',
    'no',
  ];
  if (slot === 'cellular') {
    const metric = network.cellular?.routeMetric ?? network.routeMetric;
    return ['gsm.apn', network.cellular?.apn ?? '', 'ipv4.method', 'auto', 'ipv4.route-metric', String(metric ?? -1), ...common];
  }
  const settings = network[slot];
  const metric = ['ipv4.route-metric', String(network.routeMetric ?? -1)];
  if (settings?.type === 'static') {
    return [
      'ipv4.method',
      'manual',
      'ipv4.addresses',
      `${settings.ip}/${settings.routingPrefix}`,
      'ipv4.gateway',
      settings.gateway ?? '',
      ...metric,
      ...common,
    ];
  }
  // Clearing addresses and gateway turns a static profile into a DHCP one in place.
  return ['ipv4.method', 'auto', 'ipv4.addresses', '', 'ipv4.gateway', '', ...metric, ...common];
}

/** The slots a network puts to use: an Ethernet slot that is not null, the cellular one when it has an APN. */
export function usedSlots(network: NetworkConfig): NetworkSlot[] {
  return networkSlots.filter((slot) => (slot === 'cellular' ? network.cellular?.apn !== undefined : network[slot] !== null && network[slot] !== undefined));
}

/**
 * The nmcli commands that bring the gateway to `network`, given the agent's profiles that exist
 * (`existing`, by name): for each slot in use a profile modified in place (or added) and
 * activated; for each other slot the agent's profile deleted, which takes its interface down.
 */
export function nmcliSteps(
  network: NetworkConfig,
  existing: ReadonlySet<string>,
  interfaces: InterfaceNames = defaultInterfaceNames,
  waitSeconds = 30,
): NmcliStep[] {
  const used = usedSlots(network);
  const routesOf = new Map<NetworkSlot, string[]>();
  for (const route of network.routeData ?? []) {
    const slot = slotOfRoute(network, route.nextHop, used);
    if (slot === undefined) {
      continue;
    }
    const text = `${route.dest}/${route.prefix ?? 32} ${route.nextHop}${route.metric === undefined ? '' : ` ${route.metric}`}`;
    routesOf.set(slot, [...(routesOf.get(slot) ?? []), text]);
  }
  const steps: NmcliStep[] = [];
  for (const slot of networkSlots) {
    const name = profileName(slot);
    if (!used.includes(slot)) {
      if (existing.has(name)) {
        steps.push({ argv: ['nmcli', 'connection', 'delete', name] });
      }
      continue;
    }
    const settings = slotSettings(network, slot, routesOf.get(slot) ?? []);
    if (existing.has(name)) {
      steps.push({ argv: ['nmcli', 'connection', 'modify', name, ...settings] });
    } else {
      const kind = slot === 'cellular' ? ['type', 'gsm', 'ifname', '*'] : ['type', 'ethernet', 'ifname', interfaces[slot]];
      steps.push({ argv: ['nmcli', 'connection', 'add', ...kind, 'con-name', name, ...settings] });
    }
    steps.push({ argv: ['nmcli', '--wait', String(waitSeconds), 'connection', 'up', name], activates: slot });
  }
  return steps;
}

/** NetworkManager through `nmcli`, on the gateway or (prefix, env) inside a test's namespace. */
export class NmcliBackend implements NetworkBackend {
  constructor(private readonly options: HostCommandOptions & { interfaces?: InterfaceNames; waitSeconds?: number } = {}) {}

  /** The agent's profiles that exist now. */
  async ownedProfiles(): Promise<Set<string>> {
    const listing = await runHostCommand(['nmcli', '--terse', '--fields', 'NAME', 'connection', 'show'], this.options);
    return new Set(
      listing
        .split('\n')
        .map((line) => line.trim())
        .filter((name) => name.startsWith(profilePrefix)),
    );
  }

  async apply(network: NetworkConfig): Promise<{ slot: NetworkSlot; reason: string }[]> {
    const steps = nmcliSteps(network, await this.ownedProfiles(), this.options.interfaces, this.options.waitSeconds);
    const down: { slot: NetworkSlot; reason: string }[] = [];
    const waitMs = ((this.options.waitSeconds ?? 30) + 10) * 1000;
    for (const step of steps) {
      if (step.activates === undefined) {
        await runHostCommand(step.argv, this.options);
        continue;
      }
      try {
        await runHostCommand(step.argv, this.options, waitMs);
      } catch (error) {
        down.push({ slot: step.activates, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    return down;
  }
}
