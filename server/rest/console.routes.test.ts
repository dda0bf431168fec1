import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { GridportError } from '../../contracts/errors';
import { testApp, type TestApp } from '../../test-support/app';
import { sendError, toGridportError } from '../errors';
import { consolePlugin, isServerPath } from './console.routes';

const page = '<!doctype html><div id="root"></div>';
const script = 'console.info("app")';

/** A built console in a temporary folder, served as the app serves it (same not-found and error answers). */
async function serve(folder: string): Promise<FastifyInstance> {
  const app = Fastify();
  app.setErrorHandler((error, request, reply) => sendError(toGridportError(error, request), request, reply));
  app.setNotFoundHandler((request, reply) => sendError(new GridportError('not_found', { method: request.method, url: request.url }), request, reply));
  app.get('/console/v1/device', async () => ({ rows: [] }));
  await app.register(consolePlugin({ version: '1.2.3', folder }));
  await app.ready();
  return app;
}

describe('the console routes', () => {
  let folder: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'console-'));
    mkdirSync(path.join(folder, 'assets'));
    writeFileSync(path.join(folder, 'index.html'), page);
    writeFileSync(path.join(folder, 'assets', 'index-abc123.js'), script);
    app = await serve(folder);
  });

  afterAll(async () => {
    await app.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('answers /release.json with the version, never cached', async () => {
    const response = await app.inject({ method: 'GET', url: '/release.json' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ version: '1.2.3' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('serves hashed assets for a year and the page revalidated', async () => {
    const asset = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe(script);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const root = await app.inject({ method: 'GET', url: '/' });
    expect(root.statusCode).toBe(200);
    expect(root.body).toBe(page);
    expect(root.headers['cache-control']).toBe('no-cache');
  });

  it.each(['/teleports', '/teleports/abc/configuration', '/admin/devices/xyz/timeline?from=1', '/login', '/user-invite/h1?code=c'])(
    'answers the console page for the screen path %s',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toBe(page);
    },
  );

  it.each([
    ['/console/v1/nothing', '/console/v1/nothing'],
    ['/console-admin/v1/device/x/y', '/console-admin/v1/device/x/y'],
    ['/v1/unknown', '/v1/unknown'],
    ['/graphql/extra', '/graphql/extra'],
    ['/assets/index-stale.js', '/assets/index-stale.js'],
  ])('answers the API path or missing file %s with not_found, not the page', async (url, reported) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ key: 'not_found', details: { method: 'GET', url: reported } });
  });

  it('leaves the routes of the APIs alone', async () => {
    const response = await app.inject({ method: 'GET', url: '/console/v1/device' });
    expect(response.json()).toEqual({ rows: [] });
  });

  it('tells server paths from screen paths', () => {
    expect(['/graphql', '/openapi.json', '/console-shared/v1/login', '/v2/device', '/dev-idp/sso'].map(isServerPath)).toEqual([true, true, true, true, true]);
    expect(['/', '/teleports', '/consoles', '/admin', '/v1'].map(isServerPath)).toEqual([false, false, false, false, true]);
  });

  it('without a built console still answers /release.json and not_found elsewhere', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'console-empty-'));
    const bare = await serve(empty);
    try {
      expect((await bare.inject({ method: 'GET', url: '/release.json' })).json()).toEqual({ version: '1.2.3' });
      const screen = await bare.inject({ method: 'GET', url: '/teleports' });
      expect(screen.statusCode).toBe(404);
      expect(screen.json()).toEqual({ key: 'not_found', details: { method: 'GET', url: '/teleports' } });
    } finally {
      await bare.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('the app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves /release.json with the server version', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/release.json' });
    expect(response.json()).toEqual({ version: 'test' });
  });
});
