import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { parseDeviceConfig, type DeviceConfig } from '../contracts/device/config';
import { exampleDeviceConfig } from '../contracts/device/examples';
import { providerOrganizationId } from '../contracts/limits';
import { organizationCreateSchema } from '../contracts/organization';
import { validate } from '../contracts/validation';
import { systemActor, type Actor } from '../graph/common/context';
import { HashIds } from '../graph/common/hash-ids';
import { DeviceModel } from '../graph/fleet/models/device.model';
import { componentColumns, componentsOf, nominalActivePowerOf } from '../graph/fleet/services/device-config';
import { sessionCookieName } from '../graph/identity/services/session.service';
import { loadConfig } from '../server/config';
import { createLogger } from '../server/logger';
import { startServer, type RunningServer } from '../server/server';

/** What paging through one device list (or asking for one page of it, repeatedly) measured. */
export interface ListResult {
  name: string;
  /** Pages in one pass. */
  pages: number;
  /** Rows in one pass. */
  rows: number;
  /** Mean wall time of one pass, every page in turn. */
  totalMs: number;
  p50Ms: number;
  p99Ms: number;
  /** SQL queries per page: one number when every page took the same, else `min–max`. */
  queriesPerPage: string;
  failures: number;
}

export interface FleetBenchmark {
  devices: number;
  componentRows: number;
  scheduleRows: number;
  partnerships: number;
  partnershipDeviceRows: number;
  seedMs: number;
  passes: number;
  results: ListResult[];
  rssMb: { afterSeed: number; afterPaging: number };
}

const deviceCount = 10_000;
const batchSize = 500;
/** Passes over each list after one warm-up pass; the figures are over the measured passes. */
const passes = 2;
/** Every tenth device keeps the example's `pv-roof` identifier and stays out of the device group, so two filters are selective. */
const selectiveEvery = 10;
/** Partner organisations of the fleet's owner: the first sees every device, each other a list of one device in `listingPartners`. */
const partnerCount = 100;
const listingPartners = partnerCount - 1;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function rssMb(): number {
  return Math.round(process.memoryUsage().rss / 2 ** 20);
}

function round(value: number): number {
  return Number(value.toFixed(2));
}

async function insertInBatches(db: Knex, table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
  for (let start = 0; start < rows.length; start += batchSize) {
    await db(table).insert(rows.slice(start, start + batchSize));
  }
}

interface Seeded {
  apiKey: string;
  cookie: string;
  componentRows: number;
  scheduleRows: number;
  partnerships: number;
  partnershipDeviceRows: number;
  organizationId: number;
  /** The ops user of the cookie, and a partner organisation that lists devices, for presenting in process. */
  opsUserId: number;
  partnerOrganizationId: number;
}

/**
 * One customer organisation with 10,000 exposed devices (cloud API read-write), an API key, a
 * device group, 100 partner organisations (one with every device, each other with a list), and a
 * staff (ops) session.
 */
