import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { categoryOfType } from '../contracts/device/asset-types';
import { organizationCreateSchema } from '../contracts/organization';
import { validate } from '../contracts/validation';
import { systemActor } from '../graph/common/context';
import { HashIds } from '../graph/common/hash-ids';
import { MonitorEvaluator } from '../graph/operations/services/monitor-evaluator';
import { MonitorSweep } from '../graph/operations/services/monitor-sweep';
import { createServices } from '../graph/services';
import { ReportIngest, type IncomingReport } from '../device-hub/ingest';
import { migrateLatest, openDatabase } from '../server/database';
import { seedDevices, storedExampleConfig } from '../test-support/fleet';

/** One pass of reports through the ingest, monitors off or on. */
export interface MonitorsPass {
  monitors: 'off' | 'on';
  reports: number;
  seconds: number;
  perSecond: number;
  /** Mean reports per ingest transaction. */
  meanBatch: number;
  /** After the last report was stored, how long the evaluator took to finish its database work (ms). */
  evaluatorLagMs: number;
  /** Alarms the evaluator fired and cleared, and its database writes (state changes and audits of alarm reports). */
  fired: number;
  cleared: number;
  writes: number;
  /** CPU of this process (ingest, evaluator, and on PGlite the database) during the pass, in cores. */
  cpuCores: number;
  /** Time spent in the evaluator's hot path (evaluate, synchronous) per 100,000 reports, in ms. */
  evaluateMsPer100k: number;
}

export interface MonitorsBenchmark {
  devices: number;
  passes: MonitorsPass[];
}

const reportTypeOf: Record<string, string> = {
  battery: 'batteryPower',
  solar: 'solarPower',
  wind: 'windPower',
  meter: 'meterPower',
  ev: 'evPower',
  generator: 'generatorPower',
};

/**
 * Reports per second through the ingest (batches of up to 2000, as the hub stores them) with the
 * monitors off and on, in one run, alternating (three of each, every pass on an emptied reports
 * table) so that neither a warm cache nor a growing table favours one. The reports are asset reports of the example config with connection statistics and
 * setpoints (what the evaluator reads); 1 % of the devices have an asset that fails half its
 * requests (asset.connectivity fires) and one report in `alarmEvery` (500 by default) is an agent alarm that raises or
 * clears (an alarm and its issue with monitors on; a messageFromDevice audit entry in both modes,
 * as the hub writes it whether monitors run or not). With monitors on, the sweep runs every second
 * beside the ingest.
 */
