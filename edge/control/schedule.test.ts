import { validateReport, type DeviceReport } from '../../contracts/hub/reports';
import type { ScheduleItem } from '../../contracts/device/commands';
import { ScheduleRunner } from './schedule';
import { SetpointArbiter } from './setpoints';
import { at as nth, deviceConfig, readable, recordingDrivers, unreadable } from './test-support';

// 0 meter, 1 solar 100 kW (metered by 0, fallback 20 %), 2 battery 50 kW, 3 relay, 4 generator
const assets = [
  { type: 'demo-meter' },
  { type: 'demo-solar', nominalActivePower: 100_000, powerMeterAssetIndex: 0, fallbackLimit: { activePowerPercentage: 20 } },
  { type: 'demo-battery', nominalActivePower: 50_000 },
  { type: 'demo-relay', relays: [{}, {}] },
  { type: 'demo-generator', nominalActivePower: 20_000 },
];
const loops = [{ type: 'powerLimiter', identifier: 'limiter', meterAssetIndex: 0, primaryLimitableAssetIndices: [1], contractualLimit: { feedIn: 50_000 } }];

const t0 = Date.parse('2026-11-23T10:00:00Z');
const at = (minutes: number): number => t0 + minutes * 60_000;
const iso = (minutes: number): string => new Date(at(minutes)).toISOString();
const item = (start: number, end: number, command: ScheduleItem['command']): ScheduleItem => ({ startAt: iso(start), endAt: iso(end), command });

function setup() {
  const config = deviceConfig(assets, loops);
  const drivers = recordingDrivers(config);
  nth(drivers, 0).state = readable({ activePower: 0 });
  nth(drivers, 1).state = readable({ activePower: 50_000, availablePower: 60_000, controllableRange: { min: 0, max: 100_000 } });
  nth(drivers, 2).state = readable({ activePower: 0, stateOfCharge: 40, controllableRange: { min: -30_000, max: 50_000 } });
  let now = at(0);
  const arbiter = new SetpointArbiter(config);
  const runner = new ScheduleRunner({ config, arbiter, clock: () => now, execute: (index, command) => nth(drivers, index).execute(command) });
  const step = async (minutes: number): Promise<DeviceReport[]> => {
    now = at(minutes);
    const reports = await runner.step(drivers.map((driver) => driver.state));
    await arbiter.apply(now, drivers);
    return reports;
  };
  return { drivers, arbiter, runner, step };
}

function valid(reports: DeviceReport[]): DeviceReport[] {
  for (const report of reports) {
    const result = validateReport(report);
    expect(result.ok ? [] : result.issues).toEqual([]);
  }
  return reports;
}

