import { spawnSync } from 'node:child_process';

/** Whether tests must fail, rather than skip, when an outside service is missing (CI sets REQUIRE_SERVICES=1). */
export const requireServices = /^(1|true|yes|on)$/i.test(process.env.REQUIRE_SERVICES ?? '');

/** Whether something accepts TCP connections at the URL's host and port (asked once, before the tests are declared). */
export function reachable(url: string, defaultPort: number): boolean {
  const { hostname, port } = new URL(url);
  const probe = `require('net').connect(${Number(port || defaultPort)}, ${JSON.stringify(hostname || '127.0.0.1')}).on('connect', () => process.exit(0)).on('error', () => process.exit(1))`;
  return spawnSync(process.execPath, ['-e', probe], { timeout: 3000 }).status === 0;
}
