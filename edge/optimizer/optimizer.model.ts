/**
 * The optimizer's linear programme (device-model.md section 3.6; the model is ours, written down in
 * edge/optimizer/README.md): one setpoint per steerable asset, one flow per topology node, the
 * nodes' consumption and feed-in limits kept with penalised violation, and an objective of least
 * curtailment and least deviation from what the cloud asked. Written as CPLEX LP text for HiGHS,
 * in per-unit of the loop's basePower so that a 1 MW site and a 5 kW one are equally well scaled.
 *
 * Signs: an asset's setpoint and activePower are positive when it delivers power; a node's flow is
 * in meter sign, positive when the node draws power from its parent (consumption), negative when
 * it feeds in.
 */
import type { AssetConfig } from '../../contracts/device/assets';
import { categoryOfType } from '../../contracts/device/asset-types';
import type { ControlLoop as ControlLoopConfig, TopologyNode } from '../../contracts/device/control-loops';
import { staticRangeOf } from '../control/setpoints';
import type { AssetState, PowerRange } from '../drivers/driver';

export type OptimizerConfig = Extract<ControlLoopConfig, { type: 'optimizer' }>;

/** What the optimizer knows of the site at one step. */
export interface OptimizerSite {
  /** ms since the epoch (the agent's clock): picks the batteries' powerLimits time windows. */
  now: number;
  /** The configured assets (DeviceConfig.assets). */
  assets: readonly AssetConfig[];
  /** The latest state of each asset, by asset index. */
  states: readonly (AssetState | undefined)[];
  /** The cloud's desired setpoints, W, by asset index. */
  cloudSetpoints?: ReadonlyMap<number, number>;
  /** Limits a schedule sets now on the whole site (the root node), W; the stricter of these and the root's constraint holds. */
  scheduledLimit?: { consumption: number | null; feedIn: number | null };
}

/**
 * Objective weights per unit of power (per-unit). Curtailing renewables costs more than moving any
 * other asset away from its target, so batteries and loads absorb before production is cut; a
 * violated node limit costs far more than either, so limits are broken only when nothing can keep them.
 * A battery's deviation costs up to `stateOfCharge` more: charging more costs more the fuller it
 * is, discharging more the emptier, so the emptiest batteries charge first and the fullest discharge first.
 * `sharing` is the cost of the largest share of its target any renewable is curtailed by (0 to 1): far
 * below a watt of curtailment, it only picks, among the least curtailments, the one that spreads it.
 */
export const optimizerWeights = { curtailment: 10, deviation: 1, stateOfCharge: 0.5, violation: 1000, sharing: 0.001 } as const;

/** A node limit broken by more than this (W) makes the site infeasible. */
export const violationToleranceW = 1;

/** A steerable asset and its columns: its setpoint is `offset + Σ coefficient × column`, per unit. */
export interface SteeredAsset {
  asset: number;
  terms: Term[];
  /** Per unit. */
  offset: number;
  min: number;
  max: number;
  /** The setpoint the objective pulls the asset towards, W. */
  target: number;
  /** Solar or wind: its curtailment is shared with the other renewables of its node. */
  renewable: boolean;
}

/** A topology node as the model sees it. */
export interface ModelNode {
  name: string;
  column: string;
  columnIndex: number;
  /** The limits that hold on the node, W (null: none). */
  consumptionLimit: number | null;
  feedInLimit: number | null;
  /** The node's flow now (measured by its net meter, else summed), W, meter sign. */
  flowNow: number;
  /** Columns of the limit violations (absent without that limit). */
  consumptionViolation?: number;
  feedInViolation?: number;
  /** The steerable assets counted in this node (each asset in one node only). */
  steered: number[];
}

/**
 * A linear programme as arrays (what HiGHS's passModel takes): minimise offset + cost·x subject to
 * rowLower ≤ A x ≤ rowUpper and lower ≤ x ≤ upper, A row-wise (CSR). `lpText` writes the same as
 * CPLEX LP text.
 */
export interface LinearProgram {
  columnNames: string[];
  cost: number[];
  lower: number[];
  upper: number[];
  rowNames: string[];
  rowLower: number[];
  rowUpper: number[];
  /** Row i's entries are indices/values[starts[i]..starts[i + 1]). */
  starts: number[];
  indices: number[];
  values: number[];
  offset: number;
}

