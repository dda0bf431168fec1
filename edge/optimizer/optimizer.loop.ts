/**
 * The optimizer control loop (device-model.md sections 3.5, 3.6): at each step it solves the
 * site's model (optimizer.model.ts) with HiGHS and asks for the setpoints of the solution. When the
 * limits cannot all be kept it still applies the least-bad setpoints; when HiGHS gives no solution
 * (time limit, error, an infeasible model) it applies the assets' fallback. Either way it raises the
 * "optimizer unsolvable" alarm of section 3.11 once, and clears it at the next optimal step.
 */
import type { DeviceConfig } from '../../contracts/device/config';
import type { ControlLoop as ControlLoopConfig, TopologyNode } from '../../contracts/device/control-loops';
import type { AlarmReport, ControlLoopStatusReport, DeviceReport } from '../../contracts/hub/reports';
import type { ControlLoop, LoopStep, SiteSnapshot } from '../control/loop';
import { fallbackOf } from '../control/setpoints';
import type { OptimizerConfig } from './optimizer.model';
import { loadSolver, solveOptimizer, type LpSolver, type OptimizerSolution, type SolverStatus } from './optimizer.solver';

/** The alarm code of the "optimizer unsolvable" monitor (device-model.md section 3.11, group activeControl). */
export const optimizerUnsolvableAlarm = 'activeControl.optimizerUnsolvable';

/** The longest alarm description a report carries (contracts/hub/reports.ts). */
const alarmDescriptionMax = 2000;

export interface OptimizerLoopOptions {
  /** Solves the model; HiGHS, loaded once per process, when not given. */
  solver?: LpSolver;
}

/** Every controllable asset of the topology, depth-first. */
function controllableAssets(node: TopologyNode): number[] {
  return [...node.assets.controllable, ...node.children.flatMap(controllableAssets)];
}

interface LastStep {
  solution: OptimizerSolution | null;
  status: SolverStatus;
  fallback: boolean;
  iterationMs: number;
}

/** Makes the optimizer loop of the config's activeControl entry `index`. */
export function createOptimizerLoop(index: number, config: ControlLoopConfig, device: DeviceConfig, options: OptimizerLoopOptions = {}): ControlLoop {
  if (config.type !== 'optimizer') {
    throw new TypeError(`createOptimizerLoop was given a ${config.type} loop`);
  }
  const loop: OptimizerConfig = config;
  if (options.solver === undefined) {
    // Start compiling HiGHS now so the first step does not wait for it; a failed load is retried and reported by the step.
    loadSolver().catch(() => undefined);
  }
  const steerable = controllableAssets(loop.topology);
  let last: LastStep | null = null;
  let alarmRaised = false;
  const alarms: { at: number; active: boolean; description: string }[] = [];

  /**
   * While HiGHS gives no solution every controllable asset takes its fallback (section 3.4, the
   * rule of edge/control/setpoints.ts: fallbackSetpoint, else fallbackLimit, onlyInOptimizer ones
   * included), and an asset without one is released.
   */
  function fallbackSetpoints(): Map<number, number | null> {
    const setpoints = new Map<number, number | null>();
    for (const assetIndex of steerable) {
      const asset = device.assets[assetIndex];
      if (asset !== undefined) {
        setpoints.set(assetIndex, fallbackOf(asset, device) ?? null);
      }
    }
    return setpoints;
  }

  async function solve(site: SiteSnapshot): Promise<{ solution: OptimizerSolution | null; status: SolverStatus; message: string }> {
    let solver: LpSolver;
    try {
      solver = options.solver ?? (await loadSolver());
    } catch (error) {
      return { solution: null, status: 'error', message: `HiGHS could not be loaded: ${error instanceof Error ? error.message : String(error)}` };
    }
    const solution = solveOptimizer(
      loop,
      { now: site.now, assets: device.assets, states: site.assets, cloudSetpoints: site.cloudSetpoints, scheduledLimit: site.scheduledLimit },
      solver,
    );
    return { solution, status: solution.status, message: solution.message ?? '' };
  }

  return {
    index,
    type: 'optimizer',
    config,
    sleepSeconds: loop.controlLoopSleep,

    async step(site: SiteSnapshot): Promise<LoopStep> {
      const started = performance.now();
      const { solution, status, message } = await solve(site);
      // A solution that breaks a limit (infeasible with nodes) is still the least-bad one; no solution means fallback.
      const solved = solution !== null && solution.nodes.length > 0;
      const setpoints: Map<number, number | null> = solved ? new Map(solution.setpoints) : fallbackSetpoints();
      if (status !== 'optimal' && !alarmRaised) {
        alarmRaised = true;
        const description = `${status}: ${message}; ${solved ? 'least-bad setpoints applied' : 'fallback setpoints applied'}`;
        alarms.push({ at: site.now, active: true, description: description.slice(0, alarmDescriptionMax) });
      } else if (status === 'optimal' && alarmRaised) {
        alarmRaised = false;
        alarms.push({ at: site.now, active: false, description: 'optimal again' });
      }
      last = { solution, status, fallback: !solved, iterationMs: performance.now() - started };
      return { setpoints };
    },

    statusReport(at: Date): DeviceReport {
      const model = last?.solution?.model;
      const root = model?.nodes[0];
      const report: ControlLoopStatusReport<'optimizer'> = {
        type: 'optimizerStatus',
        at: at.toISOString(),
        controller: index,
        observations: {
          state: last === null ? 'idle' : last.fallback ? 'fallback' : 'active',
          monitoredPower: root?.flowNow ?? null,
          consumptionLimit: root?.consumptionLimit ?? null,
          feedInLimit: root?.feedInLimit ?? null,
          iterationMs: last?.iterationMs ?? null,
          uncontrollableAssets: model?.uncontrollable ?? [],
          unreadableAssets: model?.unreadable ?? [],
          solverStatus: last?.status ?? null,
          objective: last?.solution?.objective ?? null,
          solveMs: last?.solution?.solveMs ?? null,
        },
      };
      return report;
    },

    drainReports(): DeviceReport[] {
      const reports = alarms.map((alarm): AlarmReport => ({
        type: 'alarm',
        at: new Date(alarm.at).toISOString(),
        observations: { code: optimizerUnsolvableAlarm, level: 'fault', active: alarm.active, description: alarm.description },
      }));
      alarms.length = 0;
      return reports;
    },

    close(): Promise<void> {
      return Promise.resolve();
    },
  };
}
