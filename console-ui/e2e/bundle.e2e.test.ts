import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipped, initialJavaScriptBudget, initialScripts, kb, lazyAdminScreens } from '../../bench/console-bundle';
import { consoleBuildFolder } from '../../server/rest/console.routes';

// The built console (npm run test:e2e builds it first): sizes, not times, so the figures do not
// depend on the machine. bench/console.bench.ts prints the same figures into docs/performance.md.
describe('the built console', () => {
  const assets = path.join(consoleBuildFolder, 'assets');

  beforeAll(() => {
    if (!existsSync(path.join(consoleBuildFolder, 'index.html'))) {
      throw new Error(`the console is not built in ${consoleBuildFolder}: run npm run build:console (npm run test:e2e does)`);
    }
  });

  it(`loads at most ${kb(initialJavaScriptBudget)} of JavaScript, gzipped, on its first page`, () => {
    const initial = initialScripts(consoleBuildFolder);
    const bytes = initial.reduce((sum, file) => sum + gzipped(file), 0);
    expect(initial.length).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(initialJavaScriptBudget);
  });

  it('loads every admin screen but the device list as its own chunk, not with the first page', () => {
    const initial = new Set(initialScripts(consoleBuildFolder).map((file) => path.basename(file)));
    const chunks = readdirSync(assets).filter((name) => name.endsWith('.js'));
    for (const screen of lazyAdminScreens) {
      const own = chunks.filter((name) => name.startsWith(`${screen}-`));
      expect({ screen, chunks: own.length }).toEqual({ screen, chunks: 1 });
      expect({ screen, initial: own.some((name) => initial.has(name)) }).toEqual({ screen, initial: false });
    }
  });
});