async function seed(server: RunningServer, hashIds: HashIds): Promise<Seeded> {
  const { services } = server;
  const db = server.database.db;
  const operator = systemActor('benchmark');
  const organization = await services.organizations.create(
    operator,
    validate(organizationCreateSchema, { name: 'Bench fleet', type: 'asset-owner' }, 'payload_invalid'),
  );
  const organizationId = hashIds.decode('organization', organization.hashId);
  if (organizationId === null) {
    throw new Error('the benchmark organisation hash id does not decode');
  }
  const { apiKey } = await services.apiKeys.create(operator, { organizationHashId: organization.hashId, name: 'Bench', ipRanges: [], publicKey: null });
  const group = await services.deviceGroups.create(operator, {
    name: 'Bench group',
    organizationHashId: organization.hashId,
    deviceOutageEmails: [],
    deviceOutageUsersHashIds: [],
  });
  const groupId = hashIds.decode('deviceGroup', group.hashId);

  const provider = await services.organizations.provider();
  await services.users.create(operator, { organizationHashId: provider.hashId, email: 'ops@bench.example', name: 'Bench ops', rights: ['gridport.ops'] });
  const user = await services.users.findByEmail('ops@bench.example');
  if (!user) {
    throw new Error('the benchmark ops user was not created');
  }
  const session = await services.sessions.mint(user.id, 'benchmark');

  const parsed = parseDeviceConfig(exampleDeviceConfig);
  const configOf = (selective: boolean, index: number): DeviceConfig => {
    if (selective) {
      return parsed;
    }
    const config = structuredClone(parsed);
    const [first, ...rest] = config.assets as { identifier?: string | null }[];
    config.assets = [{ ...first, identifier: `pv-roof-${index}` }, ...rest] as DeviceConfig['assets'];
    return config;
  };
  const devices = Array.from({ length: deviceCount }, (_, index) => {
    const selective = index % selectiveEvery === 0;
    const config = configOf(selective, index);
    const nominalActivePowerSum = nominalActivePowerOf(componentsOf(0, config));
    return {
      organization_id: organizationId,
      device_group_id: selective ? null : groupId,
      identifier: `bench-${String(index).padStart(5, '0')}`,
      name: `Bench device ${index}`,
      config: JSON.stringify(config),
      nominal_active_power_sum: nominalActivePowerSum,
      reporting_interval: 60,
      cloud_api: 'READ_WRITE',
      is_exposed_to_customer: true,
      in_production: true,
    };
  });
  await insertInBatches(db, 'devices', devices);
  const rows = (await db('devices').where('organization_id', organizationId).select('id', 'config')) as { id: number | string; config: DeviceConfig }[];
  const components = componentColumns(rows.flatMap((row) => componentsOf(Number(row.id), row.config)));
  await insertInBatches(db, 'device_components', components);
  const start = new Date(Date.UTC(2026, 11, 1, 12));
  const schedules = rows
    .filter((_, index) => index % 100 === 0)
    .map((row) => ({
      device_id: Number(row.id),
      kind: 'asset',
      identifier: 'bess-1',
      items: JSON.stringify(
        Array.from({ length: 4 }, (_, hour) => ({
          startAt: new Date(start.getTime() + hour * 3_600_000).toISOString(),
          endAt: new Date(start.getTime() + (hour + 1) * 3_600_000).toISOString(),
          command: { type: 'limitPower', feedIn: 100000, consume: null },
        })),
      ),
    }));
  await insertInBatches(db, 'device_schedules', schedules);
  const partners = (await db('organizations')
    .insert(Array.from({ length: partnerCount }, (_, index) => ({ name: `Bench partner ${index}`, type: 'installer' })))
    .returning('id')) as { id: number | string }[];
  const partnerships = (await db('partnerships')
    .insert(
      partners.map((partner, index) => ({
        owner_organization_id: organizationId,
        partner_organization_id: Number(partner.id),
        role: index % 2 === 0 ? 'viewer' : 'operator',
        all_devices: index === 0,
      })),
    )
    .returning('id')) as { id: number | string }[];
  const listing = partnerships.slice(1);
  const links = rows.map((row, index) => ({ partnership_id: Number(listing[index % listingPartners]?.id), device_id: Number(row.id) }));
  await insertInBatches(db, 'partnership_devices', links);
  // Fresh statistics, as autovacuum would have them on a fleet that grew over time.
  await db.raw('analyze');
  return {
    apiKey,
    cookie: `${sessionCookieName}=${session.token}`,
    componentRows: components.length,
    scheduleRows: schedules.length,
    partnerships: partnerships.length,
    partnershipDeviceRows: links.length,
    organizationId,
    opsUserId: user.id,
    partnerOrganizationId: Number(partners[1]?.id),
  };
}

interface Sample {
  ms: number;
  queries: number;
  rows: number;
  ok: boolean;
  next: string | null;
}

/**
 * Requests one after another, so the queries the database runs between a request's start and
 * its answer are that request's (the server does no background work on this database).
 */
function sampler(db: Knex, base: string) {
  let queries = 0;
  db.on('query', () => {
    queries += 1;
  });
  return async (url: string, headers: Record<string, string>, rowsKey: 'rows' | 'devices'): Promise<Sample> => {
    queries = 0;
    const begin = performance.now();
    const response = await fetch(`${base}${url}`, { headers });
    const body = (await response.json()) as Record<string, unknown>;
    const ms = performance.now() - begin;
    const list = body[rowsKey];
    const next = body.nextPageOffset;
    return { ms, queries, rows: Array.isArray(list) ? list.length : 0, ok: response.ok, next: typeof next === 'string' ? next : null };
  };
}

type Send = ReturnType<typeof sampler>;

function summarise(name: string, runs: Sample[][]): ListResult {
  const samples = runs.flat();
  const latencies = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  const queries = samples.map((sample) => sample.queries);
  const fewest = Math.min(...queries);
  const most = Math.max(...queries);
  const first = runs[0] ?? [];
  return {
    name,
    pages: first.length,
    rows: first.reduce((sum, sample) => sum + sample.rows, 0),
    totalMs: round(runs.reduce((sum, run) => sum + run.reduce((total, sample) => total + sample.ms, 0), 0) / Math.max(1, runs.length)),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    queriesPerPage: fewest === most ? String(fewest) : `${fewest}–${most}`,
    failures: samples.filter((sample) => !sample.ok).length,
  };
}

/** Pages through a list from the first page to the last, following nextPageOffset. */
async function pageThrough(send: Send, url: string, headers: Record<string, string>, rowsKey: 'rows' | 'devices'): Promise<Sample[]> {
  const samples: Sample[] = [];
  let offset: string | null = null;
  do {
    const sample: Sample = await send(offset === null ? url : `${url}&offset=${encodeURIComponent(offset)}`, headers, rowsKey);
    samples.push(sample);
    offset = sample.ok ? sample.next : null;
  } while (offset !== null);
  return samples;
}

/**
 * `DeviceService.present` called in process, `times` over, on one page of devices read once: the
 * grouping of a page's rows without HTTP, authentication and JSON around it.
 */
