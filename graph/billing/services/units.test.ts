import { controlLoopTypes } from '../../../contracts/device/control-loops';
import { exampleDeviceConfig } from '../../../contracts/device/examples';
import { unitsOf, unitsAbove, unitsMax, unitTotal } from './units';

const noRecord = { iccid: null, continuousSupport: false };
const withAssets = (...types: string[]) => ({ assets: types.map((type) => ({ type })), reportingIntervalInSec: 60 });
const withLoops = (...types: string[]) => ({ assets: [], activeControl: types.map((type) => ({ type })), reportingIntervalInSec: 60 });

describe('units of a device (docs/billing.md, "Units")', () => {
  it.each([
    ['a solar asset', withAssets('sma-sunny-tripower'), { 'asset.solar': 1 }],
    ['a wind asset', withAssets('vestas-ap'), { 'asset.wind': 1 }],
    ['a battery asset', withAssets('demo-battery'), { 'asset.battery': 1 }],
    ['a heat-storage asset, priced as storage', withAssets('demo-heat-storage'), { 'asset.battery': 1 }],
    [
      'irradiance, wind and temperature sensors',
      withAssets('demo-irradiance-sensor', 'demo-wind-sensor', 'demo-temperature-sensor'),
      { 'asset.environmentalSensor': 3 },
    ],
    ['a meter', withAssets('demo-meter'), { 'asset.meter': 1 }],
    [
      'AC chargers',
      withAssets('demo-ev', 'abl', 'alfen-ev-ng9xx', 'phoenix-contact-charx', 'ev-group', 'vd-sijs', 'flexecharge', 'peblar'),
      { 'asset.ev.ac': 8 },
    ],
    ['DC chargers', withAssets('alpitronic', 'siemens-sicharger', 'kempower'), { 'asset.ev.dc': 3 }],
    ['a generator', withAssets('demo-generator'), { 'asset.generator': 1 }],
    ['a relay', withAssets('waveshare-relay'), { 'asset.relay': 1 }],
    ['misc (test) assets count nothing', withAssets('test-asset', 'test-modbus-inverter', 'abb-protection-relay'), {}],
    ['an unknown asset type counts nothing', withAssets('toaster'), {}],
    ['powerLimiter and the peak shavers', withLoops('powerLimiter', 'proportionalPeakShaver', 'batteryPeakShaver'), { 'control.dso.a': 3 }],
    ['the current limiters', withLoops('currentLimiter', 'batteryCurrentLimiter', 'apparentPowerLimiter'), { 'control.dso.b': 3 }],
    ['afrrLimiter', withLoops('afrrLimiter'), { 'control.afrr': 1 }],
    ['gridOperatorHedno', withLoops('gridOperatorHedno'), { 'control.tso': 1 }],
    ['optimizer', withLoops('optimizer'), { 'control.optimizer': 1 }],
    [
      'loops limiting one asset locally',
      withLoops('batteryPowerLimiter', 'temperaturePowerLimiter', 'generatorBatteryCharger'),
      { 'control.gridguard.a.simple': 3 },
    ],
    [
      'loops over several assets or a reserve',
      withLoops('cascadeBatteryPowerLimiter', 'batteryPowerReservationLimiter', 'powerReservationLimiter'),
      { 'control.gridguard.a.complex': 3 },
    ],
    ['loops a third party sets live', withLoops('realTimeInterface', 'modbusServer'), { 'control.gridguard.b': 2 }],
    ['zonbalansPowerLimiter', withLoops('zonbalansPowerLimiter'), { 'control.gridguard.c': 1 }],
    [
      'flash reports on two assets: one per device',
      {
        assets: [
          { type: 'demo-solar', enableFlashReport: { reportingInterval: 1 } },
          { type: 'demo-meter', enableFlashReport: {} },
        ],
        reportingIntervalInSec: 60,
      },
      { 'asset.solar': 1, 'asset.meter': 1, 'reporting.flash': 1 },
    ],
    ['a reporting interval under 60 s', { assets: [], reportingIntervalInSec: 59 }, { 'reporting.frequent': 1 }],
    ['a reporting interval of 60 s is not frequent', { assets: [], reportingIntervalInSec: 60 }, {}],
  ])('%s', (_name, config, units) => {
    expect(unitsOf({ config, ...noRecord })).toEqual(units);
  });

  it('every control loop type has a rate key', () => {
    expect(unitTotal(unitsOf({ config: withLoops(...controlLoopTypes), ...noRecord }))).toBe(controlLoopTypes.length);
  });

  it('a continuous-support contact counts one per device', () => {
    expect(unitsOf({ config: null, iccid: null, continuousSupport: true })).toEqual({ 'support.continuous': 1 });
  });

  it('an ICCID counts one cellular; a blank one none', () => {
    expect(unitsOf({ config: null, iccid: '8931', continuousSupport: false })).toEqual({ cellular: 1 });
    expect(unitsOf({ config: null, iccid: ' ', continuousSupport: false })).toEqual({});
  });

  it('a device without a config has only the units of its record', () => {
    expect(unitsOf({ config: null, iccid: '8931', continuousSupport: true })).toEqual({ cellular: 1, 'support.continuous': 1 });
  });

  it('counts the example config: one of each category and every loop type', () => {
    const units = unitsOf({ config: exampleDeviceConfig, ...noRecord });
    expect(units['asset.solar']).toBe(2);
    expect(units['reporting.flash']).toBe(1);
    expect(units['control.optimizer']).toBe(1);
  });

  it('tells the units a change adds and the most of each key', () => {
    expect(unitsAbove({ 'asset.solar': 2, cellular: 1 }, { 'asset.solar': 1, cellular: 1 })).toEqual({ 'asset.solar': 1 });
    expect(unitsAbove({}, { 'asset.solar': 1 })).toEqual({});
    expect(unitsMax({ 'asset.solar': 2 }, { 'asset.solar': 1, cellular: 1 })).toEqual({ 'asset.solar': 2, cellular: 1 });
  });
});
