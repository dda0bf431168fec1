/**
 * Optimizer solve times (issue 6): the synthetic sites of edge/optimizer/optimizer.fixtures.ts
 * (feeders of ten controllable assets, their limits binding so batteries charge and solar is
 * curtailed) of 10, 100 and 1,000 controllable assets, solved over and over with each solver.
 * Each size and solver twice: the model handed to HiGHS as arrays (what the loop does: a model
 * made for the solve, passModel, run, the solution read back) and as CPLEX LP text (HiGHS's
 * one-shot solve: read, presolve, solve, results back by name). Times per solve, apart: building the
 * model's arrays (JavaScript), HiGHS reading the LP text alone (a persistent model's readModel,
 * measured on separate runs), and the whole solve. A few warm-up solves per line are not counted.
 */
import type { Highs } from 'highs';
import { syntheticSite, type SyntheticSite } from '../edge/optimizer/optimizer.fixtures';
import { buildOptimizerModel, lpText, type OptimizerConfig } from '../edge/optimizer/optimizer.model';
import { loadSolver, solveOptimizer, type OptimizerSolution, type SolverStatus } from '../edge/optimizer/optimizer.solver';

type Solver = OptimizerConfig['solverOptions']['solver'];
type Via = 'arrays' | 'text';

export interface OptimizerBenchLine {
  assets: number;
  nodes: number;
  /** Columns and rows of the LP, and its size. */
  columns: number;
  rows: number;
  lpKb: number;
  solver: Solver;
  /** How the model reached HiGHS. */
  via: Via;
  solves: number;
  buildP50Ms: number;
  buildP99Ms: number;
  readP50Ms: number;
  solveP50Ms: number;
  solveP99Ms: number;
  /** The status of every counted solve (one value when they agree). */
  statuses: SolverStatus[];
  objective: number | null;
  /** In the last solution: solar assets below their available power, and batteries charging. */
  curtailed: number;
  charging: number;
}

export interface OptimizerBenchOptions {
  sizes: number[];
  solvers: Solver[];
  vias: Via[];
  /** Counted solves per line for a site of this many assets. */
  repeats: (assets: number) => number;
  warmups: number;
}

export const defaultOptimizerBenchOptions: OptimizerBenchOptions = {
  sizes: [10, 100, 1000],
  solvers: ['choose', 'simplex', 'ipm'],
  vias: ['arrays', 'text'],
  repeats: (assets) => (assets <= 100 ? 200 : 100),
  // WebAssembly code is compiled further while it runs: the first solves of a size are slower.
  warmups: 10,
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** How many steered assets of a type the solution moves as `moved` says (W). */
function countSteered(solution: OptimizerSolution | null, site: SyntheticSite, type: string, moved: (setpoint: number, target: number) => boolean): number {
  if (solution === null) {
    return 0;
  }
  return solution.model.steered.filter(
    (asset) => site.device.assets[asset.asset]?.type === type && moved(solution.setpoints.get(asset.asset) ?? asset.target, asset.target),
  ).length;
}

/** HiGHS reading the LP text alone, ms. */
function readTime(highs: Highs, lp: string): number {
  const started = performance.now();
  const model = highs.createModel();
  try {
    model.readModel({ format: 'lp', data: lp });
    return performance.now() - started;
  } finally {
    model.dispose();
  }
}

export async function optimizerBenchmark(options: OptimizerBenchOptions = defaultOptimizerBenchOptions): Promise<OptimizerBenchLine[]> {
  const highs = await loadSolver();
  const lines: OptimizerBenchLine[] = [];
  for (const size of options.sizes) {
    const site = syntheticSite(size);
    const input = site.input;
    const model = buildOptimizerModel(site.loop, input);
    const lp = lpText(model.program);
    for (const solver of options.solvers) {
      for (const via of options.vias) {
        const loop = { ...site.loop, solverOptions: { ...site.loop.solverOptions, solver } };
        const builds: number[] = [];
        const solves: number[] = [];
        const reads: number[] = [];
        const statuses = new Set<SolverStatus>();
        let last: OptimizerSolution | null = null;
        const repeats = options.repeats(size);
        for (let run = 0; run < options.warmups + repeats; run += 1) {
          const solution = solveOptimizer(loop, input, highs, via);
          if (run < options.warmups) {
            continue;
          }
          builds.push(solution.buildMs);
          solves.push(solution.solveMs);
          statuses.add(solution.status);
          last = solution;
        }
        for (let run = 0; run < Math.min(repeats, 20); run += 1) {
          reads.push(readTime(highs, lp));
        }
        builds.sort((a, b) => a - b);
        solves.sort((a, b) => a - b);
        reads.sort((a, b) => a - b);
        lines.push({
          assets: site.controllable,
          nodes: site.nodes,
          columns: model.columns,
          rows: model.rows,
          lpKb: round(lp.length / 1024),
          solver,
          via,
          solves: repeats,
          buildP50Ms: round(percentile(builds, 50)),
          buildP99Ms: round(percentile(builds, 99)),
          readP50Ms: round(percentile(reads, 50)),
          solveP50Ms: round(percentile(solves, 50)),
          solveP99Ms: round(percentile(solves, 99)),
          statuses: [...statuses],
          objective: last?.objective === null || last?.objective === undefined ? null : Math.round(last.objective * 1e6) / 1e6,
          curtailed: countSteered(last, site, 'demo-solar', (setpoint, target) => setpoint < target - 1),
          charging: countSteered(last, site, 'demo-battery', (setpoint) => setpoint < -1),
        });
      }
    }
  }
  return lines;
}
