import { batteryReservationScenario, LimitTally, powerReservationScenario, summerDay, type SimulatedGateway } from './simulated-gateway';
import { at } from './test-support';

/** The grid meter's plant driver of a scenario. */
function meterOf(gateway: SimulatedGateway): { link: { down: boolean } } {
  const meter = at(gateway.drivers, 0);
  if (meter === undefined) {
    throw new Error('no meter driver');
  }
  return meter;
}

const stepSeconds = 0.1;
const daySteps = (24 * 3600) / stepSeconds;
const hour = 3_600_000;

describe('batteryPowerReservationLimiter over a simulated day (controlLoopSleep 0.1 s, driven clock)', () => {
  it('never uses the reserved power, keeps the state-of-charge schedule and the soft limit in at least 99.9 % of steps', async () => {
    const { gateway, consumptionLimitW, feedInLimitW, reserved, battery } = batteryReservationScenario(32);
    const tally = new LimitTally();
    let worstDischarge = -Infinity;
    let worstCharge = Infinity;
    let held = 0;
    const stateOfCharge = new Map<number, number>();
    for (let step = 0; step < daySteps; step += 1) {
      await gateway.step(stepSeconds);
      const meter = gateway.site.meter.activePower;
      tally.record(Math.max(meter - consumptionLimitW, -meter - feedInLimitW));
      worstDischarge = Math.max(worstDischarge, battery.activePower);
      worstCharge = Math.min(worstCharge, battery.activePower);
      if (gateway.arbiter.desired(1).activeControl !== undefined) {
        held += 1;
      }
      if ((step + 1) % 36_000 === 0) {
        stateOfCharge.set(Math.round((gateway.site.now - summerDay) / hour), battery.stateOfCharge);
      }
    }
    await gateway.close();
    expect(tally.steps).toBe(daySteps);
    expect(tally.share).toBeGreaterThanOrEqual(0.999);
    expect(tally.worstOvershootW).toBeLessThan(0.05 * consumptionLimitW);
    // The cloud asks for 45 kW each way; the battery never goes past 30 kW discharging or 40 kW charging.
    expect(worstDischarge).toBeGreaterThan(29_000);
    expect(worstDischarge).toBeLessThanOrEqual(50_000 - reserved.discharge);
    expect(worstCharge).toBeGreaterThanOrEqual(-(50_000 - reserved.charge));
    expect(held).toBeGreaterThan(daySteps / 8);
    // Recharged from 60 % into 70-90 % before 06:00; within 40-55 % by 10:00.
    expect(stateOfCharge.get(6)).toBeGreaterThanOrEqual(69.9);
    expect(stateOfCharge.get(10)).toBeLessThanOrEqual(55.1);
    expect(stateOfCharge.get(10)).toBeGreaterThanOrEqual(40);
  });
});

describe('powerReservationLimiter over a simulated day (controlLoopSleep 0.1 s, driven clock)', () => {
  it('keeps the reserved feed-in capacity free in at least 99.9 % of control steps', async () => {
    const { gateway, feedInLimitW } = powerReservationScenario(33);
    const tally = new LimitTally();
    let curtailed = 0;
    for (let step = 0; step < daySteps; step += 1) {
      await gateway.step(stepSeconds);
      tally.record(-gateway.site.meter.activePower - feedInLimitW);
      if (gateway.arbiter.observations(1)?.effective !== null) {
        curtailed += 1;
      }
    }
    await gateway.close();
    expect(curtailed).toBeGreaterThan(daySteps / 5);
    expect(tally.steps).toBe(daySteps);
    expect(tally.share).toBeGreaterThanOrEqual(0.999);
    expect(tally.worstOvershootW).toBeLessThan(0.05 * feedInLimitW);
  });

  it('holds the PV where it was while the meter is unreadable and reports the capacity it keeps free', async () => {
    const { gateway, feedInLimitW } = powerReservationScenario(38);
    gateway.site.advance((summerDay + 11 * hour - gateway.site.now) / 1000, 1);
    for (let step = 0; step < 6_000; step += 1) {
      await gateway.step(stepSeconds);
    }
    const [loop] = gateway.loops;
    const free = loop?.statusReport(new Date(gateway.site.now)).observations;
    expect(free).toMatchObject({ state: 'active', feedInLimit: feedInLimitW, consumptionLimit: 40_000 });
    // Feed-in just under 35 kW of the 50 kW capacity: about 15 kW free.
    expect((free as { reservedPower?: number } | undefined)?.reservedPower).toBeGreaterThan(15_000);
    meterOf(gateway).link.down = true;
    const caps: (number | null | undefined)[] = [];
    for (let step = 0; step < 600; step += 1) {
      await gateway.step(stepSeconds);
      if (step >= 10) {
        caps.push(gateway.arbiter.observations(1)?.effective);
      }
    }
    const first = caps[0];
    expect(typeof first).toBe('number');
    expect(caps.filter((cap) => typeof cap !== 'number' || cap > (first ?? 0))).toEqual([]);
    expect(loop?.statusReport(new Date(gateway.site.now))).toMatchObject({ observations: { state: 'fallback', reservedPower: null } });
    await gateway.close();
  });
});
