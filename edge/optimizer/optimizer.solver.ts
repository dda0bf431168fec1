/**
 * Solves the optimizer's model with HiGHS (the `highs` package, WebAssembly): loaded once per
 * process, then one synchronous solve per step. The model goes to HiGHS as arrays (a model made
 * for the solve, `passModel`, `run`): about half the time of having HiGHS read it as LP text
 * (docs/performance.md). A solver that only has HiGHS's one-shot `solve` (a test's wrapper) gets
 * the same model as LP text.
 */
import loadHighs, { type Highs } from 'highs';
import { controlLoopDefaults } from '../../contracts/device/control-loops';
import {
  buildOptimizerModel,
  lpText,
  optimizerWeights,
  violationToleranceW,
  type OptimizerConfig,
  type OptimizerModel,
  type OptimizerSite,
} from './optimizer.model';

/** What solves a model: HiGHS (arrays), or something with HiGHS's one-shot `solve` of LP text (tests wrap it). */
export type LpSolver = Pick<Highs, 'solve'> | Pick<Highs, 'createModel' | 'constants'>;
export type HighsOptions = NonNullable<Parameters<Highs['solve']>[1]>;
export type SolverStatus = 'optimal' | 'infeasible' | 'unbounded' | 'timeLimit' | 'error';

let loading: Promise<Highs> | undefined;

/** HiGHS, loaded (compiled and instantiated) once per process. */
export function loadSolver(): Promise<Highs> {
  if (loading === undefined) {
    loading = loadHighs().catch((error: unknown) => {
      // Let the next step try again rather than keep a failed load for ever.
      loading = undefined;
      throw error;
    });
  }
  return loading;
}

/**
 * The loop's solverOptions as HiGHS options: solver as is; timeLimit s as time_limit; tolerance as
 * the dual feasibility and interior-point optimality tolerances, and as the primal feasibility
 * tolerance unless primalFeasibilityTolerance gives that one. Tolerances below HiGHS's floor
 * (1e-10, the spec's minimum for primalFeasibilityTolerance) are raised to it. Presolve is off
 * for simplex and choose (HiGHS picks simplex for an LP): on this model it costs several times
 * what it saves (docs/performance.md); the interior-point method keeps HiGHS's default.
 */
export function highsOptions(options: OptimizerConfig['solverOptions']): HighsOptions {
  const tolerance = Math.max(options.tolerance, controlLoopDefaults.solverPrimalFeasibilityToleranceMin);
  return {
    solver: options.solver,
    ...(options.solver === 'ipm' ? {} : { presolve: 'off' as const }),
    time_limit: options.timeLimit,
    dual_feasibility_tolerance: tolerance,
    ipm_optimality_tolerance: tolerance,
    primal_feasibility_tolerance: options.primalFeasibilityTolerance ?? tolerance,
    output_flag: false,
  };
}

/** A node's flow after the setpoints, and how far it breaks its limits. */
export interface NodeOutcome {
  name: string;
  /** W, meter sign. */
  flow: number;
  /** W above the consumption limit, and beyond the feed-in limit (0 when kept). */
  consumptionViolation: number;
  feedInViolation: number;
}

export interface OptimizerSolution {
  /**
   * optimal: every limit kept. infeasible: HiGHS found the model infeasible, or (with setpoints)
   * the least-bad setpoints still break a limit. timeLimit, unbounded, error: no setpoints.
   */
  status: SolverStatus;
  /** Setpoints, W, by asset index: empty when the solve gave none to use. */
  setpoints: Map<number, number>;
  /** The objective (per-unit, weights of optimizerWeights); null without a solution. */
  objective: number | null;
  /** Node flows after the setpoints, depth-first from the root; empty without a solution. */
  nodes: NodeOutcome[];
  model: OptimizerModel;
  /** Time to write the model, and time in HiGHS (reading the model and solving it), ms. */
  buildMs: number;
  solveMs: number;
  /** What went wrong, for the alarm's description. */
  message?: string;
}

