import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import fastifyStatic from '@fastify/static';
import { GridportError } from '../../contracts/errors';
import { projectRoot } from '../version';

/** Where `npm run build:console` (Vite) writes the console. */
export const consoleBuildFolder = path.join(projectRoot(), 'dist', 'console-ui');

/** Paths of the APIs and the server's own pages: an unknown one is not_found, never the console's page. */
const serverPrefixes = ['/console-admin/', '/console/', '/console-shared/', '/v1/', '/v2/', '/graphql', '/openapi.json', '/dev-idp/'];

/** Whether a path names something the server answers itself rather than a screen of the console. */
export function isServerPath(url: string): boolean {
  return serverPrefixes.some((prefix) => url === prefix.replace(/\/$/, '') || url.startsWith(prefix));
}

export interface ConsoleOptions {
  /** The version the console compares with the one it was built with (spec README, "Version check"). */
  version: string;
  /** The built console; the Vite output by default. */
  folder?: string;
}

/**
 * The browser console: `/release.json`, the built files (hashed assets cached for a year, the
 * page itself revalidated), and the page for every other GET that is not a server path, so a
 * reload on /teleports/abc or /admin/devices opens the single-page app there.
 */
export function consolePlugin({ version, folder = consoleBuildFolder }: ConsoleOptions): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    app.get('/release.json', { schema: { hide: true } }, async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { version };
    });

    if (!existsSync(path.join(folder, 'index.html'))) {
      app.log.warn({ folder }, 'the console is not built (npm run build:console); only its /release.json is served');
      return;
    }
    await app.register(fastifyStatic, {
      root: folder,
      // One route per built file instead of a catch-all, so the page fallback below owns every other path.
      wildcard: false,
      // The cache policy is ours (setHeaders), not send's default max-age=0.
      cacheControl: false,
      setHeaders: (response, filePath) => {
        const hashed = filePath.startsWith(path.join(folder, 'assets') + path.sep);
        response.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    app.get('/*', { schema: { hide: true } }, async (request, reply) => {
      const url = request.url.split('?')[0] ?? '/';
      // A missing file (a stale asset name) or an API path answers 404, not the page.
      if (isServerPath(url) || path.posix.extname(url) !== '') {
        throw new GridportError('not_found', { method: request.method, url });
      }
      return reply.sendFile('index.html');
    });
  };
}