function presentInProcess(server: RunningServer, devices: readonly DeviceModel[], actor: Actor, times: number) {
  const db = server.database.db;
  let queries = 0;
  db.on('query', () => {
    queries += 1;
  });
  return async (): Promise<Sample[]> => {
    const samples: Sample[] = [];
    for (let i = 0; i < times; i += 1) {
      queries = 0;
      const begin = performance.now();
      const views = await server.services.devices.present(actor, devices);
      samples.push({ ms: performance.now() - begin, queries, rows: views.length, ok: views.length === devices.length, next: null });
    }
    return samples;
  };
}

/** One warm-up pass, then `passes` measured ones. */
async function measure(name: string, pass: () => Promise<Sample[]>): Promise<ListResult> {
  await pass();
  const runs: Sample[][] = [];
  for (let i = 0; i < passes; i += 1) {
    runs.push(await pass());
  }
  return summarise(name, runs);
}

/**
 * The v2 device list (API key) and the admin device list (ops session) at 10,000 devices. The
 * server runs in this process, started as `npm start` starts it (startServer) on PGlite in a
 * fresh data folder or on PostgreSQL at `databaseUrl` (an empty database); requests go over
 * loopback HTTP one at a time, and a knex `query` listener counts each request's SQL queries.
 */
export async function fleetBenchmark(databaseUrl: string | null): Promise<FleetBenchmark> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gridport-bench-fleet-'));
  const config = loadConfig({
    GRIDPORT_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    // No demo fleet: its gateways' queries would count against the requests.
    GRIDPORT_DEMO: 'false',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const server = await startServer(config, createLogger('warn', process.stderr));
  try {
    const seedStarted = performance.now();
    const seeded = await seed(server, new HashIds(config.secrets.hashIdSecret));
    const seedMs = Math.round(performance.now() - seedStarted);
    const afterSeed = rssMb();

    const send = sampler(server.database.db, server.url);
    const key = { authorization: `Bearer ${seeded.apiKey}` };
    const ops = { cookie: seeded.cookie };
    const v2 = '/v2/device?rowsPerPage=500';
    const admin = '/console-admin/v1/device?rowsPerPage=500';
    const firstPage = (url: string, headers: Record<string, string>, rowsKey: 'rows' | 'devices', times: number) => async () => {
      const samples: Sample[] = [];
      for (let i = 0; i < times; i += 1) {
        samples.push(await send(url, headers, rowsKey));
      }
      return samples;
    };
    const results = [
      await measure('GET /v2/device, all pages of 500', () => pageThrough(send, v2, key, 'devices')),
      await measure('GET /v2/device, first page of 500 (×10)', firstPage(v2, key, 'devices', 10)),
      await measure('GET /v2/device, first page of 50 (×10)', firstPage('/v2/device?rowsPerPage=50', key, 'devices', 10)),
      await measure('GET /console-admin/v1/device, all pages of 500', () => pageThrough(send, admin, ops, 'rows')),
      await measure('GET /console-admin/v1/device, first page of 50 (×10)', firstPage('/console-admin/v1/device?rowsPerPage=50', ops, 'rows', 10)),
      await measure('admin list, assetType=sma-sunny-tripower (every device), all pages', () =>
        pageThrough(send, `${admin}&assetType=sma-sunny-tripower`, ops, 'rows'),
      ),
      await measure('admin list, assetIdentifier=pv-roof (1 in 10), all pages', () => pageThrough(send, `${admin}&assetIdentifier=pv-roof`, ops, 'rows')),
      await measure('admin list, deviceGroupHashId=none (1 in 10), all pages', () => pageThrough(send, `${admin}&deviceGroupHashId=none`, ops, 'rows')),
      await measure('admin list, activeControlType=optimizer (every device), all pages', () =>
        pageThrough(send, `${admin}&activeControlType=optimizer`, ops, 'rows'),
      ),
    ];
    const page = await DeviceModel.query(server.database.db).where('organization_id', seeded.organizationId).orderBy('id', 'desc').limit(500);
    const opsActor: Actor = {
      kind: 'user',
      userId: seeded.opsUserId,
      apiKeyId: null,
      organizationId: providerOrganizationId,
      rights: ['gridport.ops'],
      name: 'Bench ops',
    };
    const partnerActor: Actor = { kind: 'user', userId: null, apiKeyId: null, organizationId: seeded.partnerOrganizationId, rights: [], name: 'Bench partner' };
    results.push(
      await measure('DeviceService.present, 500 devices in process, as ops (×10)', presentInProcess(server, page, opsActor, 10)),
      await measure("DeviceService.present, 500 devices in process, as a partner's user (×10)", presentInProcess(server, page, partnerActor, 10)),
    );
    return {
      devices: deviceCount,
      componentRows: seeded.componentRows,
      scheduleRows: seeded.scheduleRows,
      partnerships: seeded.partnerships,
      partnershipDeviceRows: seeded.partnershipDeviceRows,
      seedMs,
      passes,
      results,
      rssMb: { afterSeed, afterPaging: rssMb() },
    };
  } finally {
    await server.stop();
    // The embedded database of 10,000 devices takes about 300 MB.
    rmSync(dataDir, { recursive: true, force: true });
  }
}