export async function monitorsBenchmark(
  databaseUrl: string | null,
  options: { devices: number; reportsPerPass: number; alarmEvery: number },
): Promise<MonitorsBenchmark> {
  const schema = `bench_monitors_${randomBytes(4).toString('hex')}`;
  const { db } = openDatabase({ url: databaseUrl, schema, poolMax: 10 });
  await migrateLatest(db, schema);
  const log = pino({ level: 'silent' });
  const services = createServices({
    db,
    hashIds: new HashIds(randomBytes(32).toString('hex')),
    sessionSecret: randomBytes(32).toString('hex'),
    encryptionKey: randomBytes(32).toString('hex'),
    log,
  });
  const organization = await services.organizations.create(
    systemActor('bench'),
    validate(organizationCreateSchema, { name: 'Monitors Bench BV', type: 'asset-owner' }, 'payload_invalid'),
  );
  const organizationId = services.hashIds.decode('organization', organization.hashId) ?? 0;
  const deviceIds = await seedDevices(db, organizationId, options.devices);
  const assets = storedExampleConfig.assets
    .map((asset, index) => ({ index, type: reportTypeOf[categoryOfType(asset.type) ?? ''] }))
    .filter((asset): asset is { index: number; type: string } => asset.type !== undefined);

  let sequence = 0;
  const start = Date.now() - 60 * 60 * 1000;
  const nextReport = (n: number): IncomingReport => {
    sequence += 1;
    const deviceIndex = n % deviceIds.length;
    const deviceId = deviceIds[deviceIndex] ?? 0;
    const at = new Date(start + sequence);
    if (sequence % options.alarmEvery === 0) {
      const observations = {
        code: 'activeControl.slowControlLoop',
        level: 'warning',
        active: (sequence / options.alarmEvery) % 2 === 1,
        description: 'control loop 0: slow',
      };
      return {
        deviceId,
        reportId: `m${sequence}`,
        type: 'alarm',
        at,
        assetIndex: null,
        controllerIndex: null,
        body: { type: 'alarm', at: at.toISOString(), observations },
      };
    }
    const asset = assets[Math.floor(n / deviceIds.length) % assets.length] ?? { index: 0, type: 'meterPower' };
    const failing = deviceIndex % 100 === 0 && asset.index === assets[0]?.index;
    const observations = {
      activePower: 1000,
      setpoints: { confirmed: 1000, desired: { cloud: null }, effective: 1000 },
      connectionStatistics: { success: 10, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: failing ? 10 : 0, responseError: 0 },
    };
    return {
      deviceId,
      reportId: `m${sequence}`,
      type: asset.type,
      at,
      assetIndex: asset.index,
      controllerIndex: null,
      body: { type: asset.type, at: at.toISOString(), asset: asset.index, observations },
    };
  };

  // One evaluator for every pass with monitors on, as one runs for the life of a node.
  const onlyEvaluator = new MonitorEvaluator(db, services.alarms, log);
  const pass = async (monitors: 'off' | 'on', reports: number): Promise<MonitorsPass> => {
    const evaluator = monitors === 'on' ? onlyEvaluator : null;
    const before = { ...onlyEvaluator.stats };
    const sweep = monitors === 'on' ? new MonitorSweep(db, services.alarms, { sweepSeconds: 1 }, log) : null;
    sweep?.start();
    // Each pass starts from an empty reports table, so that its growth favours neither mode.
    await db.raw('truncate device_reports');
    let evaluateMs = 0;
    // As the hub does: messages from devices are audited in both modes, the evaluator runs only with monitors on.
    const ingest = new ReportIngest(db, services.pubsub, (stored) => {
      services.messagesFromDevice.reportsStored(stored);
      if (evaluator) {
        const entered = performance.now();
        evaluator.evaluate(stored);
        evaluateMs += performance.now() - entered;
      }
    });
    const cpu = process.cpuUsage();
    const began = performance.now();
    const chunk = 20_000;
    for (let sent = 0; sent < reports; sent += chunk) {
      const pending: Promise<void>[] = [];
      for (let n = sent; n < Math.min(reports, sent + chunk); n += 1) {
        pending.push(ingest.submit(nextReport(n)));
      }
      await Promise.all(pending);
    }
    const stored = performance.now();
    await evaluator?.idle();
    await services.messagesFromDevice.idle();
    const ended = performance.now();
    await ingest.close();
    await sweep?.stop();
    const used = process.cpuUsage(cpu);
    const seconds = (ended - began) / 1000;
    return {
      monitors,
      reports,
      seconds: Math.round(seconds * 100) / 100,
      perSecond: Math.round(reports / seconds),
      meanBatch: Math.round(ingest.stats.reports / Math.max(1, ingest.stats.batches)),
      evaluatorLagMs: Math.round(ended - stored),
      fired: onlyEvaluator.stats.fired - before.fired,
      cleared: onlyEvaluator.stats.cleared - before.cleared,
      writes: onlyEvaluator.stats.writes - before.writes,
      cpuCores: Math.round(((used.user + used.system) / 1000 / (ended - began)) * 100) / 100,
      evaluateMsPer100k: Math.round((evaluateMs / reports) * 100_000),
    };
  };

  // A warm-up pass of each (connections, JIT, the devices' states loaded once), then the measured ones.
  await pass('off', Math.min(20_000, options.reportsPerPass));
  await pass('on', Math.min(20_000, options.reportsPerPass));
  const passes: MonitorsPass[] = [];
  for (const monitors of ['off', 'on', 'off', 'on', 'off', 'on'] as const) {
    passes.push(await pass(monitors, options.reportsPerPass));
  }
  await onlyEvaluator.close();
  await services.alarms.settled();
  await db.raw('drop schema if exists ?? cascade', [schema]);
  await db.destroy();
  return { devices: options.devices, passes };
}