function statusOf(highsStatus: string): SolverStatus {
  switch (highsStatus) {
    case 'Optimal':
      return 'optimal';
    case 'Infeasible':
    case 'Primal infeasible or unbounded':
      return 'infeasible';
    case 'Unbounded':
      return 'unbounded';
    case 'Time limit reached':
      return 'timeLimit';
    default:
      return 'error';
  }
}

/** HiGHS's model status codes as its one-shot solve names them. */
function statusName(code: number, codes: Highs['constants']['modelStatus']): string {
  switch (code) {
    case codes.optimal:
      return 'Optimal';
    case codes.infeasible:
      return 'Infeasible';
    case codes.unboundedOrInfeasible:
      return 'Primal infeasible or unbounded';
    case codes.unbounded:
      return 'Unbounded';
    case codes.timeLimit:
      return 'Time limit reached';
    default:
      return `model status ${code}`;
  }
}

/** The outcome of one HiGHS call: its status as the one-shot solve names it, and the columns' values by position. */
interface RawOutcome {
  status: string;
  values: (column: number) => number;
  objective: number;
}

function takesText(solver: LpSolver): solver is Pick<Highs, 'solve'> {
  return 'solve' in solver && typeof solver.solve === 'function';
}

function takesArrays(solver: LpSolver): solver is Pick<Highs, 'createModel' | 'constants'> {
  return 'createModel' in solver && 'constants' in solver;
}

/** The model as arrays through a model made for this solve (disposed after it). */
function solveArrays(highs: Pick<Highs, 'createModel' | 'constants'>, model: OptimizerModel, options: HighsOptions): RawOutcome {
  const program = model.program;
  const instance = highs.createModel();
  try {
    instance.options.set(options);
    instance.passModel({
      numCols: program.columnNames.length,
      numRows: program.rowNames.length,
      offset: program.offset,
      colCost: program.cost,
      colLower: program.lower,
      colUpper: program.upper,
      rowLower: program.rowLower,
      rowUpper: program.rowUpper,
      matrix: {
        format: 'csr',
        numRows: program.rowNames.length,
        numCols: program.columnNames.length,
        starts: program.starts,
        indices: program.indices,
        values: program.values,
      },
    });
    const run = instance.run();
    const status = statusName(run.modelStatus, highs.constants.modelStatus);
    if (run.modelStatus !== highs.constants.modelStatus.optimal) {
      return { status, values: () => 0, objective: NaN };
    }
    const values = instance.getSolution().colValue;
    return { status, values: (column) => values[column] ?? 0, objective: instance.getObjectiveValue() };
  } finally {
    instance.dispose();
  }
}

/** The model as CPLEX LP text through HiGHS's one-shot solve. */
function solveText(solver: Pick<Highs, 'solve'>, model: OptimizerModel, options: HighsOptions): RawOutcome {
  const result = solver.solve(lpText(model.program), options);
  const columns: Record<string, unknown> = result.Columns;
  const names = model.program.columnNames;
  return { status: result.Status, values: (column) => primalOf(columns, names[column] ?? ''), objective: result.ObjectiveValue };
}

function primalOf(columns: Record<string, unknown>, column: string): number {
  const entry = columns[column];
  if (typeof entry === 'object' && entry !== null && 'Primal' in entry && typeof entry.Primal === 'number') {
    return entry.Primal;
  }
  // HiGHS leaves out columns presolve fixed at zero in no case we know of; zero is what such a column holds.
  return 0;
}

/**
 * Shares the curtailment of each node's renewables in proportion to their targets: they are
 * interchangeable in the LP (one weight, one node row, no other row but the sharing one), so any
 * split of their total is as good, and HiGHS's vertex may curtail one and not the others. Each
 * curtailed renewable of a node gets target × (1 − r) with one r for the node (within its range),
 * their total unchanged. Renewables above their target (raised for a consumption limit) keep theirs.
 */
