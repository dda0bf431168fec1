import { SetpointArbiter } from './setpoints';
import { at, deviceConfig, readable, recordingDrivers, unreadable } from './test-support';

// 0 meter, 1 solar 100 kW, 2 battery 50 kW, 3 EV charger 22 kW
const assets = [
  { type: 'demo-meter' },
  { type: 'demo-solar', nominalActivePower: 100_000 },
  { type: 'demo-battery', nominalActivePower: 50_000 },
  { type: 'demo-ev', nominalActivePower: 22_000 },
];

function setup(overrides: Record<number, Record<string, unknown>> = {}) {
  const config = deviceConfig(assets.map((asset, index) => ({ ...asset, ...overrides[index] })));
  const drivers = recordingDrivers(config);
  at(drivers, 0).state = readable({ activePower: 1000 });
  at(drivers, 1).state = readable({ activePower: 60_000, availablePower: 70_000, controllableRange: { min: 0, max: 100_000 }, confirmedSetpoint: 40_000 });
  at(drivers, 2).state = readable({ activePower: 0, stateOfCharge: 50, controllableRange: { min: -50_000, max: 50_000 } });
  at(drivers, 3).state = readable({ activePower: -11_000, controllableRange: { min: -22_000, max: 0 } });
  return { config, drivers, arbiter: new SetpointArbiter(config) };
}