export interface OptimizerModel {
  program: LinearProgram;
  basePower: number;
  steered: SteeredAsset[];
  /** Nodes in depth-first order; the root first. */
  nodes: ModelNode[];
  /** Controllable assets that cannot be steered now (unreadable, readOnly, no setpoint range), held at their power. */
  uncontrollable: number[];
  /** Meters of the topology that could not be read (the node's flow is then summed from its parts). */
  unreadable: number[];
  /** Assets listed in more than one node: counted once, in the deepest node that lists them. */
  listedTwice: number[];
  /** The column of the largest curtailed share of any renewable (null without renewables to curtail). */
  sharingColumn: number | null;
  /** The size of the LP. */
  columns: number;
  rows: number;
}

export type Term = [coefficient: number, column: number];

/** A number as LP text (no negative zero; exponents as JavaScript writes them, which the LP reader accepts). */
function lpNumber(value: number): string {
  return value === 0 ? '0' : String(value);
}

function linear(terms: readonly Term[], names: readonly string[]): string {
  let text = '';
  for (const [coefficient, column] of terms) {
    if (coefficient === 0) {
      continue;
    }
    const name = names[column] ?? `x${column}`;
    text += coefficient < 0 ? ` - ${lpNumber(-coefficient)} ${name}` : ` + ${lpNumber(coefficient)} ${name}`;
  }
  return text === '' ? ' 0' : text;
}

/** The programme as CPLEX LP text (what HiGHS's one-shot solve reads, and readable when a site misbehaves). */
export function lpText(program: LinearProgram): string {
  const names = program.columnNames;
  const objective: Term[] = program.cost.map((cost, column): Term => [cost, column]);
  const offset = program.offset < 0 ? ` - ${lpNumber(-program.offset)}` : ` + ${lpNumber(program.offset)}`;
  const rows = program.rowNames.map((name, row) => {
    const terms: Term[] = [];
    for (let k = program.starts[row] ?? 0; k < (program.starts[row + 1] ?? 0); k += 1) {
      terms.push([program.values[k] ?? 0, program.indices[k] ?? 0]);
    }
    const lower = program.rowLower[row] ?? -Infinity;
    const upper = program.rowUpper[row] ?? Infinity;
    const relation = lower === upper ? `= ${lpNumber(lower)}` : upper === Infinity ? `>= ${lpNumber(lower)}` : `<= ${lpNumber(upper)}`;
    return ` ${name}:${linear(terms, names)} ${relation}`;
  });
  const bounds = names.map((name, column) => {
    const lower = program.lower[column] ?? 0;
    const upper = program.upper[column] ?? Infinity;
    if (lower === -Infinity && upper === Infinity) {
      return ` ${name} free`;
    }
    if (upper === Infinity) {
      return ` ${name} >= ${lpNumber(lower)}`;
    }
    return ` ${lower === -Infinity ? '-inf' : lpNumber(lower)} <= ${name} <= ${lpNumber(upper)}`;
  });
  return `Minimize\n obj:${linear(objective, names)}${offset}\nSubject To\n${rows.join('\n')}\nBounds\n${bounds.join('\n')}\nEnd\n`;
}

function stricter(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a === null || a === undefined) {
    return b ?? null;
  }
  return b === null || b === undefined ? a : Math.min(a, b);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function isRenewable(asset: AssetConfig): boolean {
  const category = categoryOfType(asset.type);
  return category === 'solar' || category === 'wind';
}

/**
 * Where the objective pulls an asset: what the cloud asked when it asked; otherwise renewables at
 * their available power, EV chargers and heat at the most they may draw, everything else idle (0).
 * Clamped into the asset's range.
 */
function targetOf(asset: AssetConfig, state: AssetState, range: { min: number; max: number }, cloud: number | undefined): number {
  const category = categoryOfType(asset.type);
  if (isRenewable(asset)) {
    const available = state.availablePower ?? range.max;
    return clamp(Math.min(available, cloud ?? Infinity), range.min, range.max);
  }
  if (cloud !== undefined) {
    return clamp(cloud, range.min, range.max);
  }
  if (category === 'ev' || category === 'heat') {
    return range.min;
  }
  return clamp(0, range.min, range.max);
}