export function shareCurtailment(model: OptimizerModel, setpoints: Map<number, number>): void {
  const byAsset = new Map(model.steered.map((asset) => [asset.asset, asset]));
  for (const node of model.nodes) {
    const group = node.steered
      .map((index) => byAsset.get(index))
      .filter(
        (asset): asset is NonNullable<typeof asset> => asset !== undefined && asset.renewable && (setpoints.get(asset.asset) ?? Infinity) <= asset.target,
      );
    if (group.length < 2) {
      continue;
    }
    const total = group.reduce((sum, asset) => sum + (setpoints.get(asset.asset) ?? 0), 0);
    const at = (share: number): number => group.reduce((sum, asset) => sum + Math.max(asset.min, asset.target * (1 - share)), 0);
    if (at(0) - total <= violationToleranceW * 1e-3) {
      continue;
    }
    // at(share) falls from Σ target to Σ min as the share goes from 0 to 1; find where it meets the total.
    let low = 0;
    let high = 1;
    for (let iteration = 0; iteration < 60; iteration += 1) {
      const middle = (low + high) / 2;
      if (at(middle) > total) {
        low = middle;
      } else {
        high = middle;
      }
    }
    const share = (low + high) / 2;
    for (const asset of group) {
      setpoints.set(asset.asset, Math.min(asset.max, Math.max(asset.min, asset.target * (1 - share))));
    }
  }
}

/** Builds and solves one step's model. Never throws: a HiGHS failure is status error. `via` forces LP text (the benchmark compares the two). */
export function solveOptimizer(config: OptimizerConfig, site: OptimizerSite, solver: LpSolver, via: 'arrays' | 'text' = 'arrays'): OptimizerSolution {
  const buildStart = performance.now();
  const model = buildOptimizerModel(config, site);
  const buildMs = performance.now() - buildStart;
  const solveStart = performance.now();
  const none = { setpoints: new Map<number, number>(), objective: null, nodes: [], model, buildMs };
  const options = highsOptions(config.solverOptions);
  let result: RawOutcome;
  try {
    const text = takesText(solver) ? solver : null;
    if (takesArrays(solver) && (via === 'arrays' || text === null)) {
      result = solveArrays(solver, model, options);
    } else if (text !== null) {
      result = solveText(text, model, options);
    } else {
      throw new TypeError('the solver takes neither arrays nor LP text');
    }
  } catch (error) {
    return { ...none, status: 'error', solveMs: performance.now() - solveStart, message: error instanceof Error ? error.message : String(error) };
  }
  const solveMs = performance.now() - solveStart;
  const status = statusOf(result.status);
  if (status !== 'optimal') {
    return { ...none, status, solveMs, message: `HiGHS: ${result.status}` };
  }
  const base = model.basePower;
  const setpoints = new Map<number, number>();
  for (const asset of model.steered) {
    // Back from per-unit, and into the range HiGHS kept only to its tolerance.
    const value = asset.terms.reduce((sum, [coefficient, column]) => sum + coefficient * result.values(column), asset.offset);
    setpoints.set(asset.asset, Math.min(asset.max, Math.max(asset.min, value * base)));
  }
  shareCurtailment(model, setpoints);
  const nodes = model.nodes.map((node) => ({
    name: node.name,
    flow: result.values(node.columnIndex) * base,
    consumptionViolation: node.consumptionViolation === undefined ? 0 : result.values(node.consumptionViolation) * base,
    feedInViolation: node.feedInViolation === undefined ? 0 : result.values(node.feedInViolation) * base,
  }));
  // The sharing term only picks among equal optima; the objective reported is the model's without it.
  const objective = result.objective - (model.sharingColumn === null ? 0 : optimizerWeights.sharing * result.values(model.sharingColumn));
  const broken = nodes.filter((node) => node.consumptionViolation > violationToleranceW || node.feedInViolation > violationToleranceW);
  if (broken.length > 0) {
    const described = broken.map((node) =>
      node.consumptionViolation > violationToleranceW
        ? `${node.name}: consumption ${Math.round(node.consumptionViolation)} W over`
        : `${node.name}: feed-in ${Math.round(node.feedInViolation)} W over`,
    );
    return {
      status: 'infeasible',
      setpoints,
      objective,
      nodes,
      model,
      buildMs,
      solveMs,
      message: `limits cannot be kept (${described.join('; ')})`,
    };
  }
  return { status: 'optimal', setpoints, objective, nodes, model, buildMs, solveMs };
}
