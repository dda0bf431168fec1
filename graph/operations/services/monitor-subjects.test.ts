import { alarmApplies, monitorSubjectsOf } from './monitor-subjects';

describe('which alarms a config still has a subject for', () => {
  const subjects = monitorSubjectsOf({
    assets: [{ type: 'demo-battery', identifier: 'BAT-1' }, { type: 'demo-meter' }],
    activeControl: [{ type: 'batteryPeakShaver', identifier: 'shaver', controlLoopSleep: 0.5 }, { type: 'powerLimiter' }],
  });

  it('names assets and loops by identifier, else by index, as the evaluator does', () => {
    expect(subjects.assets.map((asset) => asset.identifier)).toEqual(['BAT-1', 'asset 1']);
    expect(subjects.loops.map((loop) => [loop.identifier, loop.stepMs])).toEqual([
      ['shaver', 500],
      ['control loop 1', 100],
    ]);
  });

  it('keeps an asset kind while the asset of that name is there, of the category a category kind needs', () => {
    expect(alarmApplies('asset.connectivity', 'BAT-1', subjects)).toBe(true);
    expect(alarmApplies('asset.connectivity', 'asset 1', subjects)).toBe(true);
    expect(alarmApplies('asset.connectivity', 'BAT-2', subjects)).toBe(false);
    expect(alarmApplies('battery.alarm', 'BAT-1', subjects)).toBe(true);
    expect(alarmApplies('meter.metadataMismatch', 'BAT-1', subjects)).toBe(false);
    expect(alarmApplies('meter.alarm', 'asset 1', subjects)).toBe(true);
  });

  it('keeps a loop kind while the loop of that name is there, of the type a peak shaver or temperature kind needs', () => {
    expect(alarmApplies('activeControl.slowControlLoop', 'control loop 1', subjects)).toBe(true);
    expect(alarmApplies('activeControl.slowControlLoop', 'limiter-1', subjects)).toBe(false);
    expect(alarmApplies('batteryPeakShaver.stateOfChargeLow', 'shaver', subjects)).toBe(true);
    expect(alarmApplies('batteryPeakShaver.stateOfChargeLow', 'control loop 1', subjects)).toBe(false);
    expect(alarmApplies('temperaturePowerLimiter.fallback', 'shaver', subjects)).toBe(false);
    // A loop alarm that names no loop holds while any loop of its type is left.
    expect(alarmApplies('activeControl.meterTooOftenUnreadable', null, subjects)).toBe(true);
    expect(alarmApplies('activeControl.meterTooOftenUnreadable', null, monitorSubjectsOf({ assets: [] }))).toBe(false);
  });

  it('keeps device kinds whatever the config, and reads no config as one without assets or loops', () => {
    expect(alarmApplies('device.failedToInitializeActiveControl', null, monitorSubjectsOf(null))).toBe(true);
    expect(monitorSubjectsOf(null)).toEqual({ assets: [], loops: [] });
  });
});
