import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from './version';

const run = promisify(execFile);
const root = projectRoot();

/** Runs the compiled command line, as `npx gridport` does, with the embedded database in `dataDir`. */
async function gridport(dataDir: string, ...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const lines = (text: string) => text.split('\n').filter((line) => line !== '');
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(root, 'bin', 'gridport.js'), ...argv], { env: { PATH: process.env.PATH, GRIDPORT_DATA_DIR: dataDir } });
    return { code: 0, out: lines(stdout), err: lines(stderr) };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: lines(failed.stdout), err: [failed.stderr.trimEnd()] };
  }
}

/** Starts the compiled server, as `npm start` does, and waits until /v1/health answers. */
async function startServer(dataDir: string, port: number): Promise<{ url: string; process: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(root, 'dist', 'server', 'main.js')], {
    env: { PATH: process.env.PATH, GRIDPORT_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`the server exited with ${child.exitCode}: ${stderr}`);
    }
    try {
      if ((await fetch(`${url}/v1/health`)).status === 204) {
        return { url, process: child };
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not answer /v1/health within a minute: ${stderr}`);
}

async function stopServer(server: { process: ChildProcess }): Promise<void> {
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGTERM');
  await exited;
  expect(server.process.exitCode).toBe(0);
}

describe('the embedded server and the operator command line', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gridport-embedded-'));
  const port = 20000 + (process.pid % 20000);

  beforeAll(async () => {
    // The compiled server is what `npm start` runs; build it (incrementally) first.
    await run(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'tsconfig.build.json')]);
  }, 120_000);

  it('migrate, create organisations and users, and create a session that the server accepts, across restarts', async () => {
    const migrated = await gridport(dataDir, 'migrate', '--json');
    expect(migrated.code).toBe(0);
    expect(JSON.parse(migrated.out[0] ?? '')).toEqual({ applied: expect.arrayContaining(['20261121000000_organizations']) });

    const again = await gridport(dataDir, 'migrate');
    expect(again.out).toEqual(['The database is up to date.']);

    const provider = await gridport(dataDir, 'org', 'provider', '--json');
    const { hashId: providerHashId } = JSON.parse(provider.out[0] ?? '') as { hashId: string };
    expect(providerHashId).toMatch(/^[A-Za-z0-9]{8,}$/);

    const created = await gridport(dataDir, 'org', 'create', '--name', 'Zonnepark Noord', '--type', 'asset-owner', '--json');
    expect(created.code).toBe(0);
    const { hashId: organizationHashId } = JSON.parse(created.out[0] ?? '') as { hashId: string };

    const refused = await gridport(dataDir, 'org', 'create', '--name', 'x'.repeat(101), '--type', 'utility');
    expect(refused.code).toBe(1);
    expect(refused.err[0]).toMatch(/^gridport: payload_invalid: The request body is invalid\.\n {2}- name: name must be at most 100 characters\n {2}- type: type must be one of the following values/);

    const user = await gridport(dataDir, 'user', 'create', '--org', providerHashId, '--email', 'ops@example.com', '--name', 'Ops', '--rights', 'gridport.ops', '--json');
    expect(user.code).toBe(0);
    const twice = await gridport(dataDir, 'user', 'create', '--org', providerHashId, '--email', 'Ops@Example.com', '--name', 'Ops again', '--rights', 'gridport.ops', '--json');
    expect(twice).toMatchObject({ code: 1, err: ['{"key":"user_exists","details":{"email":"Ops@Example.com"}}'] });
    const session = await gridport(dataDir, 'session', 'create', '--email', 'OPS@example.com', '--json');
    const { cookie } = JSON.parse(session.out[0] ?? '') as { cookie: string };
    expect(cookie).toMatch(/^gridport_session=[\w-]+\.[\w-]+\.[\w-]+$/);

    const shipped = await gridport(dataDir, 'device', 'ship', '--org', organizationHashId, '--name', 'Zonnepark Noord gateway', '--json');
    expect(shipped.code).toBe(0);
    const { hashId: deviceHashId, provisioningToken } = JSON.parse(shipped.out[0] ?? '') as { hashId: string; provisioningToken: string };
    expect(provisioningToken).toMatch(/^[\w-]{32}$/);
    const unshippable = await gridport(dataDir, 'device', 'ship', '--org', 'nope', '--name', 'x', '--json');
    expect(unshippable).toMatchObject({ code: 1, err: ['{"key":"not_found","details":{"organizationHashId":"nope"}}'] });

    const customer = await gridport(dataDir, 'user', 'create', '--org', organizationHashId, '--email', 'owner@example.com', '--name', 'Owner', '--rights', 'customer.write', '--password', 'a long enough password');
    expect(customer.code).toBe(0);

    let server = await startServer(dataDir, port);
    try {
      const login = await fetch(`${server.url}/console-shared/v1/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'owner@example.com', password: 'a long enough password' }) });
      expect(login.status).toBe(200);
      expect(login.headers.get('set-cookie')).toMatch(/^gridport_session=/);
      expect((await fetch(`${server.url}/v1/health`)).status).toBe(204);
      const whoami = await fetch(`${server.url}/console-shared/v1/authentication/whoami`, { headers: { cookie } });
      expect(await whoami.json()).toMatchObject({ user: { email: 'ops@example.com', rights: ['gridport.ops'] }, organization: { hashId: providerHashId } });
    } finally {
      await stopServer(server);
    }

    server = await startServer(dataDir, port);
    try {
      expect((await fetch(`${server.url}/v1/health`)).status).toBe(204);
      const organization = await fetch(`${server.url}/console-admin/v1/organization/${organizationHashId}`, { headers: { cookie } });
      expect(organization.status).toBe(200);
      expect(await organization.json()).toMatchObject({ name: 'Zonnepark Noord', type: 'asset-owner' });
      // The embedded default makes the demo fleet once: three devices, still three after the restart.
      const demo = await fetch(`${server.url}/console-admin/v1/device?filter=${encodeURIComponent('Windpark Zuid')}`, { headers: { cookie } });
      expect(((await demo.json()) as { rows: { organizationName: string }[] }).rows).toEqual([expect.objectContaining({ organizationName: 'Demo Energy BV' })]);
      const device = await fetch(`${server.url}/console-admin/v1/device/${deviceHashId}`, { headers: { cookie } });
      expect(await device.json()).toMatchObject({ name: 'Zonnepark Noord gateway', organizationHashId, openForProvisioning: true, identifier: 'will be generated when the device is connected' });
    } finally {
      await stopServer(server);
    }
  }, 180_000);

  it('explain an unknown command and a bad flag', async () => {
    const unknown = await gridport(dataDir, 'frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.err[0]).toMatch(/^gridport: unknown command "frobnicate"\n\nUsage: gridport <command>/);
    const bogus = await gridport(dataDir, 'migrate', '--bogus');
    expect(bogus.code).toBe(1);
    expect(bogus.err[0]).toMatch(/Unknown option '--bogus'/);
  });
});
