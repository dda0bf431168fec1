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
 */
export const optimizerWeights = { curtailment: 10, deviation: 1, stateOfCharge: 0.5, violation: 1000 } as const;

/** A node limit broken by more than this (W) makes the site infeasible. */
export const violationToleranceW = 1;

/** A steerable asset and its column. */
export interface SteeredAsset {
  asset: number;
  column: string;
  min: number;
  max: number;
  /** The setpoint the objective pulls the asset towards, W. */
  target: number;
}

/** A topology node as the model sees it. */
export interface ModelNode {
  name: string;
  column: string;
  /** The limits that hold on the node, W (null: none). */
  consumptionLimit: number | null;
  feedInLimit: number | null;
  /** The node's flow now (measured by its net meter, else summed), W, meter sign. */
  flowNow: number;
  /** Columns of the limit violations (absent without that limit). */
  consumptionViolation?: string;
  feedInViolation?: string;
}

export interface OptimizerModel {
  /** The model in CPLEX LP format. */
  lp: string;
  basePower: number;
  steered: SteeredAsset[];
  /** Nodes in depth-first order; the root first. */
  nodes: ModelNode[];
  /** Controllable assets that cannot be steered now (unreadable, readOnly, no setpoint range), held at their power. */
  uncontrollable: number[];
  /** Meters of the topology that could not be read (the node's flow is then summed from its parts). */
  unreadable: number[];
  /** The size of the LP. */
  columns: number;
  rows: number;
}

type Term = [coefficient: number, column: string];

/** A number as LP text (no negative zero; exponents as JavaScript writes them, which the LP reader accepts). */
function lpNumber(value: number): string {
  return value === 0 ? '0' : String(value);
}

function linear(terms: readonly Term[]): string {
  let text = '';
  for (const [coefficient, column] of terms) {
    if (coefficient === 0) {
      continue;
    }
    text += coefficient < 0 ? ` - ${lpNumber(-coefficient)} ${column}` : ` + ${lpNumber(coefficient)} ${column}`;
  }
  return text === '' ? ' 0' : text;
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

/** Builds the LP of one step. */
export function buildOptimizerModel(config: OptimizerConfig, site: OptimizerSite): OptimizerModel {
  const base = config.basePower;
  const pu = (watts: number): number => watts / base;
  const objective: Term[] = [];
  let objectiveConstant = 0;
  const rows: string[] = [];
  const bounds: string[] = [];
  const steered: SteeredAsset[] = [];
  const nodes: ModelNode[] = [];
  const uncontrollable: number[] = [];
  const unreadable: number[] = [];
  const steeredByAsset = new Map<number, SteeredAsset>();
  const at = new Date(site.now);
  let columns = 0;

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
    const column = `p${assetIndex}`;
    columns += 1;
    const target = targetOf(asset, state, range, site.cloudSetpoints?.get(assetIndex));
    const weight = weightsOf(asset, state);
    const entry: SteeredAsset = { asset: assetIndex, column, min: range.min, max: range.max, target };
    bounds.push(` ${lpNumber(pu(range.min))} <= ${column} <= ${lpNumber(pu(range.max))}`);
    // The deviation is linear where the target is a bound of the range; elsewhere p = target + above − below.
    if (target >= range.max) {
      objective.push([-weight.below, column]);
      objectiveConstant += weight.below * pu(target);
    } else if (target <= range.min) {
      objective.push([weight.above, column]);
      objectiveConstant -= weight.above * pu(target);
    } else {
      const above = `da${assetIndex}`;
      const below = `db${assetIndex}`;
      columns += 2;
      objective.push([weight.above, above], [weight.below, below]);
      rows.push(` d${assetIndex}: ${column} - ${above} + ${below} = ${lpNumber(pu(target))}`);
    }
    steered.push(entry);
    steeredByAsset.set(assetIndex, entry);
    return entry;
  }

  /** Adds the node and its subtree; returns the node's column and its flow now (W). */
  function addNode(node: TopologyNode, isRoot: boolean): { column: string; flowNow: number } {
    const position = nodes.length;
    const column = `f${position}`;
    columns += 1;
    const constraint = node.constraint;
    const entry: ModelNode = {
      name: node.name,
      column,
      consumptionLimit: isRoot ? stricter(constraint?.consumption, site.scheduledLimit?.consumption) : (constraint?.consumption ?? null),
      feedInLimit: isRoot ? stricter(constraint?.feedIn, site.scheduledLimit?.feedIn) : (constraint?.feedIn ?? null),
      flowNow: 0,
    };
    nodes.push(entry);

    // flow + Σ own setpoints − Σ child flows = constant, the constant holding what is not steered.
    const terms: Term[] = [[1, column]];
    let steeredPowerNow = 0;
    let fixedFlow = 0;
    const controllable = new Set(node.assets.controllable);
    for (const assetIndex of node.assets.controllable) {
      const power = site.states[assetIndex]?.activePower ?? 0;
      const asset = steer(assetIndex);
      if (asset === null) {
        uncontrollable.push(assetIndex);
        fixedFlow -= power;
        continue;
      }
      terms.push([1, asset.column]);
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
      if (controllable.has(meter.assetIndex)) {
        continue;
      }
      const flow = meteredFlow(site.assets[meter.assetIndex], site.states[meter.assetIndex]);
      if (flow === null) {
        unreadable.push(meter.assetIndex);
      } else if (meter.meter === 'net') {
        netFlow ??= flow;
      } else {
        fixedFlow += flow;
      }
    }
    // A net meter measures the whole node, children included; the setpoints change it by how far they move.
    const summedFlowNow = fixedFlow - steeredPowerNow + childFlowNow;
    entry.flowNow = netFlow ?? summedFlowNow;
    const constant = entry.flowNow + steeredPowerNow - childFlowNow;
    rows.push(` n${position}:${linear(terms)} = ${lpNumber(pu(constant))}`);
    bounds.push(` ${column} free`);

    if (entry.consumptionLimit !== null) {
      entry.consumptionViolation = `vc${position}`;
      columns += 1;
      objective.push([optimizerWeights.violation, entry.consumptionViolation]);
      rows.push(` lc${position}: ${column} - ${entry.consumptionViolation} <= ${lpNumber(pu(entry.consumptionLimit))}`);
    }
    if (entry.feedInLimit !== null) {
      entry.feedInViolation = `vf${position}`;
      columns += 1;
      objective.push([optimizerWeights.violation, entry.feedInViolation]);
      rows.push(` lf${position}: ${column} + ${entry.feedInViolation} >= ${lpNumber(pu(-entry.feedInLimit))}`);
    }
    return { column, flowNow: entry.flowNow };
  }

  addNode(config.topology, true);
  const constant = objectiveConstant < 0 ? ` - ${lpNumber(-objectiveConstant)}` : ` + ${lpNumber(objectiveConstant)}`;
  const lp = `Minimize\n obj:${linear(objective)}${constant}\nSubject To\n${rows.join('\n')}\nBounds\n${bounds.join('\n')}\nEnd\n`;
  return { lp, basePower: base, steered, nodes, uncontrollable, unreadable, columns, rows: rows.length };
}