describe('ScheduleRunner', () => {
  it('sets the cloud layer from start to end and reports each item when it starts', async () => {
    const { drivers, runner, step } = setup();
    runner.setSchedule({ assetIndex: 1 }, [item(10, 20, { type: 'limitProductionPower', percentage: 40 })], 'message-1');
    expect(await step(5)).toEqual([]);
    expect(valid(await step(10))).toEqual([
      {
        type: 'executedAssetSchedule',
        at: iso(10),
        asset: 1,
        observations: { messageId: 'message-1', startAt: iso(10), endAt: iso(20), command: { type: 'limitProductionPower', percentage: 40 } },
      },
    ]);
    expect(await step(15)).toEqual([]);
    await step(20);
    // Written at the start, again at minute 15 (the arbiter's 30 s refresh of a held value), released at the end.
    expect(nth(drivers, 1).writes).toEqual([40_000, 40_000, null]);
  });

  it('holds the item that started last while several are in force', async () => {
    const { drivers, runner, step } = setup();
    runner.setSchedule({ assetIndex: 2 }, [
      item(0, 60, { type: 'setBatteryOperation', dispatchPower: 10_000, deliverFCR: false, chargeToState: null }),
      item(10, 20, { type: 'setBatteryOperation', dispatchPower: -20_000, deliverFCR: false, chargeToState: null }),
    ]);
    await step(0);
    await step(10);
    await step(20);
    await step(60);
    expect(nth(drivers, 2).writes).toEqual([10_000, -20_000, 10_000, null]);
  });

  it('ignores items whose end has passed and replaces the old schedule with a new one', async () => {
    const { drivers, runner, step } = setup();
    runner.setSchedule({ assetIndex: 2 }, [item(0, 30, { type: 'setBatteryOperation', dispatchPower: 5_000, deliverFCR: false, chargeToState: null })]);
    await step(1);
    runner.setSchedule({ assetIndex: 2 }, [item(-60, 0, { type: 'setBatteryOperation', dispatchPower: 9_000, deliverFCR: false, chargeToState: null })]);
    expect(await step(2)).toEqual([]);
    expect(nth(drivers, 2).writes).toEqual([5_000, null]);
  });

  it('charges a battery to a state of charge and then idles it', async () => {
    const { drivers, runner, step } = setup();
    runner.setSchedule({ assetIndex: 2 }, [item(0, 60, { type: 'setBatteryOperation', dispatchPower: null, deliverFCR: false, chargeToState: 60 })]);
    await step(0);
    nth(drivers, 2).state = readable({ activePower: -30_000, stateOfCharge: 60, controllableRange: { min: -30_000, max: 50_000 } });
    await step(30);
    expect(nth(drivers, 2).writes).toEqual([-30_000, 0]);
  });

  it('gives limitPower on a loop as its scheduled limit', async () => {
    const { runner, step } = setup();
    runner.setSchedule({ controlLoopIndex: 0 }, [item(0, 10, { type: 'limitPower', feedIn: 20_000, consume: null })], 'message-2');
    expect(valid(await step(0))).toMatchObject([{ type: 'executedAssetSchedule', controller: 0 }]);
    expect(runner.scheduledLimit(0)).toEqual({ consumption: null, feedIn: 20_000 });
    await step(10);
    expect(runner.scheduledLimit(0)).toBeUndefined();
  });

  it('bounds an asset with limitPower', async () => {
    const { drivers, runner, step } = setup();
    runner.setSchedule({ assetIndex: 2 }, [item(0, 10, { type: 'limitPower', feedIn: 10_000, consume: 5_000 })]);
    runner.setSchedule({ assetIndex: 1 }, [item(0, 10, { type: 'limitPower', feedIn: 30_000, consume: null })]);
    await step(0);
    expect(nth(drivers, 1).writes).toEqual([30_000]);
    // A battery nobody dispatches stays free within the bound; a dispatch beyond it is clamped.
    expect(nth(drivers, 2).writes).toEqual([]);
  });

  it('switches relays and runs a generator when the item starts, releasing the generator at its end', async () => {
    const { drivers, runner, step } = setup();
    runner.setSchedule({ assetIndex: 3 }, [item(0, 10, { type: 'setRelayOperation', relays: ['on', 'off'] })]);
    runner.setSchedule({ assetIndex: 4 }, [item(0, 10, { type: 'setGeneratorOperation', run: true, activePower: 15_000 })]);
    await step(0);
    await step(5);
    await step(10);
    expect(nth(drivers, 3).commands).toEqual([{ kind: 'relays', channels: ['on', 'off'] }]);
    expect(nth(drivers, 4).commands).toEqual([
      { kind: 'generator', run: true },
      { kind: 'generator', run: null },
    ]);
    expect(nth(drivers, 4).writes).toEqual([15_000, 15_000, null]);
  });

  it('reports an item the target cannot carry out as an error', async () => {
    const { runner, step } = setup();
    runner.setSchedule({ assetIndex: 1 }, [item(0, 10, { type: 'setRelayOperation', relays: ['on'] })], 'message-3');
    runner.setSchedule({ controlLoopIndex: 0 }, [item(0, 10, { type: 'limitProductionPower', percentage: 10 })], 'message-4');
    expect(valid(await step(0))).toEqual([
      {
        type: 'error',
        at: iso(0),
        observations: { messageId: 'message-3', messageType: 'setAssetSchedule', code: 'unsupported_command', message: 'asset 1 has no relays' },
      },
      {
        type: 'error',
        at: iso(0),
        observations: {
          messageId: 'message-4',
          messageType: 'setAssetSchedule',
          code: 'unsupported_command',
          message: 'a control loop takes limitPower items only (and an afrrLimiter applyAfrrDeltaSetpoint), not limitProductionPower',
        },
      },
    ]);
  });

  it("falls back to the asset's fallback limit while its meter is unreadable", async () => {
    const { drivers, runner, step } = setup();
    runner.setSchedule({ assetIndex: 1 }, [item(0, 60, { type: 'setSolarOperation', activePower: 70_000 })]);
    await step(0);
    nth(drivers, 0).state = unreadable;
    await step(1);
    nth(drivers, 0).state = readable({ activePower: 0 });
    await step(2);
    expect(nth(drivers, 1).writes).toEqual([70_000, 20_000, 70_000]);
  });

  it('puts applyAfrrDeltaSetpoint in the afrr layer', async () => {
    const { arbiter, runner, step } = setup();
    runner.setSchedule({ assetIndex: 2 }, [item(0, 10, { type: 'applyAfrrDeltaSetpoint', deltaSetpoint: -4_000 })]);
    await step(0);
    expect(arbiter.observations(2)).toEqual({ desired: { afrr: -4_000 }, effective: -4_000, confirmed: null });
  });
});
