import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli, type CliIo } from './cli';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { startServer } from './server';

/** Runs the command line with the embedded database in `dataDir`, collecting what it prints. */
async function gridport(dataDir: string, ...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (text) => out.push(text), err: (text) => err.push(text) };
  const code = await runCli(argv, { GRIDPORT_DATA_DIR: dataDir }, io);
  return { code, out, err };
}

describe('the embedded server and the operator command line', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gridport-embedded-'));
  const config = () => ({ ...loadConfig({ GRIDPORT_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' }) });

  it('migrate, create organisations and users, and mint a session that the server accepts, across restarts', async () => {
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

    let server = await startServer(config(), createLogger('silent'));
    try {
      expect((await fetch(`${server.url}/v1/health`)).status).toBe(204);
      const whoami = await fetch(`${server.url}/console-shared/v1/authentication/whoami`, { headers: { cookie } });
      expect(await whoami.json()).toMatchObject({ user: { email: 'ops@example.com', rights: ['gridport.ops'] }, organization: { hashId: providerHashId } });
    } finally {
      await server.stop();
    }

    server = await startServer(config(), createLogger('silent'));
    try {
      expect((await fetch(`${server.url}/v1/health`)).status).toBe(204);
      const organization = await fetch(`${server.url}/console-admin/v1/organization/${organizationHashId}`, { headers: { cookie } });
      expect(organization.status).toBe(200);
      expect(await organization.json()).toMatchObject({ name: 'Zonnepark Noord', type: 'asset-owner' });
    } finally {
      await server.stop();
    }
  });

  it('explain an unknown command and a bad flag', async () => {
    const unknown = await gridport(dataDir, 'frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.err[0]).toMatch(/^gridport: unknown command "frobnicate"\n\nUsage: gridport <command>/);
    await expect(gridport(dataDir, 'migrate', '--bogus')).rejects.toThrow(/Unknown option '--bogus'/);
  });
});
