import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../server/version';
import { buildServer } from '../test-support/server-process';
import { csvHeader, parseCsv } from './soak-samples';

const run = promisify(execFile);

/**
 * The soak script itself, briefly: the compiled command (`node dist/bench/run.js soak`, as
 * `npm run bench` runs it) on PGlite with 20 gateways for 15 s, a sample every 3 s. It must
 * write its samples and its summary, and count no error of any kind.
 */
describe('the soak benchmark', () => {
  let folder: string;

  beforeAll(async () => {
    await buildServer();
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-soak-test-'));
  });

  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('samples the server under load and writes a summary with no errors', async () => {
    const out = path.join(folder, 'soak.csv');
    const { BENCH_DATABASE_URL: _unused, ...env } = process.env;
    const { stdout } = await run(
      process.execPath,
      [path.join(projectRoot(), 'dist', 'bench', 'run.js'), 'soak', '--minutes', '0.25', '--gateways', '20', '--sample-seconds', '3', '--out', out],
      { env, maxBuffer: 16 * 2 ** 20 },
    );

    const text = readFileSync(out, 'utf8');
    expect(text.split('\n')[0]).toBe(csvHeader());
    const samples = parseCsv(text);
    expect(samples.length).toBeGreaterThanOrEqual(4);
    for (const sample of samples) {
      expect(sample.rssMb).toBeGreaterThan(0);
      expect(sample.gatewaysConnected).toBe(24);
      expect(sample.apiFailures).toBe(0);
      expect(sample.gatewayErrors).toBe(0);
      expect(sample.gatewayCloses).toBe(0);
      expect(sample.serverErrors).toBe(0);
    }
    expect(samples.reduce((sum, sample) => sum + sample.acknowledged, 0)).toBeGreaterThan(0);
    expect(samples.reduce((sum, sample) => sum + sample.demoReports, 0)).toBeGreaterThan(0);
    expect(stdout).toContain('(0 failed to connect), 0 closed by the server, 0 error frames');
    expect(stdout).toMatch(/reports: (\d+) sent, \d+ acknowledged in the windows, \1 in the database at the end, 0 lost/);
    expect(stdout).toMatch(/- memory (FLAT|NOT FLAT): /);
  }, 180_000);
});
