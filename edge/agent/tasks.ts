import type { DeviceConfig } from '../../contracts/device/config';
import type { DeviceReport } from '../../contracts/hub/reports';
import type { ControlLoop } from '../control/loop';
import type { Runtime } from './runtime';

/**
 * The work a config runs on the agent's clock (docs/edge.md, What runs on the clock): polls
 * and schedules, loop steps, the arbiter's writes, asset, flash and loop reports.
 */

/** A repeating piece of work on the agent's clock. */
export interface Task {
  intervalMs: number;
  nextAt: number;
  run: (now: number) => Promise<void>;
}

type Send = (report: DeviceReport) => Promise<void>;

/** Fastest poll the agent does, ms, whatever loops and flash reports ask. */
const fastestPollMs = 100;
/** Slowest poll, ms: assets are read at least this often, for the loops and the reports. */
const slowestPollMs = 1000;

/** The tasks of a runtime, each first due `now`; tasks due together run in this order. */
export function tasksOf(runtime: Runtime, now: number, send: Send): Task[] {
  const { config } = runtime;
  const task = (intervalSeconds: number, run: (now: number) => Promise<void>): Task => ({
    intervalMs: Math.max(1, Math.round(intervalSeconds * 1000)),
    nextAt: now,
    run,
  });
  const flashIntervals = config.assets.map((asset) => flashIntervalOf(asset));
  const pollMs = Math.max(
    fastestPollMs,
    Math.min(
      slowestPollMs,
      ...config.activeControl.map((loop) => loop.controlLoopSleep * 1000),
      ...flashIntervals.filter((interval): interval is number => interval !== null).map((interval) => interval * 1000),
    ),
  );
  const tasks: Task[] = [task(pollMs / 1000, (at) => pollAndSchedule(runtime, at, send))];
  runtime.loops.forEach((loop, index) => {
    if (loop) {
      tasks.push(task(loop.sleepSeconds, (at) => stepLoop(runtime, loop, index, at)));
    }
  });
  // The arbiter writes after the loops of the same instant (tasks due together run in this order).
  tasks.push(task(pollMs / 1000, (at) => runtime.arbiter.apply(at, runtime.drivers)));
  tasks.push(task(config.reportingIntervalInSec, (at) => assetReports(runtime, at, null, send)));
  flashIntervals.forEach((interval, index) => {
    if (interval !== null && runtime.drivers[index]) {
      tasks.push(task(interval, (at) => assetReports(runtime, at, index, send)));
    }
  });
  runtime.loops.forEach((loop, index) => {
    const loopConfig = config.activeControl[index];
    if (loop && loopConfig) {
      tasks.push(task(loopConfig.reportingInterval ?? config.reportingIntervalInSec, (at) => loopReports(loop, at, send)));
    }
  });
  return tasks;
}

/** The flash interval of an asset, s; null when it sends no flash reports. */
function flashIntervalOf(asset: DeviceConfig['assets'][number]): number | null {
  if ('enableFlashReport' in asset && asset.enableFlashReport !== undefined) {
    return asset.enableFlashReport.reportingInterval;
  }
  if ('noFlashReport' in asset && asset.noFlashReport === false) {
    return 1;
  }
  return null;
}

/** Reads every asset, then brings the cloud's schedules to what they say now (before the loops, which see their scheduled limits). */
async function pollAndSchedule(runtime: Runtime, now: number, send: Send): Promise<void> {
  await Promise.all(runtime.drivers.map((driver) => driver?.poll()));
  const reports = await runtime.schedule.step(
    runtime.drivers.map((driver) => driver?.state),
    now,
  );
  for (const report of reports) {
    await send(report);
  }
}

async function stepLoop(runtime: Runtime, loop: ControlLoop, index: number, now: number): Promise<void> {
  const assets = runtime.drivers.map((driver) => driver?.state);
  const cloudSetpoints = new Map<number, number>();
  runtime.config.assets.forEach((_asset, assetIndex) => {
    const cloud = runtime.arbiter.desired(assetIndex).cloud;
    if (cloud !== undefined) {
      cloudSetpoints.set(assetIndex, cloud);
    }
  });
  const scheduledLimit = runtime.schedule.scheduledLimit(index);
  const scheduledAfrrDelta = runtime.schedule.scheduledAfrrDelta(index);
  const step = await loop.step({
    now,
    config: runtime.config,
    assets,
    cloudSetpoints,
    baseline: runtime.arbiter.baselines(now, assets),
    ...(scheduledLimit === undefined ? {} : { scheduledLimit }),
    ...(scheduledAfrrDelta === undefined ? {} : { scheduledAfrrDelta }),
  });
  runtime.arbiter.applyLoopStep(index, step);
  for (const [assetIndex, command] of step.commands ?? []) {
    await runtime.drivers[assetIndex]?.execute(command);
  }
}

/** The regular report of every asset (`only` null), or the flash report of one. */
async function assetReports(runtime: Runtime, now: number, only: number | null, send: Send): Promise<void> {
  const at = new Date(now);
  for (const [index, driver] of runtime.drivers.entries()) {
    if (!driver || (only !== null && index !== only)) {
      continue;
    }
    const report = driver.buildReport(at, runtime.arbiter.observations(index), only !== null);
    if (report) {
      await send(report);
    }
    if (only === null) {
      for (const alarm of driver.drainAlarms?.(at) ?? []) {
        await send(alarm);
      }
    }
  }
}

async function loopReports(loop: ControlLoop, now: number, send: Send): Promise<void> {
  const at = new Date(now);
  await send(loop.statusReport(at));
  for (const report of loop.drainReports(at)) {
    await send(report);
  }
}