/**
 * The range the optimizer may set now: the driver's, narrowed by the asset's static limits or power
 * limits (the rule the setpoint arbiter applies, edge/control/setpoints.ts) and by its
 * state-of-charge limits; null when the asset cannot be steered.
 */
function steerableRange(asset: AssetConfig | undefined, state: AssetState | undefined, at: Date): PowerRange | null {
  if (asset === undefined || asset.readOnly || state === undefined || !state.readable) {
    return null;
  }
  const driverRange = state.controllableRange;
  if (driverRange === undefined || driverRange === null || !Number.isFinite(driverRange.min) || !Number.isFinite(driverRange.max)) {
    return null;
  }
  const own = staticRangeOf(asset, at);
  // Static bounds outside what the asset can do now hold the setpoint at the nearer end of the driver's range.
  const range =
    own === undefined ? driverRange : { min: clamp(own.min, driverRange.min, driverRange.max), max: clamp(own.max, driverRange.min, driverRange.max) };
  // A battery at its state-of-charge limits (section 3.4) may not go further, whatever range its driver gives.
  const limits = 'stateOfChargeLimits' in asset ? asset.stateOfChargeLimits : undefined;
  const stateOfCharge = state.stateOfCharge;
  if (limits === undefined || stateOfCharge === undefined || stateOfCharge === null) {
    return range;
  }
  return {
    min: stateOfCharge >= limits.max ? Math.max(range.min, 0) : range.min,
    max: stateOfCharge <= limits.min ? Math.min(range.max, 0) : range.max,
  };
}

/** What moving an asset below its target (less delivered) and above it cost per unit. */
function weightsOf(asset: AssetConfig, state: AssetState): { below: number; above: number } {
  if (isRenewable(asset)) {
    return { below: optimizerWeights.curtailment, above: optimizerWeights.curtailment };
  }
  const stateOfCharge = state.stateOfCharge;
  if (categoryOfType(asset.type) !== 'battery' || stateOfCharge === undefined || stateOfCharge === null) {
    return { below: optimizerWeights.deviation, above: optimizerWeights.deviation };
  }
  const full = clamp(stateOfCharge / 100, 0, 1);
  return {
    below: optimizerWeights.deviation + optimizerWeights.stateOfCharge * full,
    above: optimizerWeights.deviation + optimizerWeights.stateOfCharge * (1 - full),
  };
}

/** The power an individually metered asset adds to its node's flow now, W, meter sign; null when unread. */
function meteredFlow(asset: AssetConfig | undefined, state: AssetState | undefined): number | null {
  const power = state?.readable ? state.activePower : null;
  if (asset === undefined || power === null || power === undefined) {
    return null;
  }
  // A meter's activePower is already in meter sign; any other asset delivers power in its own sign.
  return categoryOfType(asset.type) === 'meter' ? power : -power;
}

/**
 * Where each asset listed in the topology is counted: an asset may be listed in several nodes (a
 * parent listing its children's assets too, or by mistake in two branches), but it is one asset
 * and its power is counted once, in the deepest node that lists it (the first of those depth-first
 * when two are as deep). `listed` picks the assets of a node (its controllable assets, or its
 * individual meters); a net meter measures its node and is not counted this way.
 */
function ownersOf(topology: TopologyNode, listed: (node: TopologyNode) => readonly number[]): { owner: Map<number, TopologyNode>; listedTwice: Set<number> } {
  const owner = new Map<number, { node: TopologyNode; depth: number }>();
  const listedTwice = new Set<number>();
  const visit = (node: TopologyNode, depth: number): void => {
    for (const asset of new Set(listed(node))) {
      const known = owner.get(asset);
      if (known !== undefined) {
        listedTwice.add(asset);
      }
      if (known === undefined || depth > known.depth) {
        owner.set(asset, { node, depth });
      }
    }
    for (const child of node.children) {
      visit(child, depth + 1);
    }
  };
  visit(topology, 0);
  return { owner: new Map([...owner].map(([asset, { node }]) => [asset, node])), listedTwice };
}