describe('SetpointArbiter', () => {
  it('caps a producer at the most restrictive desire and reports every layer', async () => {
    const { drivers, arbiter } = setup();
    arbiter.desire(1, 'cloud', 60_000);
    arbiter.desire(1, 'activeControl', 40_000);
    arbiter.desire(1, 'gridOperator', 50_000);
    await arbiter.apply(0, drivers);
    expect(at(drivers, 1).writes).toEqual([40_000]);
    expect(arbiter.observations(1)).toEqual({ desired: { cloud: 60_000, activeControl: 40_000, gridOperator: 50_000 }, effective: 40_000, confirmed: 40_000 });
  });

  it('lets the grid operator hold a lower cap than every other source', async () => {
    const { drivers, arbiter } = setup();
    arbiter.desire(1, 'modbusServer', 80_000);
    arbiter.desire(1, 'gridOperator', 30_000);
    await arbiter.apply(0, drivers);
    expect(at(drivers, 1).writes).toEqual([30_000]);
  });

  it('dispatches a battery by precedence: grid operator, Modbus server, active control, cloud', async () => {
    const { drivers, arbiter } = setup();
    arbiter.desire(2, 'cloud', 10_000);
    await arbiter.apply(0, drivers);
    arbiter.desire(2, 'activeControl', -5_000);
    await arbiter.apply(100, drivers);
    arbiter.desire(2, 'modbusServer', 2_000);
    await arbiter.apply(200, drivers);
    arbiter.desire(2, 'gridOperator', 3_000);
    await arbiter.apply(300, drivers);
    arbiter.desire(2, 'gridOperator', null);
    arbiter.desire(2, 'modbusServer', null);
    arbiter.desire(2, 'activeControl', null);
    await arbiter.apply(400, drivers);
    arbiter.desire(2, 'cloud', null);
    await arbiter.apply(500, drivers);
    expect(at(drivers, 2).writes).toEqual([10_000, -5_000, 2_000, 3_000, 10_000, null]);
    expect(arbiter.observations(2)).toEqual({ desired: {}, effective: null, confirmed: null });
  });

  it('adds the afrr delta to the dispatch, and to an idle battery', async () => {
    const { drivers, arbiter } = setup();
    arbiter.desire(2, 'afrr', -2_000);
    await arbiter.apply(0, drivers);
    arbiter.desire(2, 'cloud', 10_000);
    await arbiter.apply(100, drivers);
    expect(at(drivers, 2).writes).toEqual([-2_000, 8_000]);
  });

  it('holds an EV at the floor nearest zero', async () => {
    const { drivers, arbiter } = setup();
    arbiter.desire(3, 'cloud', -16_000);
    arbiter.desire(3, 'activeControl', -7_000);
    await arbiter.apply(0, drivers);
    expect(at(drivers, 3).writes).toEqual([-7_000]);
  });

  it('caps a producer at its static limit even when no source steers it', async () => {
    const { drivers, arbiter } = setup({ 1: { staticLimit: { scale: 'percentage', upper: 80, lower: 0 } } });
    await arbiter.apply(0, drivers);
    arbiter.desire(1, 'cloud', 90_000);
    await arbiter.apply(100, drivers);
    arbiter.desire(1, 'cloud', 50_000);
    await arbiter.apply(200, drivers);
    expect(at(drivers, 1).writes).toEqual([80_000, 50_000]);
  });

  it('keeps a battery within its powerLimits and the range it accepts now', async () => {
    const { drivers, arbiter } = setup({ 2: { powerLimits: { charge: 20_000, discharge: 30_000 } } });
    arbiter.desire(2, 'cloud', -45_000);
    await arbiter.apply(0, drivers);
    at(drivers, 2).state = readable({ activePower: 0, stateOfCharge: 98, controllableRange: { min: -5_000, max: 50_000 } });
    await arbiter.apply(100, drivers);
    expect(at(drivers, 2).writes).toEqual([-20_000, -5_000]);
  });

  it("falls back to the asset's fallbackSetpoint while its meter is unreadable", async () => {
    const { drivers, arbiter } = setup({
      2: { powerMeterAssetIndex: 0, fallbackSetpoint: 0 },
      1: { powerMeterAssetIndex: 0, fallbackLimit: { activePowerPercentage: 30 } },
    });
    arbiter.desire(2, 'cloud', 25_000);
    arbiter.desire(1, 'cloud', 60_000);
    await arbiter.apply(0, drivers);
    at(drivers, 0).state = unreadable;
    await arbiter.apply(100, drivers);
    at(drivers, 0).state = readable({ activePower: 1000 });
    await arbiter.apply(200, drivers);
    expect(at(drivers, 2).writes).toEqual([25_000, 0, 25_000]);
    expect(at(drivers, 1).writes).toEqual([60_000, 30_000, 60_000]);
  });

  it('writes only changes beyond the deadband, and refreshes a held value every 30 s', async () => {
    const { drivers, arbiter } = setup();
    arbiter.desire(1, 'cloud', 50_000);
    await arbiter.apply(0, drivers);
    // 0.5 % of 100 kW: 500 W.
    arbiter.desire(1, 'cloud', 50_400);
    await arbiter.apply(100, drivers);
    arbiter.desire(1, 'cloud', 51_000);
    await arbiter.apply(200, drivers);
    await arbiter.apply(30_100, drivers);
    await arbiter.apply(30_200, drivers);
    expect(at(drivers, 1).writes).toEqual([50_000, 51_000, 51_000]);
  });

  it('ramps by rampRate, and never slower than maxDelay', async () => {
    const { drivers, arbiter } = setup({ 2: { rampRate: 1_000 }, 1: { rampRate: { up: 100, down: 100, maxDelay: 10 } } });
    at(drivers, 2).state = readable({ activePower: 0, stateOfCharge: 50, controllableRange: { min: -50_000, max: 50_000 } });
    at(drivers, 1).state = readable({ activePower: 60_000, availablePower: 70_000, controllableRange: { min: 0, max: 100_000 } });
    arbiter.desire(2, 'cloud', 10_000);
    arbiter.desire(1, 'cloud', 40_000);
    await arbiter.apply(0, drivers);
    await arbiter.apply(1_000, drivers);
    await arbiter.apply(2_000, drivers);
    // The battery starts from its measured 0 W and gains 1000 W a second.
    expect(at(drivers, 2).writes).toEqual([0, 1_000, 2_000]);
    // 20 kW at 100 W/s would take 200 s; maxDelay 10 s makes it 2 kW a second.
    expect(at(drivers, 1).writes).toEqual([60_000, 58_000, 56_000]);
  });

  it('never writes a readOnly asset', async () => {
    const { drivers, arbiter } = setup({ 1: { readOnly: true } });
    arbiter.desire(1, 'cloud', 10_000);
    await arbiter.apply(0, drivers);
    expect(at(drivers, 1).writes).toEqual([]);
    expect(arbiter.observations(1)?.effective).toBeNull();
  });

  it('retries a failed write after a second', async () => {
    const { drivers, arbiter } = setup();
    at(drivers, 2).accept = false;
    arbiter.desire(2, 'cloud', 5_000);
    await arbiter.apply(0, drivers);
    at(drivers, 2).accept = true;
    await arbiter.apply(500, drivers);
    await arbiter.apply(1_000, drivers);
    expect(at(drivers, 2).writes).toEqual([5_000]);
    expect(arbiter.observations(2)?.effective).toBe(5_000);
  });

  it('layers loops: the lowest cap of a producer, the first loop of a battery; a released loop withdraws', async () => {
    const { drivers, arbiter } = setup();
    arbiter.applyLoopStep(1, {
      setpoints: new Map([
        [1, 30_000],
        [2, -4_000],
      ]),
    });
    arbiter.applyLoopStep(0, {
      setpoints: new Map([
        [1, 45_000],
        [2, 6_000],
      ]),
    });
    await arbiter.apply(0, drivers);
    arbiter.releaseLoop(0);
    await arbiter.apply(100, drivers);
    expect(at(drivers, 1).writes).toEqual([30_000]);
    expect(at(drivers, 2).writes).toEqual([6_000, -4_000]);
  });

  it('puts a modbusServer step in its own layer', async () => {
    const { drivers, arbiter } = setup();
    arbiter.desire(2, 'activeControl', 1_000);
    arbiter.applyLoopStep(3, { setpoints: new Map([[2, -3_000]]), layer: 'modbusServer' });
    await arbiter.apply(0, drivers);
    expect(arbiter.observations(2)?.desired).toEqual({ activeControl: 1_000, modbusServer: -3_000 });
    expect(at(drivers, 2).writes).toEqual([-3_000]);
  });

  it('gives the baselines without the activeControl layer', () => {
    const { drivers, arbiter } = setup();
    arbiter.desire(2, 'cloud', 7_000);
    arbiter.desire(2, 'activeControl', -1_000);
    arbiter.desire(1, 'activeControl', 10_000);
    expect(
      arbiter.baselines(
        0,
        drivers.map((driver) => driver.state),
      ),
    ).toEqual([null, null, 7_000, null]);
  });
});
