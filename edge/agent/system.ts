import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { ReportOf } from '../../contracts/hub/reports';

/**
 * What the agent reads of the gateway it runs on, for getRoutingTable, getSignalQuality and
 * scanNetwork. Every source is injectable, so tests read fixtures and probe loopback.
 */

export type Route = ReportOf<'routingTable'>['observations']['routes'][number];
export type ScannedHost = ReportOf<'networkScan'>['observations']['hosts'][number];
export type SignalQuality = Omit<ReportOf<'signalQuality'>['observations'], 'messageId'>;

/** Runs a program; resolves with its standard output, rejects when it cannot be run or fails. */
export type CommandRunner = (program: string, args: readonly string[], timeoutMs: number) => Promise<string>;

export interface SystemProbes {
  ipv4RouteFile: string;
  ipv6RouteFile: string;
  /** The kernel's IPv4 neighbour (ARP) table. */
  arpFile: string;
  run: CommandRunner;
  /** The local IPv4 networks to probe, as /24 prefixes such as `192.168.10` (the gateway's own interfaces by default). */
  scanNetworks: () => string[];
  /** Ports probed on every address of those networks. */
  scanPorts: readonly number[];
  /** How long one probe may wait for a connection, ms. */
  probeTimeoutMs: number;
  /** How long a whole scan may take, ms; probes not started by then are skipped. */
  scanTimeMs: number;
  /** Probes in flight at once. */
  scanConcurrency: number;
}

/** Modbus TCP's port: what scanNetwork looks for. */
export const modbusTcpPort = 502;

export const runCommand: CommandRunner = (program, args, timeoutMs) =>
  new Promise((resolve, reject) => {
    execFile(program, [...args], { timeout: timeoutMs, maxBuffer: 1024 * 1024 }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
  });

/** The /24 prefixes of the gateway's own IPv4 addresses (not loopback). */
export function localNetworks(): string[] {
  const prefixes = new Set<string>();
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) {
      if (address.family === 'IPv4' && !address.internal) {
        prefixes.add(address.address.split('.').slice(0, 3).join('.'));
      }
    }
  }
  return [...prefixes];
}

export const defaultSystemProbes: SystemProbes = {
  ipv4RouteFile: '/proc/net/route',
  ipv6RouteFile: '/proc/net/ipv6_route',
  arpFile: '/proc/net/arp',
  run: runCommand,
  scanNetworks: localNetworks,
  scanPorts: [modbusTcpPort],
  probeTimeoutMs: 500,
  scanTimeMs: 20_000,
  scanConcurrency: 64,
};

/** An IPv4 address as /proc/net/route writes it: 8 hex digits, little-endian. */
function ipv4FromHex(hex: string): string {
  const value = Number.parseInt(hex, 16);
  return [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff].join('.');
}

function prefixLength(maskHex: string): number {
  let bits = Number.parseInt(maskHex, 16) >>> 0;
  let count = 0;
  while (bits !== 0) {
    count += bits & 1;
    bits >>>= 1;
  }
  return count;
}

/** An IPv6 address as /proc/net/ipv6_route writes it (32 hex digits), in its short form. */
function ipv6FromHex(hex: string): string {
  const groups = hex.match(/.{4}/g) ?? [];
  // The URL parser writes an IPv6 host in its canonical short form.
  return new URL(`http://[${groups.join(':')}]/`).hostname.replace(/^\[|\]$/g, '');
}

/** Parses /proc/net/route: destination/prefix, gateway (absent when on-link), interface and metric. */
export function parseIpv4Routes(text: string): Route[] {
  const routes: Route[] = [];
  for (const line of text.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    const [iface, destination, gateway, , , , metric, mask] = fields;
    if (iface === undefined || destination === undefined || gateway === undefined || metric === undefined || mask === undefined || fields.length < 8) {
      continue;
    }
    const via = ipv4FromHex(gateway);
    routes.push({
      destination: `${ipv4FromHex(destination)}/${prefixLength(mask)}`,
      ...(via === '0.0.0.0' ? {} : { gateway: via }),
      interface: iface,
      metric: Number.parseInt(metric, 10),
    });
  }
  return routes;
}

/** Parses /proc/net/ipv6_route: destination, prefix length (hex), next hop, metric (hex), interface last. */
export function parseIpv6Routes(text: string): Route[] {
  const routes: Route[] = [];
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10) {
      continue;
    }
    const [destination, prefix, , , nextHop, metric] = fields;
    const iface = fields[fields.length - 1];
    if (destination === undefined || prefix === undefined || nextHop === undefined || metric === undefined || iface === undefined) {
      continue;
    }
    const via = ipv6FromHex(nextHop);
    routes.push({
      destination: `${ipv6FromHex(destination)}/${Number.parseInt(prefix, 16)}`,
      ...(via === '::' ? {} : { gateway: via }),
      interface: iface,
      metric: Number.parseInt(metric, 16),
    });
  }
  return routes;
}

