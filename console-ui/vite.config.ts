import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vite';

const projectRoot = path.resolve(__dirname, '..');
const { version } = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string };

/**
 * The console: built into dist/console-ui, which the server serves (server/rest/console.routes.ts).
 * Shared schemas come from ../contracts; the version the console was built with is compared
 * with /release.json by the version check.
 */
export default defineConfig({
  root: __dirname,
  base: '/',
  define: { __GRIDPORT_VERSION__: JSON.stringify(version) },
  build: {
    outDir: path.join(projectRoot, 'dist', 'console-ui'),
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      onwarn(warning, warn) {
        // React libraries mark themselves "use client" for server components; a browser bundle has no use for it.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') {
          return;
        }
        warn(warning);
      },
    },
  },
  server: { fs: { allow: [projectRoot] } },
});