/** Builds the LP of one step, as arrays. */
export function buildOptimizerModel(config: OptimizerConfig, site: OptimizerSite): OptimizerModel {
  const base = config.basePower;
  const pu = (watts: number): number => watts / base;
  const program: LinearProgram = {
    columnNames: [],
    cost: [],
    lower: [],
    upper: [],
    rowNames: [],
    rowLower: [],
    rowUpper: [],
    starts: [0],
    indices: [],
    values: [],
    offset: 0,
  };
  const steered: SteeredAsset[] = [];
  const nodes: ModelNode[] = [];
  const uncontrollable: number[] = [];
  const unreadable: number[] = [];
  const steeredByAsset = new Map<number, SteeredAsset>();
  const at = new Date(site.now);
  const controllable = ownersOf(config.topology, (node) => node.assets.controllable);
  const individual = ownersOf(config.topology, (node) =>
    node.assets.powerMeterable.filter((meter) => meter.meter === 'individual').map((meter) => meter.assetIndex),
  );
  const listedTwice = [...new Set([...controllable.listedTwice, ...individual.listedTwice])].sort((a, b) => a - b);

  function column(name: string, cost: number, lower: number, upper: number): number {
    program.columnNames.push(name);
    program.cost.push(cost);
    program.lower.push(lower);
    program.upper.push(upper);
    return program.columnNames.length - 1;
  }

  function row(name: string, terms: readonly Term[], lower: number, upper: number): void {
    program.rowNames.push(name);
    program.rowLower.push(lower);
    program.rowUpper.push(upper);
    for (const [coefficient, index] of terms) {
      if (coefficient !== 0) {
        program.indices.push(index);
        program.values.push(coefficient);
      }
    }
    program.starts.push(program.indices.length);
  }

  function steer(assetIndex: number): SteeredAsset | null {
    const known = steeredByAsset.get(assetIndex);
    if (known !== undefined) {
      return known;
    }
    const asset = site.assets[assetIndex];
    const state = site.states[assetIndex];
    const range = steerableRange(asset, state, at);
    if (asset === undefined || state === undefined || range === null) {
      return null;
    }
    const target = targetOf(asset, state, range, site.cloudSetpoints?.get(assetIndex));
    const weight = weightsOf(asset, state);
    // The deviation is linear where the target is a bound of the range (one column, the setpoint); elsewhere the setpoint is
    // target + above − below, with a column for each side bounded by how far the range goes that way (no row needed).
    let terms: Term[];
    let offset = 0;
    if (target >= range.max) {
      terms = [[1, column(`p${assetIndex}`, -weight.below, pu(range.min), pu(range.max))]];
      program.offset += weight.below * pu(target);
    } else if (target <= range.min) {
      terms = [[1, column(`p${assetIndex}`, weight.above, pu(range.min), pu(range.max))]];
      program.offset -= weight.above * pu(target);
    } else {
      offset = pu(target);
      terms = [
        [1, column(`da${assetIndex}`, weight.above, 0, pu(range.max - target))],
        [-1, column(`db${assetIndex}`, weight.below, 0, pu(target - range.min))],
      ];
    }
    const entry: SteeredAsset = { asset: assetIndex, terms, offset, min: range.min, max: range.max, target, renewable: isRenewable(asset) };
    steered.push(entry);
    steeredByAsset.set(assetIndex, entry);
    return entry;
  }

  /** Adds the node and its subtree; returns the node's column and its flow now (W). */
  function addNode(node: TopologyNode, isRoot: boolean): { column: number; flowNow: number } {
    const position = nodes.length;
    const name = `f${position}`;
    const flowColumn = column(name, 0, -Infinity, Infinity);
    const constraint = node.constraint;
    const entry: ModelNode = {
      name: node.name,
      column: name,
      columnIndex: flowColumn,
      consumptionLimit: isRoot ? stricter(constraint?.consumption, site.scheduledLimit?.consumption) : (constraint?.consumption ?? null),
      feedInLimit: isRoot ? stricter(constraint?.feedIn, site.scheduledLimit?.feedIn) : (constraint?.feedIn ?? null),
      flowNow: 0,
      steered: [],
    };
    nodes.push(entry);

    // flow + Σ own setpoints − Σ child flows = constant, the constant holding what is not steered.
    const terms: Term[] = [[1, flowColumn]];
    let steeredPowerNow = 0;
    let steeredOffset = 0;
    let fixedFlow = 0;
    for (const assetIndex of new Set(node.assets.controllable)) {
      if (controllable.owner.get(assetIndex) !== node) {
        continue;
      }
      const power = site.states[assetIndex]?.activePower ?? 0;
      const asset = steer(assetIndex);
      if (asset === null) {
        uncontrollable.push(assetIndex);
        fixedFlow -= power;
        continue;
      }
      terms.push(...asset.terms);
      steeredOffset += asset.offset;
      entry.steered.push(assetIndex);
      steeredPowerNow += power;
    }
    let childFlowNow = 0;
    for (const child of node.children) {
      const added = addNode(child, false);
      terms.push([-1, added.column]);
      childFlowNow += added.flowNow;
    }

    let netFlow: number | null = null;
    for (const meter of node.assets.powerMeterable) {
      // A meter that is also controllable is carried by its setpoint column; an individual meter listed in several nodes is counted in one.
      if (controllable.owner.has(meter.assetIndex) || (meter.meter === 'individual' && individual.owner.get(meter.assetIndex) !== node)) {
        continue;
      }
      const flow = meteredFlow(site.assets[meter.assetIndex], site.states[meter.assetIndex]);
      if (flow === null) {
        if (!unreadable.includes(meter.assetIndex)) {
          unreadable.push(meter.assetIndex);
        }
      } else if (meter.meter === 'net') {
        netFlow ??= flow;
      } else {
        fixedFlow += flow;
      }
    }
    // A net meter measures the whole node, children included; the setpoints change it by how far they move.
    const summedFlowNow = fixedFlow - steeredPowerNow + childFlowNow;
    entry.flowNow = netFlow ?? summedFlowNow;
    const constant = pu(entry.flowNow + steeredPowerNow - childFlowNow) - steeredOffset;
    row(`n${position}`, terms, constant, constant);

    if (entry.consumptionLimit !== null) {
      entry.consumptionViolation = column(`vc${position}`, optimizerWeights.violation, 0, Infinity);
      row(
        `lc${position}`,
        [
          [1, flowColumn],
          [-1, entry.consumptionViolation],
        ],
        -Infinity,
        pu(entry.consumptionLimit),
      );
    }
    if (entry.feedInLimit !== null) {
      entry.feedInViolation = column(`vf${position}`, optimizerWeights.violation, 0, Infinity);
      row(
        `lf${position}`,
        [
          [1, flowColumn],
          [1, entry.feedInViolation],
        ],
        pu(-entry.feedInLimit),
        Infinity,
      );
    }
    return { column: flowColumn, flowNow: entry.flowNow };
  }

  addNode(config.topology, true);

  // Sharing: s ≥ the share of their targets each node's renewables are curtailed by together (Σ p ≥ Σ target × (1 − s)), at a
  // tiny cost on s, so curtailment is spread over the nodes that can take it; within a node the solver shares it (shareCurtailment).
  const byAsset = new Map(steered.map((asset) => [asset.asset, asset]));
  const groups = nodes
    .map((node) => node.steered.flatMap((index) => byAsset.get(index) ?? []).filter((asset) => asset.renewable && asset.target > 0 && asset.target > asset.min))
    .filter((group) => group.length > 0);
  let sharingColumn: number | null = null;
  if (groups.length > 1) {
    const share = column('share', optimizerWeights.sharing, 0, 1);
    sharingColumn = share;
    for (const [position, group] of groups.entries()) {
      const target = pu(group.reduce((sum, asset) => sum + asset.target, 0));
      const offset = group.reduce((sum, asset) => sum + asset.offset, 0);
      row(`s${position}`, [...group.flatMap((asset) => asset.terms), [target, share]], target - offset, Infinity);
    }
  }
  return {
    program,
    basePower: base,
    steered,
    nodes,
    uncontrollable,
    unreadable,
    listedTwice,
    sharingColumn,
    columns: program.columnNames.length,
    rows: program.rowNames.length,
  };
}
