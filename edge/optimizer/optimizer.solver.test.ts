import type { Highs } from 'highs';
import type { AssetState } from '../drivers/driver';
import { demoAssets, fixtureNow, optimizerSite, states, syntheticSite } from './optimizer.fixtures';
import { buildOptimizerModel, lpText } from './optimizer.model';
import { highsOptions, loadSolver, shareCurtailment, solveOptimizer, type HighsOptions, type OptimizerSolution } from './optimizer.solver';

let highs: Highs;

beforeAll(async () => {
  highs = await loadSolver();
});

function solve(
  assets: Record<string, unknown>[],
  loop: Record<string, unknown>,
  assetStates: (AssetState | undefined)[],
  cloudSetpoints?: Map<number, number>,
): OptimizerSolution {
  const site = optimizerSite(assets, loop);
  return solveOptimizer(site.loop, { now: fixtureNow, assets: site.device.assets, states: assetStates, cloudSetpoints }, highs);
}

function setpoint(solution: OptimizerSolution, asset: number): number {
  const value = solution.setpoints.get(asset);
  if (value === undefined) {
    throw new TypeError(`no setpoint for asset ${asset}`);
  }
  return value;
}

function flowOf(solution: OptimizerSolution, name: string): number {
  const node = solution.nodes.find((candidate) => candidate.name === name);
  if (node === undefined) {
    throw new TypeError(`no node ${name}`);
  }
  return node.flow;
}

