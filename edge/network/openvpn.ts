import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DeviceConfig } from '../../contracts/device/config';
import type { HostCommandOptions } from './commands';
import { openConfigSecret, SecretUnreadableError } from './secrets';

/** The config's `vpn` (device-model.md section 3.1). */
export type VpnConfig = NonNullable<DeviceConfig['vpn']>;

/** The line openvpn prints once the tunnel is up (routes and address in place). */
const upLine = 'Initialization Sequence Completed';

/** A credential inline in its tag; one that could close the tag (and so start directives of its own, `up` runs a command as root) is refused. */
function inline(tag: string, text: string): string {
  if (/[<>\0]/.test(text)) {
    throw new SecretUnreadableError(tag, 'a credential is PEM text and may not hold <, > or NUL');
  }
  return `<${tag}>\n${text.trim()}\n</${tag}>`;
}

/**
 * The OpenVPN client config (openvpn(8)) of a config's vpn, its secrets opened with the
 * gateway's key and put inline, so one file of mode 0600 holds all. UDP, the protocol's
 * default port 1194; the server must present a server certificate (`remote-cert-tls server`).
 */
export function openVpnClientConfig(vpn: VpnConfig, secretKeyHex: string | null): string {
  const { ca, cert, key, tlsCrypt } = vpn.credentials;
  const lines = [
    'client',
    'dev tun',
    'proto udp',
    `remote ${vpn.host} ${vpn.port ?? 1194}`,
    'nobind',
    'resolv-retry infinite',
    'connect-retry 2 10',
    'remote-cert-tls server',
    'persist-key',
    'verb 3',
    inline('ca', openConfigSecret('ca', ca, secretKeyHex)),
    inline('cert', openConfigSecret('cert', cert, secretKeyHex)),
    inline('key', openConfigSecret('key', key, secretKeyHex)),
  ];
  if (tlsCrypt !== undefined) {
    lines.push(inline('tls-crypt', openConfigSecret('tlsCrypt', tlsCrypt, secretKeyHex)));
  }
  return `${lines.join('\n')}\n`;
}

/** Runs the VPN client. */
export interface VpnRunner {
  /** Starts the client on `configText` (stopping one that runs); resolves once the tunnel is up, rejects when it is not up within `withinMs` (the client keeps trying). */
  start(configText: string, withinMs: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `openvpn` as a child of the agent, its config in `<directory>/gridport.conf`. openvpn
 * retries the server by itself, so a client that is not up in time keeps running: the
 * tunnel comes up when the server can be reached.
 */
export class OpenVpnProcess implements VpnRunner {
  private child: ChildProcess | null = null;
  /** The client's last lines, for the reason a start failed. */
  private readonly tail: string[] = [];

  constructor(
    private readonly directory: string,
    private readonly options: HostCommandOptions = {},
  ) {}

  async start(configText: string, withinMs: number): Promise<void> {
    await this.stop();
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const file = path.join(this.directory, 'gridport.conf');
    await writeFile(file, configText, { mode: 0o600 });
    const [command, ...args] = [...(this.options.prefix ?? []), 'openvpn', '--config', file];
    const child = spawn(command ?? 'openvpn', args, { env: { ...process.env, ...this.options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.tail.length = 0;
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      const settle = (error?: Error) => {
        if (settled) {
          return;
        }
        settled = true;
        clearTimeout(timer);
        if (error) {
          reject(error);
        } else {
          resolve();
        }
      };
      const timer = setTimeout(
        () => settle(new Error(`the VPN was not up within ${Math.round(withinMs / 1000)} s (openvpn keeps trying): ${this.lastLines()}`)),
        withinMs,
      );
      const onText = (chunk: Buffer) => {
        for (const line of chunk.toString('utf8').split('\n')) {
          if (line.trim() !== '') {
            this.tail.push(line.trim());
            this.tail.splice(0, Math.max(0, this.tail.length - 5));
          }
          if (line.includes(upLine)) {
            settle();
          }
        }
      };
      child.stdout?.on('data', onText);
      child.stderr?.on('data', onText);
      child.once('error', (error) => settle(error));
      child.once('exit', (code) => {
        if (this.child === child) {
          this.child = null;
        }
        settle(new Error(`openvpn exited with ${code}: ${this.lastLines()}`));
      });
    });
  }

  private lastLines(): string {
    return this.tail.join(' | ').slice(0, 600);
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      return;
    }
    await new Promise<void>((resolve) => {
      const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }
}
