import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** Whether tests must fail, rather than skip, when an outside service is missing (CI sets REQUIRE_SERVICES=1). */
export const requireServices = /^(1|true|yes|on)$/i.test(process.env.REQUIRE_SERVICES ?? '');

/** Whether something accepts TCP connections at the URL's host and port (asked once, before the tests are declared). */
export function reachable(url: string, defaultPort: number): boolean {
  const { hostname, port } = new URL(url);
  const probe = `require('net').connect(${Number(port || defaultPort)}, ${JSON.stringify(hostname || '127.0.0.1')}).on('connect', () => process.exit(0)).on('error', () => process.exit(1))`;
  return spawnSync(process.execPath, ['-e', probe], { timeout: 3000 }).status === 0;
}

/** Debian's programs the edge tests talk Modbus with (`apt-get install python3-pymodbus mbpoll socat`). */
const peerChecks = {
  pymodbus: ['/usr/bin/python3', ['-c', 'import pymodbus']],
  mbpoll: ['mbpoll', ['-V']],
  socat: ['socat', ['-V']],
} as const satisfies Record<string, readonly [string, readonly string[]]>;
export type Peer = keyof typeof peerChecks;
const debianPackages: Record<Peer, string> = { pymodbus: 'python3-pymodbus', mbpoll: 'mbpoll', socat: 'socat' };

/**
 * Whether a program runs and answers its check with exit code 0: a program that starts but lacks
 * what the tests need (python3 without the pymodbus module) does not count.
 */
export function programPasses(program: string, args: readonly string[]): boolean {
  const result = spawnSync(program, [...args], { timeout: 10_000, stdio: 'ignore' });
  return result.error === undefined && result.status === 0;
}

const peerFound = new Map<Peer, boolean>();
function peerInstalled(peer: Peer): boolean {
  let found = peerFound.get(peer);
  if (found === undefined) {
    const [program, args] = peerChecks[peer];
    found = programPasses(program, args);
    peerFound.set(peer, found);
  }
  return found;
}

/** Whether the tests needing `peers` run: all installed, or REQUIRE_SERVICES set (a missing one then fails); says what is missing otherwise. */
function peersRun(peers: readonly Peer[], file: string): boolean {
  const missing = peers.filter((peer) => !peerInstalled(peer));
  if (missing.length === 0 || requireServices) {
    return true;
  }
  const packages = missing.map((peer) => debianPackages[peer]).join(' ');
  process.stderr.write(
    `${path.relative(process.cwd(), file)}: skipped, ${missing.join(' and ')} not installed (apt-get install ${packages}; REQUIRE_SERVICES=1 makes this a failure)\n`,
  );
  return false;
}

/** `describe` when the peers are installed (or REQUIRE_SERVICES is set); otherwise `describe.skip`. */
export function describeWithPeers(peers: readonly Peer[], file: string): jest.Describe {
  return peersRun(peers, file) ? describe : describe.skip;
}

/** `it` when the peers are installed (or REQUIRE_SERVICES is set); otherwise `it.skip`. */
export function itWithPeers(peers: readonly Peer[], file: string): jest.It {
  return peersRun(peers, file) ? it : it.skip;
}
