/**
 * The console's figures (docs/performance.md, "Console"): the gzipped size of the JavaScript the
 * first page loads, and how long the device list of 10,000 devices takes to show its first rows
 * in Chromium. Builds nothing itself: run `npm run build` first, then
 * `node dist/bench/console.bench.js`. Prints a markdown table.
 */
import 'reflect-metadata';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { exampleDeviceConfig } from '../contracts/device/examples';
import { organizationCreateSchema } from '../contracts/organization';
import { validate } from '../contracts/validation';
import { systemActor } from '../graph/common/context';
import { sessionCookieName } from '../graph/identity/services/session.service';
import { loadConfig } from '../server/config';
import { createLogger } from '../server/logger';
import { consoleBuildFolder } from '../server/rest/console.routes';
import { startServer, type RunningServer } from '../server/server';
import { gzipped, initialScripts, kb, lazyAdminScreens } from './console-bundle';

const deviceCount = 10_000;
/** Page loads measured per list, each in a fresh page, after one warm-up load. */
const loads = 5;
const chromiumPath = '/usr/bin/chromium';

interface Seeded {
  customerCookie: string;
  staffCookie: string;
  seedMs: number;
}

/** 10,000 devices shipped to one customer organisation through the device service, shown to the customer; a customer and an ops session. */
async function seed(server: RunningServer): Promise<Seeded> {
  const { services } = server;
  const operator = systemActor('benchmark');
  const started = performance.now();
  const organization = await services.organizations.create(
    operator,
    validate(organizationCreateSchema, { name: 'Bench console', type: 'asset-owner' }, 'payload_invalid'),
  );
  const shipped: string[] = [];
  for (let index = 0; index < deviceCount; index += 1) {
    shipped.push(
      (await services.devices.ship(operator, { organizationHashId: organization.hashId, name: `Bench device ${String(index).padStart(5, '0')}` })).hashId,
    );
  }
  // Exposing each device to its customer through the service would validate the config 10,000
  // times over; one statement gives every shipped device the example config and exposes it.
  await server.database.db('devices').update({ config: JSON.stringify(exampleDeviceConfig), is_exposed_to_customer: true });
  const seedMs = Math.round(performance.now() - started);

  await services.users.create(operator, {
    organizationHashId: organization.hashId,
    email: 'customer@bench.example',
    name: 'Bench customer',
    rights: ['customer.read', 'customer.write'],
  });
  const provider = await services.organizations.provider();
  await services.users.create(operator, { organizationHashId: provider.hashId, email: 'ops@bench.example', name: 'Bench ops', rights: ['gridport.ops'] });
  const cookieOf = async (email: string) => {
    const user = await services.users.findByEmail(email);
    if (!user) {
      throw new Error(`the benchmark user ${email} was not created`);
    }
    return (await services.sessions.mint(user.id, 'benchmark')).token;
  };
  return { customerCookie: await cookieOf('customer@bench.example'), staffCookie: await cookieOf('ops@bench.example'), seedMs };
}

/** From navigation to the first rows of the list on screen, in a fresh page each time; ms. */
async function timeFirstRows(context: BrowserContext, url: string): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run <= loads; run += 1) {
    const page = await context.newPage();
    const started = performance.now();
    await page.goto(url);
    await page.locator('[role="row"][aria-rowindex="1"]').waitFor({ timeout: 60_000 });
    const ms = performance.now() - started;
    await page.close();
    // The first load warms the server and the browser's cache of the built files.
    if (run > 0) {
      times.push(ms);
    }
  }
  return times.sort((a, b) => a - b);
}

function median(sorted: number[]): number {
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function main(): Promise<void> {
  if (!existsSync(path.join(consoleBuildFolder, 'index.html'))) {
    throw new Error(`the console is not built in ${consoleBuildFolder}: run npm run build first`);
  }
  const assets = path.join(consoleBuildFolder, 'assets');
  const initial = initialScripts(consoleBuildFolder);
  const initialBytes = initial.reduce((sum, file) => sum + gzipped(file), 0);
  const allScripts = readdirSync(assets).filter((name) => name.endsWith('.js'));
  const allBytes = allScripts.reduce((sum, name) => sum + gzipped(path.join(assets, name)), 0);
  const chart = allScripts.find((name) => name.startsWith('PowerChart'));
  const screenChunks = allScripts.filter((name) => lazyAdminScreens.some((screen) => name.startsWith(`${screen}-`)));
  const largestScreen = screenChunks.map((name) => ({ name, bytes: gzipped(path.join(assets, name)) })).sort((a, b) => b.bytes - a.bytes)[0];

  const dataDir = mkdtempSync(path.join(tmpdir(), 'gridport-bench-console-'));
  const profile = mkdtempSync(path.join(tmpdir(), 'gridport-bench-chromium-'));
  const config = loadConfig({ GRIDPORT_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'production', GRIDPORT_DEMO: 'false' });
  const server = await startServer(config, createLogger('warn', process.stderr));
  let context: BrowserContext | null = null;
  try {
    const seeded = await seed(server);
    context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    const { hostname } = new URL(server.url);
    const signIn = async (token: string) => {
      await context?.clearCookies();
      await context?.addCookies([{ name: sessionCookieName, value: token, domain: hostname, path: '/', httpOnly: true, sameSite: 'Lax' }]);
    };
    await signIn(seeded.customerCookie);
    const customer = await timeFirstRows(context, `${server.url}/teleports`);
    await signIn(seeded.staffCookie);
    const admin = await timeFirstRows(context, `${server.url}/admin/devices`);

    const ms = (values: number[]) => values.map((value) => Math.round(value)).join(', ');
    process.stdout.write(`Devices seeded through the device service: ${deviceCount} in ${seeded.seedMs} ms.\n\n`);
    process.stdout.write('| figure | value |\n| --- | --- |\n');
    process.stdout.write(`| initial JavaScript, gzip -9 (${initial.map((file) => path.basename(file)).join(', ')}) | ${kb(initialBytes)} |\n`);
    process.stdout.write(`| all JavaScript chunks, gzip -9 (${allScripts.length} files) | ${kb(allBytes)} |\n`);
    if (chart !== undefined) {
      process.stdout.write(`| uPlot chart chunk, loaded with the first chart, gzip -9 | ${kb(gzipped(path.join(assets, chart)))} |\n`);
    }
    if (largestScreen !== undefined) {
      process.stdout.write(
        `| admin screens in their own chunks, loaded when first shown: ${screenChunks.length} files, the largest (${largestScreen.name}) gzip -9 | ${kb(largestScreen.bytes)} |\n`,
      );
    }
    process.stdout.write(
      `| /teleports (customer, ${deviceCount} devices): page load to first rows, median of ${loads} (ms each) | ${Math.round(median(customer))} ms (${ms(customer)}) |\n`,
    );
    process.stdout.write(
      `| /admin/devices (ops, ${deviceCount} devices): page load to first rows, median of ${loads} (ms each) | ${Math.round(median(admin))} ms (${ms(admin)}) |\n`,
    );
  } finally {
    await context?.close();
    await server.stop();
    rmSync(profile, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
