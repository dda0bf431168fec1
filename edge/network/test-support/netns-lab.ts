import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { until } from '../../../test-support/until';
import { runHostCommand, type HostCommandOptions } from '../commands';

/**
 * A lab of two network namespaces for the host-network tests: "cloud" (a DHCP server, dnsmasq;
 * a TCP service standing for the hub; an OpenVPN server) and "gateway", whose one Ethernet
 * interface is a veth to the cloud and is managed by a real NetworkManager confined to the
 * namespace: its own D-Bus system bus, its own run and state folders (a private mount
 * namespace), /sys read-only so it does not wait for udev, and no devices but the lab's.
 */

/** Why the lab cannot run here, or null when it can. */
export function netnsUnavailable(): string | null {
  if (process.getuid?.() !== 0) {
    return 'not root: the host-network tests make network namespaces';
  }
  for (const tool of ['ip', 'nmcli', 'NetworkManager', 'dbus-daemon', 'dnsmasq', 'openvpn', 'openssl', 'unshare', 'python3']) {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    } catch {
      return `${tool} is not installed (apt-get install -y network-manager openvpn dnsmasq-base openssl)`;
    }
  }
  try {
    execFileSync('ip', ['netns', 'list'], { stdio: 'ignore' });
  } catch {
    return 'ip netns is not available';
  }
  return null;
}

const run = (...argv: string[]): void => {
  execFileSync(argv[0] ?? 'true', argv.slice(1), { stdio: 'pipe' });
};

/** The cloud's side of the lab. */
export const labCloud = {
  address: '10.77.0.1',
  /** The TCP port of the stand-in hub, on every address of the cloud (the VPN's too). */
  hubPort: 8443,
  dhcpFirst: '10.77.0.50',
  dhcpLast: '10.77.0.60',
  dnsByDhcp: '10.77.0.53',
  vpnPort: 1194,
  vpnServerAddress: '10.8.0.1',
} as const;

export class NetnsLab {
  readonly id = `${process.pid % 100000}`;
  readonly gateway = `gpn${this.id}gw`;
  readonly cloud = `gpn${this.id}cl`;
  /** The gateway's interface (the eth0 slot) and its peer in the cloud. */
  readonly gatewayInterface = `gpn${this.id}g`;
  private readonly cloudInterface = `gpn${this.id}c`;
  readonly directory = mkdtempSync(path.join(tmpdir(), 'gp-netns-'));
  private readonly processes: ChildProcess[] = [];
  /** nmcli, openvpn and the probe as the agent runs them, but inside the gateway namespace and on its bus. */
  readonly commands: HostCommandOptions;

  constructor() {
    this.commands = { prefix: ['ip', 'netns', 'exec', this.gateway], env: { DBUS_SYSTEM_BUS_ADDRESS: `unix:path=${this.file('bus')}` } };
  }

  file(name: string): string {
    return path.join(this.directory, name);
  }

  async start(): Promise<void> {
    run('ip', 'netns', 'add', this.gateway);
    run('ip', 'netns', 'add', this.cloud);
    run('ip', 'link', 'add', this.gatewayInterface, 'type', 'veth', 'peer', 'name', this.cloudInterface);
    run('ip', 'link', 'set', this.gatewayInterface, 'netns', this.gateway);
    run('ip', 'link', 'set', this.cloudInterface, 'netns', this.cloud);
    run('ip', '-n', this.cloud, 'addr', 'add', `${labCloud.address}/24`, 'dev', this.cloudInterface);
    run('ip', '-n', this.cloud, 'link', 'set', this.cloudInterface, 'up');
    run('ip', '-n', this.cloud, 'link', 'set', 'lo', 'up');
    run('ip', '-n', this.gateway, 'link', 'set', 'lo', 'up');
    this.spawnIn(this.cloud, [
      'dnsmasq',
      '--no-daemon',
      '--port=0',
      `--interface=${this.cloudInterface}`,
      '--bind-interfaces',
      `--dhcp-range=${labCloud.dhcpFirst},${labCloud.dhcpLast},255.255.255.0,1h`,
      `--dhcp-leasefile=${this.file('leases')}`,
      `--pid-file=${this.file('dnsmasq.pid')}`,
      `--dhcp-option=option:router,${labCloud.address}`,
      `--dhcp-option=option:dns-server,${labCloud.dnsByDhcp}`,
    ]);
    this.spawnIn(this.cloud, ['python3', '-m', 'http.server', '--bind', '0.0.0.0', String(labCloud.hubPort), '--directory', this.directory]);
    await this.startNetworkManager();
  }