describe('the optimizer model solved with HiGHS', () => {
  it('curtails solar just enough to keep a feed-in limit of a two-level topology', () => {
    // 0 grid meter (net), 1 and 2 solar in the pv-field, 3 household load meter (individual): 45 kW produced, 10 kW used, 35 kW fed in.
    const assets = [demoAssets.meter(), demoAssets.solar(30000), demoAssets.solar(30000), demoAssets.meter()];
    const topology = {
      name: 'site',
      constraint: { consumption: null, feedIn: 30000 },
      assets: { powerMeterable: [{ assetIndex: 0, meter: 'net' }] },
      children: [
        { name: 'pv-field', constraint: { consumption: null, feedIn: 22000 }, assets: { controllable: [1] } },
        { name: 'roof', assets: { controllable: [2] } },
        { name: 'house', assets: { powerMeterable: [{ assetIndex: 3, meter: 'individual' }] } },
      ],
    };
    const solution = solve(assets, { topology }, [states.meter(-35000), states.solar(25000), states.solar(20000), states.meter(10000)]);

    expect(solution.status).toBe('optimal');
    expect(solution.nodes.map((node) => node.name)).toEqual(['site', 'pv-field', 'roof', 'house']);
    // 5 kW curtailed in all (no more), and the pv-field under its own 22 kW.
    expect(setpoint(solution, 1) + setpoint(solution, 2)).toBeCloseTo(40000, 3);
    expect(setpoint(solution, 1)).toBeLessThanOrEqual(22000 + 1e-3);
    expect(flowOf(solution, 'site')).toBeCloseTo(-30000, 3);
    expect(flowOf(solution, 'house')).toBeCloseTo(10000, 3);
    // 5 kW of curtailment at weight 10 per unit of the 100 kW base power.
    expect(solution.objective).toBeCloseTo(0.5, 6);
  });

  it('charges batteries before it curtails solar, and curtails once they are full', () => {
    const assets = [demoAssets.meter(), demoAssets.solar(50000), demoAssets.battery(10000)];
    const topology = {
      name: 'site',
      constraint: { consumption: null, feedIn: 30000 },
      assets: { controllable: [1, 2], powerMeterable: [{ assetIndex: 0, meter: 'net' }] },
    };

    const little = solve(assets, { topology }, [states.meter(-35000), states.solar(45000), states.battery(10000, 10000)]);
    expect(little.status).toBe('optimal');
    expect(setpoint(little, 1)).toBeCloseTo(45000, 3);
    expect(setpoint(little, 2)).toBeCloseTo(-5000, 3);

    const much = solve(assets, { topology }, [states.meter(-50000), states.solar(45000), states.battery(10000, 10000, 5000)]);
    expect(much.status).toBe('optimal');
    // Fed in now 50 kW with the battery discharging 5 kW: charging at 10 kW gives 15 kW, the other 5 kW is curtailed.
    expect(setpoint(much, 2)).toBeCloseTo(-10000, 3);
    expect(setpoint(much, 1)).toBeCloseTo(40000, 3);
    expect(flowOf(much, 'site')).toBeCloseTo(-30000, 3);
  });

  it('charges the emptiest battery first and discharges the fullest, within its state-of-charge limits', () => {
    const assets = [demoAssets.meter(), demoAssets.battery(10000), demoAssets.battery(10000)];
    const topology = {
      name: 'site',
      constraint: { consumption: 8000, feedIn: 30000 },
      assets: { controllable: [1, 2], powerMeterable: [{ assetIndex: 0, meter: 'net' }] },
    };

    const surplus = solve(assets, { topology }, [states.meter(-35000), states.battery(10000, 10000, 0, 80), states.battery(10000, 10000, 0, 20)]);
    expect(setpoint(surplus, 1)).toBeCloseTo(0, 3);
    expect(setpoint(surplus, 2)).toBeCloseTo(-5000, 3);

    const peak = [states.meter(13000), states.battery(10000, 10000, 0, 85), states.battery(10000, 10000, 0, 50)];
    const fullestFirst = solve(assets, { topology }, peak);
    expect(setpoint(fullestFirst, 1)).toBeCloseTo(5000, 3);
    expect(setpoint(fullestFirst, 2)).toBeCloseTo(0, 3);

    // At 85 % the first battery is below its minimum of 90 %: it may not discharge, whatever its driver's range says.
    const limited = [demoAssets.meter(), demoAssets.battery(10000, { stateOfChargeLimits: { min: 90, max: 100 } }), demoAssets.battery(10000)];
    const withinLimits = solve(limited, { topology }, peak);
    expect(withinLimits.model.steered.map(({ asset, min, max }) => ({ asset, min, max }))).toEqual([
      { asset: 1, min: -10000, max: 0 },
      { asset: 2, min: -10000, max: 10000 },
    ]);
    expect(setpoint(withinLimits, 1)).toBeCloseTo(0, 3);
    expect(setpoint(withinLimits, 2)).toBeCloseTo(5000, 3);
  });

  it('narrows the drivers’ ranges by the assets’ static limits and power limits', () => {
    // The solar may give at most 40 kW (staticLimit in W), the battery charge 3 kW (powerLimits): 5 kW too much is fed in.
    const assets = [
      demoAssets.meter(),
      demoAssets.solar(50000, { staticLimit: { scale: 'activePower', upper: 40000, lower: 0 } }),
      demoAssets.battery(10000, { powerLimits: { charge: 3000, discharge: 4000 } }),
    ];
    const topology = {
      name: 'site',
      constraint: { consumption: null, feedIn: 30000 },
      assets: { controllable: [1, 2], powerMeterable: [{ assetIndex: 0, meter: 'net' }] },
    };
    const solution = solve(assets, { topology }, [states.meter(-35000), states.solar(45000, 35000), states.battery(10000, 10000)]);

    expect(solution.model.steered.map(({ asset, min, max, target }) => ({ asset, min, max, target }))).toEqual([
      { asset: 1, min: 0, max: 40000, target: 40000 },
      { asset: 2, min: -3000, max: 4000, target: 0 },
    ]);
    // Now 35 kW of solar and 35 kW fed in: the solar may rise to 40 kW only as far as the battery's 3 kW of charging makes room.
    expect(setpoint(solution, 2)).toBeCloseTo(-3000, 3);
    expect(setpoint(solution, 1)).toBeCloseTo(33000, 3);
    expect(flowOf(solution, 'site')).toBeCloseTo(-30000, 3);
  });

  it('keeps a consumption limit of a child node measured by its net meter', () => {
    // The chargers' sub-meter reads 20 kW: two EVs at 8 kW each and 4 kW of other load; the EVs would take 11 kW each.
    const assets = [demoAssets.meter(), demoAssets.meter(), demoAssets.ev(), demoAssets.ev(), demoAssets.battery(10000)];
    const topology = {
      name: 'site',
      assets: { controllable: [4], powerMeterable: [{ assetIndex: 0, meter: 'net' }] },
      children: [
        {
          name: 'chargers',
          constraint: { consumption: 15000, feedIn: null },
          assets: { controllable: [2, 3], powerMeterable: [{ assetIndex: 1, meter: 'net' }] },
        },
      ],
    };
    const solution = solve(assets, { topology }, [
      states.meter(30000),
      states.meter(20000),
      states.ev(11000, -8000),
      states.ev(11000, -8000),
      states.battery(10000, 10000),
    ]);

    expect(solution.status).toBe('optimal');
    expect(setpoint(solution, 2) + setpoint(solution, 3)).toBeCloseTo(-11000, 3);
    expect(flowOf(solution, 'chargers')).toBeCloseTo(15000, 3);
    // The battery upstream cannot relieve the chargers' node, so it stays idle.
    expect(setpoint(solution, 4)).toBeCloseTo(0, 3);
    // The grid flow: 30 kW now, the EVs' 16 kW become 11 kW.
    expect(flowOf(solution, 'site')).toBeCloseTo(25000, 3);
  });

  it('keeps what the cloud asked when no limit is in the way', () => {
    const assets = [demoAssets.meter(), demoAssets.battery(10000), demoAssets.solar(20000)];
    const topology = {
      name: 'site',
      constraint: { consumption: 50000, feedIn: 50000 },
      assets: { controllable: [1, 2], powerMeterable: [{ assetIndex: 0, meter: 'net' }] },
    };
    const solution = solve(
      assets,
      { topology },
      [states.meter(0), states.battery(10000, 10000), states.solar(20000, 15000)],
      new Map([
        [1, 7000],
        [2, 12000],
      ]),
    );

    expect(solution.status).toBe('optimal');
    expect(setpoint(solution, 1)).toBeCloseTo(7000, 3);
    expect(setpoint(solution, 2)).toBeCloseTo(12000, 3);
    expect(solution.objective).toBeCloseTo(0, 6);
  });

  it('reports infeasible with the least-bad setpoints when a limit cannot be kept', () => {
    // 12 kW of load that nothing steers, a 5 kW consumption limit and a battery of 5 kW: 2 kW over at best.
    const assets = [demoAssets.meter(), demoAssets.battery(5000)];
    const topology = {
      name: 'site',
      constraint: { consumption: 5000, feedIn: null },
      assets: { controllable: [1], powerMeterable: [{ assetIndex: 0, meter: 'net' }] },
    };
    const solution = solve(assets, { topology }, [states.meter(12000), states.battery(5000, 5000)]);

    expect(solution.status).toBe('infeasible');
    expect(setpoint(solution, 1)).toBeCloseTo(5000, 3);
    expect(solution.nodes[0]?.consumptionViolation).toBeCloseTo(2000, 3);
    expect(solution.message).toBe('limits cannot be kept (site: consumption 2000 W over)');
  });

  it('holds assets it cannot steer at their power and counts unreadable meters', () => {
    const assets = [demoAssets.meter(), demoAssets.solar(20000), demoAssets.solar(20000, { readOnly: true }), demoAssets.meter()];
    const topology = {
      name: 'site',
      constraint: { consumption: null, feedIn: 10000 },
      assets: { controllable: [1, 2], powerMeterable: [{ assetIndex: 3, meter: 'individual' }] },
    };
    // Solar 1 makes 15 kW, the read-only solar 2 makes 8 kW, the load meter cannot be read: 23 kW fed in as far as the optimizer knows.
    const solution = solve(assets, { topology }, [undefined, states.solar(15000), states.solar(8000), states.unreadable()]);

    expect(solution.status).toBe('optimal');
    expect(solution.model.uncontrollable).toEqual([2]);
    expect(solution.model.unreadable).toEqual([3]);
    expect([...solution.setpoints.keys()]).toEqual([1]);
    expect(setpoint(solution, 1)).toBeCloseTo(2000, 3);
  });

  it('sums a node whose net meter cannot be read from its parts', () => {
    // The grid meter is unreadable; below it the pv-field's net meter reads -18 kW, and a household meter reads 6 kW.
    const assets = [demoAssets.meter(), demoAssets.meter(), demoAssets.solar(20000), demoAssets.meter()];
    const topology = {
      name: 'site',
      constraint: { consumption: null, feedIn: 10000 },
      assets: { powerMeterable: [{ assetIndex: 0, meter: 'net' }] },
      children: [
        { name: 'pv-field', assets: { controllable: [2], powerMeterable: [{ assetIndex: 1, meter: 'net' }] } },
        { name: 'house', assets: { powerMeterable: [{ assetIndex: 3, meter: 'individual' }] } },
      ],
    };
    const solution = solve(assets, { topology }, [states.unreadable(), states.meter(-18000), states.solar(20000), states.meter(6000)]);

    expect(solution.status).toBe('optimal');
    expect(solution.model.unreadable).toEqual([0]);
    expect(solution.model.nodes.map((node) => node.flowNow)).toEqual([-12000, -18000, 6000]);
    // 2 kW less feed-in: the solar goes from 20 to 18 kW.
    expect(setpoint(solution, 2)).toBeCloseTo(18000, 3);
    expect(flowOf(solution, 'pv-field')).toBeCloseTo(-16000, 3);
  });

  it('gives status error with the reason when HiGHS fails', () => {
    const site = syntheticSite(10);
    const solution = solveOptimizer(site.loop, site.input, {
      solve: () => {
        throw new Error("Unable to set option 'time_limit'. HiGHS error -1");
      },
    });

    expect(solution.status).toBe('error');
    expect(solution.setpoints.size).toBe(0);
    expect(solution.message).toBe("Unable to set option 'time_limit'. HiGHS error -1");
  });

  it('passes the solver options to HiGHS', () => {
    const site = syntheticSite(10, { solver: 'ipm', timeLimit: 2.5, tolerance: 1e-6, primalFeasibilityTolerance: 1e-9 });
    const passed: (HighsOptions | undefined)[] = [];
    const solution = solveOptimizer(site.loop, site.input, {
      solve: (problem, options) => {
        passed.push(options);
        return highs.solve(problem, options);
      },
    });

    expect(solution.status).toBe('optimal');
    expect(passed).toEqual([
      {
        solver: 'ipm',
        time_limit: 2.5,
        dual_feasibility_tolerance: 1e-6,
        ipm_optimality_tolerance: 1e-6,
        primal_feasibility_tolerance: 1e-9,
        output_flag: false,
      },
    ]);
  });

  it('maps the default solver options, raising a tolerance below HiGHS’s floor to 1e-10', () => {
    expect(highsOptions({ solver: 'choose', timeLimit: 10, tolerance: 1e-7 })).toEqual({
      solver: 'choose',
      presolve: 'off',
      time_limit: 10,
      dual_feasibility_tolerance: 1e-7,
      ipm_optimality_tolerance: 1e-7,
      primal_feasibility_tolerance: 1e-7,
      output_flag: false,
    });
    expect(highsOptions({ solver: 'simplex', timeLimit: 1, tolerance: 1e-12 })).toMatchObject({
      dual_feasibility_tolerance: 1e-10,
      primal_feasibility_tolerance: 1e-10,
    });
  });

  it('stops at a tiny time limit with status timeLimit and no setpoints', () => {
    const site = syntheticSite(1000, { timeLimit: 1e-9 });
    const solution = solveOptimizer(site.loop, site.input, highs);

    expect(solution.status).toBe('timeLimit');
    expect(solution.setpoints.size).toBe(0);
    expect(solution.objective).toBeNull();
    expect(solution.message).toBe('HiGHS: Time limit reached');
  });

  it('finds the same optimum with ipm and with simplex', () => {
    const site = syntheticSite(100);
    const input = site.input;
    const simplex = solveOptimizer({ ...site.loop, solverOptions: { ...site.loop.solverOptions, solver: 'simplex' } }, input, highs);
    const ipm = solveOptimizer({ ...site.loop, solverOptions: { ...site.loop.solverOptions, solver: 'ipm' } }, input, highs);

    expect(simplex.status).toBe('optimal');
    expect(ipm.status).toBe('optimal');
    expect(ipm.objective).toBeCloseTo(simplex.objective ?? NaN, 6);
    // The root's feed-in limit binds, so its flow is the same whichever optimal vertex each solver ends on (how the feeders share the charging may differ).
    expect(ipm.nodes[0]?.flow).toBeCloseTo(-50000, 2);
    expect(simplex.nodes[0]?.flow).toBeCloseTo(-50000, 2);
  });

  it('solves a site of 1,000 assets keeping every limit and range', () => {
    const site = syntheticSite(1000);
    const solution = solveOptimizer(site.loop, site.input, highs);

    expect(solution.status).toBe('optimal');
    expect(solution.setpoints.size).toBe(1000);
    expect(solution.nodes).toHaveLength(site.nodes);
    for (const asset of solution.model.steered) {
      const value = setpoint(solution, asset.asset);
      expect(value).toBeGreaterThanOrEqual(asset.min);
      expect(value).toBeLessThanOrEqual(asset.max);
    }
    for (const [position, node] of solution.model.nodes.entries()) {
      const flow = solution.nodes[position]?.flow ?? NaN;
      expect(flow).toBeLessThanOrEqual((node.consumptionLimit ?? Infinity) + 1);
      expect(flow).toBeGreaterThanOrEqual(-(node.feedInLimit ?? Infinity) - 1);
    }
    // The root feed-in limit (500 W an asset) binds.
    expect(flowOf(solution, 'site')).toBeCloseTo(-500000, 2);
  });

  it('shares curtailment among the inverters of a node in proportion to what each could give', () => {
    // 20 + 10 + 30 kW available, 10 kW used, feed-in limit 30 kW: 20 kW (a third of 60) to curtail.
    const assets = [demoAssets.meter(), demoAssets.solar(30000), demoAssets.solar(30000), demoAssets.solar(30000)];
    const topology = {
      name: 'site',
      constraint: { consumption: null, feedIn: 30000 },
      assets: { controllable: [1, 2, 3], powerMeterable: [{ assetIndex: 0, meter: 'net' }] },
    };
    const solution = solve(assets, { topology }, [states.meter(-50000), states.solar(20000), states.solar(10000), states.solar(30000)]);

    expect(solution.status).toBe('optimal');
    expect(setpoint(solution, 1)).toBeCloseTo(20000 * (2 / 3), 3);
    expect(setpoint(solution, 2)).toBeCloseTo(10000 * (2 / 3), 3);
    expect(setpoint(solution, 3)).toBeCloseTo(30000 * (2 / 3), 3);
    expect(flowOf(solution, 'site')).toBeCloseTo(-30000, 3);
    // The objective is the curtailment's alone (20 kW at weight 10 per 100 kW), without the sharing term.
    expect(solution.objective).toBeCloseTo(2, 6);
  });

  it('evens out a vertex that curtails some inverters of a node and not others, keeping the node’s total', () => {
    const assets = [demoAssets.meter(), demoAssets.solar(30000), demoAssets.solar(30000), demoAssets.solar(30000), demoAssets.battery(10000)];
    const topology = {
      name: 'site',
      constraint: { consumption: null, feedIn: 30000 },
      assets: { controllable: [1, 2, 3, 4], powerMeterable: [{ assetIndex: 0, meter: 'net' }] },
    };
    const site = optimizerSite(assets, { topology });
    const model = buildOptimizerModel(site.loop, {
      now: fixtureNow,
      assets: site.device.assets,
      states: [states.meter(-50000), states.solar(20000), states.solar(10000), states.solar(30000), states.battery(10000, 10000)],
    });
    // A vertex: inverter 2 cut to nothing, inverter 3 by 10 kW, inverter 1 not at all (20 kW in all); the battery is no renewable.
    const setpoints = new Map([
      [1, 20000],
      [2, 0],
      [3, 20000],
      [4, -5000],
    ]);
    shareCurtailment(model, setpoints);

    expect(setpoints.get(1)).toBeCloseTo(20000 * (2 / 3), 6);
    expect(setpoints.get(2)).toBeCloseTo(10000 * (2 / 3), 6);
    expect(setpoints.get(3)).toBeCloseTo(30000 * (2 / 3), 6);
    expect(setpoints.get(4)).toBe(-5000);
  });

  it('spreads curtailment over nodes that can take it when only their parent’s limit binds', () => {
    const assets = [demoAssets.meter(), demoAssets.solar(30000), demoAssets.solar(30000)];
    const topology = {
      name: 'site',
      constraint: { consumption: null, feedIn: 24000 },
      assets: { powerMeterable: [{ assetIndex: 0, meter: 'net' }] },
      children: [
        { name: 'east', constraint: { consumption: null, feedIn: 25000 }, assets: { controllable: [1] } },
        { name: 'west', assets: { controllable: [2] } },
      ],
    };
    // 10 + 20 kW available, all fed in: 6 kW to curtail, a fifth of each.
    const solution = solve(assets, { topology }, [states.meter(-30000), states.solar(10000), states.solar(20000)]);

    expect(solution.status).toBe('optimal');
    expect(setpoint(solution, 1)).toBeCloseTo(8000, 3);
    expect(setpoint(solution, 2)).toBeCloseTo(16000, 3);
    expect(solution.objective).toBeCloseTo(0.6, 6);
  });

  it('counts an asset listed in two nodes once, in the deepest', () => {
    // The site lists the battery of its child node again: 20 kW fed in by the solar, a feed-in limit of 15 kW.
    const assets = [demoAssets.meter(), demoAssets.solar(30000), demoAssets.battery(10000), demoAssets.meter()];
    const topology = (listedTwice: boolean): Record<string, unknown> => ({
      name: 'site',
      constraint: { consumption: null, feedIn: 15000 },
      assets: { controllable: listedTwice ? [2] : [], powerMeterable: [{ assetIndex: 3, meter: 'individual' }] },
      children: [{ name: 'yard', assets: { controllable: [1, 2] } }],
    });
    const assetStates = [states.meter(-17000), states.solar(20000), states.battery(10000, 10000, 0), states.meter(3000)];
    const once = solve(assets, { topology: topology(false) }, assetStates);
    const twice = solve(assets, { topology: topology(true) }, assetStates);

    // The battery charges 2 kW: the yard feeds in 18 kW, the site 15 kW with the 3 kW household load. Counted twice it would charge 1 kW (each kW counted as 2).
    for (const solution of [once, twice]) {
      expect(solution.status).toBe('optimal');
      expect(setpoint(solution, 1)).toBeCloseTo(20000, 3);
      expect(setpoint(solution, 2)).toBeCloseTo(-2000, 3);
      expect(flowOf(solution, 'yard')).toBeCloseTo(-18000, 3);
      expect(flowOf(solution, 'site')).toBeCloseTo(-15000, 3);
    }
    expect(twice.model.listedTwice).toEqual([2]);
    expect(once.model.listedTwice).toEqual([]);
    expect(twice.model.steered.map((asset) => asset.asset)).toEqual([1, 2]);
    expect(twice.model.nodes.map((node) => node.steered)).toEqual([[], [1, 2]]);
    expect(twice.objective).toBeCloseTo(once.objective ?? NaN, 9);
  });

  it('solves the same model handed over as arrays and as LP text', () => {
    const site = syntheticSite(100);
    const arrays = solveOptimizer(site.loop, site.input, highs, 'arrays');
    const text = solveOptimizer(site.loop, site.input, highs, 'text');

    expect(arrays.status).toBe('optimal');
    expect(text.status).toBe('optimal');
    expect(arrays.objective).toBeCloseTo(text.objective ?? NaN, 6);
    expect(arrays.nodes[0]?.flow).toBeCloseTo(-50000, 2);
    expect(text.nodes[0]?.flow).toBeCloseTo(-50000, 2);
  });

  it('writes the model as CPLEX LP text', () => {
    const site = optimizerSite([demoAssets.meter(), demoAssets.solar(30000)], {
      topology: {
        name: 'site',
        constraint: { consumption: null, feedIn: 10000 },
        assets: { controllable: [1], powerMeterable: [{ assetIndex: 0, meter: 'net' }] },
      },
    });
    const model = buildOptimizerModel(site.loop, { now: fixtureNow, assets: site.device.assets, states: [states.meter(-15000), states.solar(20000)] });

    expect(lpText(model.program)).toBe(
      'Minimize\n obj: - 10 p1 + 1000 vf0 + 2\nSubject To\n n0: + 1 f0 + 1 p1 = 0.05\n lf0: + 1 f0 + 1 vf0 >= -0.1\nBounds\n f0 free\n 0 <= p1 <= 0.2\n vf0 >= 0\nEnd\n',
    );
  });
});