/** The routing table of both families; a family whose file cannot be read is left out. */
export async function readRoutingTable(probes: Pick<SystemProbes, 'ipv4RouteFile' | 'ipv6RouteFile'>): Promise<Route[]> {
  const [ipv4, ipv6] = await Promise.all([readFile(probes.ipv4RouteFile, 'utf8').catch(() => ''), readFile(probes.ipv6RouteFile, 'utf8').catch(() => '')]);
  return [...parseIpv4Routes(ipv4), ...parseIpv6Routes(ipv6)].slice(0, 1000);
}

function keyValues(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of text.split('\n')) {
    const at = line.indexOf(':');
    if (at > 0) {
      values.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
    }
  }
  return values;
}

/** The cellular technologies ModemManager names, as the signalQuality report names them. */
const technologies: Record<string, SignalQuality['technology']> = {
  gsm: 'gsm',
  gprs: 'gsm',
  edge: 'gsm',
  umts: 'umts',
  hsdpa: 'umts',
  hsupa: 'umts',
  hspa: 'umts',
  'hspa-plus': 'umts',
  lte: 'lte',
  '5gnr': 'nr',
};

/**
 * The first modem's signal, through ModemManager (`mmcli --output-keyvalue`); null when there
 * is no modem (mmcli missing, or it lists none).
 */
export async function readSignalQuality(run: CommandRunner): Promise<SignalQuality | null> {
  let list: Map<string, string>;
  try {
    list = keyValues(await run('mmcli', ['-L', '--output-keyvalue'], 5000));
  } catch {
    return null;
  }
  const modem = list.get('modem-list.value[1]');
  if (modem === undefined || modem === '' || modem === '--') {
    return null;
  }
  const status = keyValues(await run('mmcli', ['-m', modem, '--output-keyvalue'], 5000));
  const signal = keyValues(await run('mmcli', ['-m', modem, '--signal-get', '--output-keyvalue'], 5000).catch(() => ''));
  const number = (key: string): number | null => {
    const value = Number.parseFloat(signal.get(key) ?? '');
    return Number.isFinite(value) ? value : null;
  };
  const technology = (status.get('modem.generic.access-technologies.value[1]') ?? '').toLowerCase();
  const family = technology === '5gnr' ? 'nr5g' : technology === 'lte' ? 'lte' : technology.startsWith('hs') || technology === 'umts' ? 'umts' : 'gsm';
  const operator = status.get('modem.3gpp.operator-name');
  return {
    technology: technologies[technology] ?? 'other',
    ...(operator !== undefined && operator !== '--' ? { operator: operator.slice(0, 100) } : {}),
    rssi: number(`modem.signal.${family}.rssi`),
    rsrp: number(`modem.signal.${family}.rsrp`),
    rsrq: number(`modem.signal.${family}.rsrq`),
    sinr: number(`modem.signal.${family}.snr`),
  };
}

/** The IPv4 neighbours the kernel knows with a MAC address (complete ARP entries). */
export function parseArpTable(text: string): { address: string; mac: string }[] {
  const neighbours: { address: string; mac: string }[] = [];
  for (const line of text.split('\n').slice(1)) {
    const [address, , flags, mac] = line.trim().split(/\s+/);
    if (address !== undefined && mac !== undefined && flags !== undefined && flags !== '0x0' && mac !== '00:00:00:00:00:00') {
      neighbours.push({ address, mac });
    }
  }
  return neighbours;
}

function probe(address: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.connect(port, address);
  });
}

/**
 * The hosts on the local networks: the ARP neighbours, and every address of each local /24
 * where one of the scan ports accepts a connection. Probes run `scanConcurrency` at a time and
 * stop being started after `scanTimeMs`, so a scan is bounded in time.
 */
export async function scanNetwork(probes: SystemProbes, now: () => number = Date.now): Promise<ScannedHost[]> {
  const hosts = new Map<string, ScannedHost>();
  for (const neighbour of parseArpTable(await readFile(probes.arpFile, 'utf8').catch(() => ''))) {
    hosts.set(neighbour.address, { address: neighbour.address, mac: neighbour.mac });
  }
  const targets: { address: string; port: number }[] = [];
  for (const prefix of probes.scanNetworks()) {
    for (let host = 1; host <= 254; host += 1) {
      for (const port of probes.scanPorts) {
        targets.push({ address: `${prefix}.${host}`, port });
      }
    }
  }
  const deadline = now() + probes.scanTimeMs;
  let next = 0;
  const worker = async () => {
    while (next < targets.length && now() < deadline) {
      const target = targets[next];
      next += 1;
      if (target && (await probe(target.address, target.port, probes.probeTimeoutMs))) {
        const host = hosts.get(target.address) ?? { address: target.address };
        hosts.set(target.address, { ...host, openPorts: [...(host.openPorts ?? []), target.port] });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, probes.scanConcurrency) }, worker));
  return [...hosts.values()].slice(0, 4096);
}