  private spawnIn(namespace: string, argv: string[], env: Record<string, string> = {}): ChildProcess {
    const child = spawn('ip', ['netns', 'exec', namespace, ...argv], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    child.stderr?.resume();
    this.processes.push(child);
    return child;
  }

  private async startNetworkManager(): Promise<void> {
    const bus = this.file('bus');
    writeFileSync(
      this.file('dbus.conf'),
      `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=${bus}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/></policy>
</busconfig>
`,
    );
    const dbus = spawn('dbus-daemon', ['--config-file', this.file('dbus.conf'), '--nofork'], { stdio: 'ignore' });
    this.processes.push(dbus);
    for (const folder of ['nm-run', 'nm-state', 'nm-profiles', 'nm-conf.d']) {
      run('mkdir', '-p', this.file(folder));
    }
    writeFileSync(
      this.file('nm.conf'),
      `[main]
auth-polkit=false
dns=none
rc-manager=unmanaged
plugins=keyfile
no-auto-default=*
[keyfile]
path=${this.file('nm-profiles')}
unmanaged-devices=except:interface-name:${this.gatewayInterface}
[logging]
level=INFO
`,
    );
    writeFileSync(
      this.file('nm.sh'),
      `#!/bin/sh
set -e
mount --make-rprivate /
# Read-only /sys: NetworkManager then manages devices without waiting for udev, which no namespace has.
mount -o remount,ro /sys
mount --bind ${this.file('nm-run')} /run/NetworkManager 2>/dev/null || { mkdir -p /run/NetworkManager && mount --bind ${this.file('nm-run')} /run/NetworkManager; }
mount --bind ${this.file('nm-state')} /var/lib/NetworkManager 2>/dev/null || { mkdir -p /var/lib/NetworkManager && mount --bind ${this.file('nm-state')} /var/lib/NetworkManager; }
exec NetworkManager --no-daemon --config=${this.file('nm.conf')} --config-dir=${this.file('nm-conf.d')} --state-file=${this.file('nm-state')}/NetworkManager.state
`,
      { mode: 0o755 },
    );
    await until(
      'the lab D-Bus',
      () =>
        runHostCommand(['test', '-S', bus]).then(
          () => true,
          () => false,
        ),
      10_000,
    );
    this.spawnIn(this.gateway, ['unshare', '-m', this.file('nm.sh')], { DBUS_SYSTEM_BUS_ADDRESS: `unix:path=${bus}` });
    await until(
      `NetworkManager to manage ${this.gatewayInterface}`,
      async () => {
        const devices = await this.nmcli('--terse', '--fields', 'DEVICE,STATE', 'device').catch(() => '');
        return devices.split('\n').some((line) => line.startsWith(`${this.gatewayInterface}:`) && !line.includes('unmanaged') && !line.includes('unavailable'));
      },
      30_000,
    );
  }

  /** nmcli against the lab's NetworkManager. */
  nmcli(...args: string[]): Promise<string> {
    return runHostCommand(['nmcli', ...args], this.commands);
  }

  /** A command in the gateway namespace (ip, say). */
  inGateway(...argv: string[]): Promise<string> {
    return runHostCommand(argv, { prefix: ['ip', 'netns', 'exec', this.gateway] });
  }

  /** Starts an OpenVPN server in the cloud on files the test made; resolves once it listens. */
  async startVpnServer(files: { ca: string; cert: string; key: string; tlsCrypt: string }): Promise<void> {
    writeFileSync(
      this.file('vpn-server.conf'),
      [
        'dev tun',
        'proto udp',
        `local ${labCloud.address}`,
        `port ${labCloud.vpnPort}`,
        'topology subnet',
        `server 10.8.0.0 255.255.255.0`,
        `ca ${files.ca}`,
        `cert ${files.cert}`,
        `key ${files.key}`,
        'dh none',
        `tls-crypt ${files.tlsCrypt}`,
        'keepalive 2 10',
        'verb 3',
        '',
      ].join('\n'),
    );
    const server = spawn('ip', ['netns', 'exec', this.cloud, 'openvpn', '--config', this.file('vpn-server.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.processes.push(server);
    let output = '';
    server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    server.stderr?.resume();
    await until('the OpenVPN server', () => output.includes('Initialization Sequence Completed'), 20_000);
  }

  /** Ends every process the lab started and removes its namespaces and files; safe to call after a failed start. */
  async stop(): Promise<void> {
    for (const child of this.processes.reverse()) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
    }
    for (const namespace of [this.gateway, this.cloud]) {
      try {
        run('ip', 'netns', 'del', namespace);
      } catch {
        // Not made (a start that failed early).
      }
    }
    rmSync(this.directory, { recursive: true, force: true });
  }
}
