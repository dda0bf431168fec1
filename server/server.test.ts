import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from './version';
import { acquireDataFolder } from './data-folder-lock';
import { buildServer, freePort } from '../test-support/server-process';

const run = promisify(execFile);
const root = projectRoot();

/** Runs the compiled command line, as `npx gridport` does, with the embedded database in `dataDir`. */
async function gridport(dataDir: string, ...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const lines = (text: string) => text.split('\n').filter((line) => line !== '');
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(root, 'bin', 'gridport.js'), ...argv], {
      env: { PATH: process.env.PATH, GRIDPORT_DATA_DIR: dataDir },
    });
    return { code: 0, out: lines(stdout), err: lines(stderr) };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: lines(failed.stdout), err: [failed.stderr.trimEnd()] };
  }
}

/** Starts the compiled server, as `npm start` does, and waits until /v1/health answers. */
async function startServer(dataDir: string, port: number, demo = true, env: Record<string, string> = {}): Promise<{ url: string; process: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(root, 'dist', 'server', 'main.js')], {
    env: { PATH: process.env.PATH, GRIDPORT_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', GRIDPORT_DEMO: String(demo), ...env },
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
    await buildServer();
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
    expect(refused.err[0]).toMatch(
      /^gridport: payload_invalid: The request body is invalid\.\n {2}- name: name must be at most 100 characters\n {2}- type: type must be one of the following values/,
    );

    const user = await gridport(
      dataDir,
      'user',
      'create',
      '--org',
      providerHashId,
      '--email',
      'ops@example.com',
      '--name',
      'Ops',
      '--rights',
      'gridport.ops',
      '--json',
    );
    expect(user.code).toBe(0);
    const twice = await gridport(
      dataDir,
      'user',
      'create',
      '--org',
      providerHashId,
      '--email',
      'Ops@Example.com',
      '--name',
      'Ops again',
      '--rights',
      'gridport.ops',
      '--json',
    );
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

    const customer = await gridport(
      dataDir,
      'user',
      'create',
      '--org',
      organizationHashId,
      '--email',
      'owner@example.com',
      '--name',
      'Owner',
      '--rights',
      'customer.write',
      '--password',
      'a long enough password',
    );
    expect(customer.code).toBe(0);

    let server = await startServer(dataDir, port);
    try {
      const login = await fetch(`${server.url}/console-shared/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@example.com', password: 'a long enough password' }),
      });
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
      // The embedded default makes the demo fleet once: four devices, still four after the restart.
      const demo = await fetch(`${server.url}/console-admin/v1/device?filter=${encodeURIComponent('Windpark Zuid')}`, { headers: { cookie } });
      expect(((await demo.json()) as { rows: { organizationName: string }[] }).rows).toEqual([expect.objectContaining({ organizationName: 'Demo Energy BV' })]);
      const device = await fetch(`${server.url}/console-admin/v1/device/${deviceHashId}`, { headers: { cookie } });
      expect(await device.json()).toMatchObject({
        name: 'Zonnepark Noord gateway',
        organizationHashId,
        openForProvisioning: true,
        identifier: 'will be generated when the device is connected',
      });
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

const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

/** Words of a shell line: single quotes keep spaces, as the README's lines need. */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? '');
}

/**
 * Runs a command line of the README as written there (`npx gridport ...`, checked to be in the
 * README word for word), with its `<...>` placeholders filled in from what earlier steps printed.
 */
async function readmeStep(dataDir: string, line: string, values: Record<string, string> = {}): Promise<{ code: number; out: string[]; err: string[] }> {
  expect(readme).toContain(line);
  const filled = line.replace(/^npx gridport /, '').replace(/<[^>]+>/g, (placeholder) => values[placeholder] ?? placeholder);
  const result = await gridport(dataDir, ...shellWords(filled));
  expect(result).toMatchObject({ code: 0, err: [] });
  return result;
}

const hashIdIn = (line: string | undefined) => /hash id ([A-Za-z0-9]+)/.exec(line ?? '')?.[1] ?? '';

describe('the README walk-through, with the embedded server running', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gridport-readme-'));
  const port = 20000 + ((process.pid + 7) % 20000);

  beforeAll(async () => {
    await buildServer();
  }, 120_000);

  it('runs every command-line step against the running server, whose answers see them at once and after a restart', async () => {
    let server = await startServer(dataDir, port);
    const login = () =>
      fetch(`${server.url}/console-shared/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'me@example.com', password: 'at least 12 characters' }),
      });
    let cookie = '';
    let apiKey = '';
    try {
      const demo = await readmeStep(dataDir, 'npx gridport org list --name Demo');
      expect(demo.out).toEqual([expect.stringMatching(/^Demo Energy BV \(asset-owner\), hash id [A-Za-z0-9]+$/)]);
      const values: Record<string, string> = { '<demo hashId>': hashIdIn(demo.out[0]) };
      await readmeStep(
        dataDir,
        "npx gridport user create --org <demo hashId> --email me@example.com --name Me --rights customer.write --password 'at least 12 characters'",
        values,
      );
      expect(readme).toContain(`-d '{"email":"me@example.com","password":"at least 12 characters"}' http://127.0.0.1:8080/console-shared/v1/login`);
      const signedIn = await login();
      expect(signedIn.status).toBe(200);
      expect(signedIn.headers.get('set-cookie')).toMatch(/^gridport_session=/);

      const session = await readmeStep(dataDir, 'npx gridport session create --email me@example.com', values);
      cookie = session.out[0] ?? '';
      expect(cookie).toMatch(/^gridport_session=[\w-]+\.[\w-]+\.[\w-]+$/);
      const whoami = await fetch(`${server.url}/console-shared/v1/authentication/whoami`, { headers: { cookie } });
      expect(whoami.status).toBe(200);
      expect(await whoami.json()).toMatchObject({
        user: { email: 'me@example.com', rights: ['customer.read', 'customer.write'] },
        organization: { name: 'Demo Energy BV' },
      });

      const key = await readmeStep(dataDir, 'npx gridport api-key create --org <demo hashId> --name Scripts', values);
      apiKey = key.out[key.out.length - 1] ?? '';
      expect(apiKey).toMatch(/^gp_/);
      expect(readme).toContain("curl -s -H 'Authorization: Bearer gp_...' http://127.0.0.1:8080/v2/device");
      const devices = await fetch(`${server.url}/v2/device`, { headers: { authorization: `Bearer ${apiKey}` } });
      expect(devices.status).toBe(200);
      const { devices: listed } = (await devices.json()) as { devices: { name: string; hashId: string }[] };
      expect(listed.map((device) => device.name).sort()).toEqual(['Bedrijfshal West', 'Laadplein Oost', 'Solar Farm Noord', 'Windpark Zuid']);

      // The README computes the dates as this does: an hour from now, for two hours.
      expect(readme).toContain(
        `START=$(node -p 'new Date(Date.now() + 3600e3).toISOString()'); END=$(node -p 'new Date(Date.now() + 3 * 3600e3).toISOString()')`,
      );
      expect(readme).toContain(
        `-d '{"assetIdentifiers":["pv-roof"],"schedule":[{"startAt":"'$START'","endAt":"'$END'","command":{"type":"limitProductionPower","percentage":50}}]}'`,
      );
      const start = new Date(Date.now() + 3600e3).toISOString();
      const end = new Date(Date.now() + 3 * 3600e3).toISOString();
      const scheduled = await fetch(`${server.url}/v2/schedule`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          assetIdentifiers: ['pv-roof'],
          schedule: [{ startAt: start, endAt: end, command: { type: 'limitProductionPower', percentage: 50 } }],
        }),
      });
      expect(scheduled.status).toBe(201);
      const solar = listed.find((device) => device.name === 'Solar Farm Noord');
      expect(await scheduled.json()).toMatchObject({ deviceHashIds: [solar?.hashId], droppedCommands: 0 });

      const provider = await readmeStep(dataDir, 'npx gridport org provider');
      values['<provider hashId>'] = hashIdIn(provider.out[0]);
      await readmeStep(dataDir, 'npx gridport user create --org <provider hashId> --email ops@example.com --name Ops --rights gridport.ops', values);
      const ops = await readmeStep(dataDir, 'npx gridport session create --email ops@example.com', values);
      const opsCookie = ops.out[0] ?? '';
      expect(readme).toContain("'http://127.0.0.1:8080/console-admin/v1/device?filter=Windpark'");
      const windpark = await fetch(`${server.url}/console-admin/v1/device?filter=Windpark`, { headers: { cookie: opsCookie } });
      expect(windpark.status).toBe(200);
      expect(((await windpark.json()) as { rows: { name: string }[] }).rows.map((row) => row.name)).toEqual(['Windpark Zuid']);

      const mine = await readmeStep(dataDir, "npx gridport org create --name 'My Energy' --type asset-owner", values);
      values['<my hashId>'] = hashIdIn(mine.out[0]);
      const shipped = await readmeStep(dataDir, "npx gridport device ship --org <my hashId> --name 'Site 1'", values);
      const deviceHashId = hashIdIn(shipped.out[0]);
      expect(shipped.out[1]).toMatch(/^[\w-]{32}$/);
      const device = await fetch(`${server.url}/console-admin/v1/device/${deviceHashId}`, { headers: { cookie: opsCookie } });
      expect(await device.json()).toMatchObject({ name: 'Site 1', organizationHashId: values['<my hashId>'], openForProvisioning: true });
    } finally {
      await stopServer(server);
    }

    // What the command line wrote through the server is kept: the sign-in, the session and the key work after a restart.
    server = await startServer(dataDir, port);
    try {
      expect((await login()).status).toBe(200);
      const whoami = await fetch(`${server.url}/console-shared/v1/authentication/whoami`, { headers: { cookie } });
      expect(await whoami.json()).toMatchObject({ user: { email: 'me@example.com' } });
      expect((await fetch(`${server.url}/v2/device`, { headers: { authorization: `Bearer ${apiKey}` } })).status).toBe(200);
      const again = await gridport(dataDir, 'org', 'list', '--json');
      expect(again.code).toBe(0);
      expect((JSON.parse(again.out[0] ?? '') as { rows: { name: string }[] }).rows.map((row) => row.name).sort()).toEqual([
        'Demo Energy BV',
        'Gridport',
        'My Energy',
      ]);
    } finally {
      await stopServer(server);
    }
  }, 240_000);

  it('takes the mail the README sends in with curl as an issue, which issue list and issue show print; mail test says what became of its mail', async () => {
    const smtpPort = await freePort();
    const server = await startServer(dataDir, port, true, { SMTP_INBOUND_PORT: String(smtpPort) });
    try {
      expect(readme).toContain('Start the server with `SMTP_INBOUND_PORT=2525` and a mail sent to');
      const send = [
        "printf 'From: ann@example.com\\r\\nSubject: Inverter shows E42\\r\\n\\r\\nSince this morning.\\r\\n' |",
        '  curl -sS smtp://127.0.0.1:2525 --mail-from ann@example.com --mail-rcpt support@example.com -T -',
      ].join('\n');
      expect(readme).toContain(send);
      await run('bash', ['-c', send.replace('127.0.0.1:2525', `127.0.0.1:${smtpPort}`)]);

      const listed = await readmeStep(dataDir, 'npx gridport issue list --status open');
      const line = listed.out.find((row) => row.includes('Inverter shows E42')) ?? '';
      expect(line).toMatch(/^[A-Za-z0-9]+\s+open\s+.*incoming-email\s+Inverter shows E42, 1 message\(s\)$/);
      const issueHashId = line.split(/\s+/)[0] ?? '';
      const shown = await readmeStep(dataDir, 'npx gridport issue show <hashId>', { '<hashId>': issueHashId });
      expect(shown.out.join('\n')).toContain('Since this morning.');

      const mailed = await readmeStep(dataDir, 'npx gridport mail test you@example.com');
      expect(mailed.out.join('\n')).toMatch(/kept/);
    } finally {
      await stopServer(server);
    }
  }, 240_000);

  it('waits its turn while another command holds the data folder, then opens it itself and gives it up', async () => {
    const folder = path.join(mkdtempSync(path.join(tmpdir(), 'gridport-turn-')), 'data');
    const other = acquireDataFolder(folder, 'command line');
    setTimeout(() => other.release(), 1500);
    const provider = await gridport(folder, 'org', 'provider', '--json');
    expect(provider).toMatchObject({ code: 0, err: [] });
    expect(JSON.parse(provider.out[0] ?? '')).toMatchObject({ name: 'Gridport' });
    acquireDataFolder(folder, 'server').release();
  }, 60_000);

  it('refuses a second server on the same data folder with what to do, and leaves the first unharmed', async () => {
    const first = await startServer(dataDir, port, false);
    try {
      const second = spawn(process.execPath, [path.join(root, 'dist', 'server', 'main.js')], {
        env: { PATH: process.env.PATH, GRIDPORT_DATA_DIR: dataDir, PORT: String(port + 1), HOST: '127.0.0.1', LOG_LEVEL: 'warn', GRIDPORT_DEMO: 'false' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      second.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
      expect(code).toBe(1);
      expect(stderr).toContain(
        `Gridport cannot start: The data folder ${dataDir} is in use by the Gridport server with process id ${first.process.pid} (since `,
      );
      expect(stderr).toContain('Stop that server first, or start this one with GRIDPORT_DATA_DIR set to another folder');
      expect((await fetch(`${first.url}/v1/health`)).status).toBe(204);
      const listed = await gridport(dataDir, 'org', 'provider', '--json');
      expect(listed.code).toBe(0);
    } finally {
      await stopServer(first);
    }
  }, 120_000);
});
