import { randomBytes, X509Certificate } from 'node:crypto';
import { access, readFile, rename, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { GridportError } from '../../contracts/errors';
import { loadIdentity, provision, type GatewayIdentity } from '../gateway-client/provision';
import { Agent, stateFiles, type AgentOptions } from './agent';
import type { AgentLog } from './journal';

export interface EdgeOptions extends Omit<AgentOptions, 'baseUrl' | 'identity' | 'onExit'> {
  /** The cloud's base URL (--hub). */
  hub: string;
  /** The one-time provisioning token (--token): needed at the first start, and after a reprovision message. */
  token?: string;
  /** The device identifier asked for at provisioning (--identifier); by default `gw-<host name>-<random>`. */
  identifier?: string;
  /** Where log lines go (the agent's journal keeps them too); nowhere by default. */
  log?: AgentLog;
}

const quiet: AgentLog = () => undefined;

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** An identifier the provisioning accepts: lowercase letters, digits and hyphens, from the host name. */
function defaultIdentifier(): string {
  const host = hostname()
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `gw-${host === '' ? 'gateway' : host}-${randomBytes(3).toString('hex')}`;
}

/**
 * The gateway's identity: provisioned at the first start (the key pair and CSR made here, the
 * key never leaves the state directory), loaded at later starts. After a reprovision message
 * the next start with a new token provisions again and keeps the old identity if that fails,
 * so the gateway stays reachable.
 */
export async function provisionOrLoad(options: Pick<EdgeOptions, 'hub' | 'token' | 'identifier' | 'stateDirectory' | 'log'>): Promise<GatewayIdentity> {
  const log = options.log ?? quiet;
  const directory = path.join(options.stateDirectory, stateFiles.identity);
  const marker = path.join(options.stateDirectory, stateFiles.reprovision);
  const identifier = options.identifier ?? defaultIdentifier();
  const have = await exists(path.join(directory, 'cert.pem'));
  if (!have) {
    if (options.token === undefined) {
      throw new GridportError('payload_invalid', [{ path: 'token', message: 'a provisioning token (--token) is needed at the first start' }]);
    }
    const identity = await provision({ baseUrl: options.hub, token: options.token, identifier, directory });
    log('info', `provisioned as ${identifier}`);
    return identity;
  }
  if ((await exists(marker)) && options.token !== undefined) {
    const fresh = `${directory}.new`;
    try {
      // The device keeps its identifier: the one in the certificate it has.
      const subject = new X509Certificate(await readFile(path.join(directory, 'cert.pem'), 'utf8')).subject;
      const current = /^OU=(.+)$/m.exec(subject)?.[1] ?? identifier;
      await rm(fresh, { recursive: true, force: true });
      await provision({ baseUrl: options.hub, token: options.token, identifier: current, directory: fresh });
      await rename(directory, `${directory}.retired-${Date.now()}`);
      await rename(fresh, directory);
      await rm(marker, { force: true });
      log('info', `reprovisioned as ${current}`);
    } catch (error) {
      log('error', 'reprovisioning failed; the previous identity is kept', { error: error instanceof Error ? error.message : String(error) });
    }
  }
  return loadIdentity(directory);
}

/** Provisions or loads the identity and starts an agent in this process (the demo fleet runs three so). */
export async function startEdgeAgent(options: EdgeOptions, onExit?: AgentOptions['onExit']): Promise<Agent> {
  const identity = await provisionOrLoad(options);
  const { hub, token: _token, identifier: _identifier, ...agentOptions } = options;
  const agent = new Agent({ ...agentOptions, baseUrl: hub, identity, onExit });
  await agent.start();
  return agent;
}

/**
 * `gridport edge`: runs the agent until SIGTERM or SIGINT (or `stopped` resolves), then stops it
 * cleanly. Resolves with the process exit code: 0 after a signal, an agentExitCodes code when
 * the cloud asked for a hard reboot, an update or reprovisioning.
 */
export async function runEdgeCommand(options: EdgeOptions, stopped?: Promise<void>): Promise<number> {
  let finish: (code: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => {
    finish = resolve;
  });
  const agent = await startEdgeAgent(options, (code) => finish(code));
  const onSignal = (signal: NodeJS.Signals | 'stop') => {
    (options.log ?? quiet)('info', `${signal}: stopping`);
    void agent.stop().then(() => finish(0));
  };
  if (stopped) {
    void stopped.then(() => onSignal('stop'));
  } else {
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }
  const code = await finished;
  process.removeListener('SIGTERM', onSignal);
  process.removeListener('SIGINT', onSignal);
  return code;
}
