/**
 * Solves the optimizer's model with HiGHS (the `highs` package, WebAssembly): loaded once per
 * process, then one synchronous solve per step.
 */
import loadHighs, { type Highs } from 'highs';
import { controlLoopDefaults } from '../../contracts/device/control-loops';
import { buildOptimizerModel, violationToleranceW, type OptimizerConfig, type OptimizerModel, type OptimizerSite } from './optimizer.model';

/** What solves a model: HiGHS, or in tests something that wraps it. */
export type LpSolver = Pick<Highs, 'solve'>;
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
 * (1e-10, the spec's minimum for primalFeasibilityTolerance) are raised to it.
 */
export function highsOptions(options: OptimizerConfig['solverOptions']): HighsOptions {
  const tolerance = Math.max(options.tolerance, controlLoopDefaults.solverPrimalFeasibilityToleranceMin);
  return {
    solver: options.solver,
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

function primalOf(columns: Record<string, unknown>, column: string): number {
  const entry = columns[column];
  if (typeof entry === 'object' && entry !== null && 'Primal' in entry && typeof entry.Primal === 'number') {
    return entry.Primal;
  }
  // HiGHS leaves out columns presolve fixed at zero in no case we know of; zero is what such a column holds.
  return 0;
}

/** Builds and solves one step's model. Never throws: a HiGHS failure is status error. */
export function solveOptimizer(config: OptimizerConfig, site: OptimizerSite, solver: LpSolver): OptimizerSolution {
  const buildStart = performance.now();
  const model = buildOptimizerModel(config, site);
  const buildMs = performance.now() - buildStart;
  const solveStart = performance.now();
  const none = { setpoints: new Map<number, number>(), objective: null, nodes: [], model, buildMs };
  let result: ReturnType<LpSolver['solve']>;
  try {
    result = solver.solve(model.lp, highsOptions(config.solverOptions));
  } catch (error) {
    return { ...none, status: 'error', solveMs: performance.now() - solveStart, message: error instanceof Error ? error.message : String(error) };
  }
  const solveMs = performance.now() - solveStart;
  const status = statusOf(result.Status);
  if (status !== 'optimal') {
    return { ...none, status, solveMs, message: `HiGHS: ${result.Status}` };
  }
  const columns: Record<string, unknown> = result.Columns;
  const base = model.basePower;
  const setpoints = new Map<number, number>();
  for (const asset of model.steered) {
    // Back from per-unit, and into the range HiGHS kept only to its tolerance.
    setpoints.set(asset.asset, Math.min(asset.max, Math.max(asset.min, primalOf(columns, asset.column) * base)));
  }
  const nodes = model.nodes.map((node) => ({
    name: node.name,
    flow: primalOf(columns, node.column) * base,
    consumptionViolation: node.consumptionViolation === undefined ? 0 : primalOf(columns, node.consumptionViolation) * base,
    feedInViolation: node.feedInViolation === undefined ? 0 : primalOf(columns, node.feedInViolation) * base,
  }));
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
      objective: result.ObjectiveValue,
      nodes,
      model,
      buildMs,
      solveMs,
      message: `limits cannot be kept (${described.join('; ')})`,
    };
  }
  return { status: 'optimal', setpoints, objective: result.ObjectiveValue, nodes, model, buildMs, solveMs };
}
