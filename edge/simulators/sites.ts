/**
 * Three ready demo sites (issue 6 item 7): a plant behind a grid meter, its Modbus simulator, and
 * the DeviceConfig v2 a gateway needs to run it (assets reach the simulator over tcp). The demo
 * fleet runs one gateway per site; tests and benchmarks use them as they are.
 *
 * - solar + battery: 15 kW PV, a 20 kWh / 8 kW battery, a noisy building load with peaks, and a
 *   proportionalPeakShaver holding the import under 8 kW.
 * - wind: a 2 MW turbine and the park's own consumption behind the meter.
 * - EV charging: an 8-point charger, a relay (lighting, signage, spare) and a building load, with
 *   a currentLimiter holding the charger under the connection's 160 A.
 */
import { parseDeviceConfig, type DeviceConfig } from '../../contracts/device/config';
import { builtInMap } from '../drivers/maps/registry';
import { startMapSimulator } from './map-simulator';
import { startModbusSimulator, type ModbusSimulator, type SimulatedUnit } from './modbus-simulator';
import { Battery, EvCharger, Load, Relay, Site, SolarPlant, WindTurbine } from './plant';

export interface DemoSite {
  /** Short name (solar-battery, wind, ev-charging). */
  readonly name: string;
  readonly site: Site;
  /** The Modbus server the site's assets are on (the demo maps' simulator, or the register-map simulator). */
  readonly simulator: Pick<ModbusSimulator, 'host' | 'port' | 'connection' | 'close'>;
  /** The config a gateway runs against the simulator (parsed: defaults filled in). */
  readonly config: DeviceConfig;
  /** Stops the real-time runner (if started) and the simulator. */
  close(): Promise<void>;
}

export interface DemoSiteOptions {
  /** Seed of the plant's random generator (default: per site). */
  seed?: number;
  /** The plant's clock at the start, ms (default: now, so the sun matches the time of day). */
  start?: number;
  /** Where the simulator listens (default 127.0.0.1, a free port). */
  host?: string;
  port?: number;
  /** Advance the plant with the wall clock (default true); false leaves stepping to the caller. */
  realTime?: boolean;
}

/** A running real-time runner. */
export interface RealTimeRunner {
  stop(): void;
}

/** The longest the runner catches up at once (a machine that slept): beyond, the plant skips ahead in one step. */
const catchUpLimitS = 60;

/**
 * Advances a site with a clock, every `stepSeconds` (default 0.1 s): each tick steps the plant
 * to the clock's time, so the plant keeps pace however late a timer fires.
 */
export function runInRealTime(site: Site, options: { stepSeconds?: number; now?: () => number } = {}): RealTimeRunner {
  const stepSeconds = options.stepSeconds ?? 0.1;
  const now = options.now ?? Date.now;
  const timer = setInterval(() => {
    const behind = (now() - site.now) / 1000;
    if (behind <= 0) {
      return;
    }
    if (behind > catchUpLimitS) {
      site.step(behind - catchUpLimitS);
    }
    site.advance(Math.min(behind, catchUpLimitS), stepSeconds);
  }, stepSeconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

const network = { eth0: { type: 'dhcp' } };

async function demoSite(
  name: string,
  site: Site,
  units: readonly SimulatedUnit[],
  configOf: (simulator: DemoSite['simulator']) => unknown,
  options: DemoSiteOptions,
): Promise<DemoSite> {
  return siteOn(name, site, await startModbusSimulator(site, { units, host: options.host, port: options.port }), configOf, options);
}

async function siteOn(
  name: string,
  site: Site,
  simulator: DemoSite['simulator'],
  configOf: (simulator: DemoSite['simulator']) => unknown,
  options: DemoSiteOptions,
): Promise<DemoSite> {
  let config: DeviceConfig;
  try {
    config = parseDeviceConfig(configOf(simulator));
  } catch (error) {
    await simulator.close();
    throw error;
  }
  const runner = options.realTime === false ? undefined : runInRealTime(site);
  return {
    name,
    site,
    simulator,
    config,
    close: async () => {
      runner?.stop();
      await simulator.close();
    },
  };
}

/** Solar + battery + meter with a building load and a peak shaver. Asset indices: 0 meter, 1 solar, 2 battery. */
export async function startSolarBatterySite(options: DemoSiteOptions = {}): Promise<DemoSite> {
  const site = new Site({ seed: options.seed ?? 101, start: options.start ?? Date.now() });
  site.add(new Load({ base: 6000, noise: 600, peakPower: 6000, peaksPerHour: 3, peakDurationS: [120, 600] }));
  const solar = site.add(new SolarPlant({ nominalPower: 15_000, powerResponseMs: 1000 }));
  const battery = site.add(new Battery({ capacityWh: 20_000, stateOfCharge: 60, maxChargePower: 8000, maxDischargePower: 8000, powerResponseMs: 500 }));
  const units: SimulatedUnit[] = [
    { slaveId: 1, type: 'demo-meter', target: site.meter },
    { slaveId: 2, type: 'demo-solar', target: solar },
    { slaveId: 3, type: 'demo-battery', target: battery },
  ];
  return demoSite(
    'solar-battery',
    site,
    units,
    (simulator) => ({
      network,
      reportingIntervalInSec: 10,
      assets: [
        {
          type: 'demo-meter',
          identifier: 'grid-meter',
          communication: simulator.connection(),
          slaveId: 1,
          enableFlashReport: { reportingInterval: 1, additionalProperties: ['phaseCurrent'] },
        },
        {
          type: 'demo-solar',
          identifier: 'pv-roof',
          communication: simulator.connection(),
          slaveId: 2,
          nominalActivePower: 15_000,
          powerResponseMs: 1000,
          powerMeterAssetIndex: 0,
          enableFlashReport: { reportingInterval: 1 },
        },
        {
          type: 'demo-battery',
          identifier: 'battery',
          communication: simulator.connection(),
          slaveId: 3,
          nominalActivePower: 8000,
          powerResponseMs: 500,
          stateOfChargeLimits: { min: 10, max: 90 },
          powerLimits: { charge: 8000, discharge: 8000 },
        },
      ],
      activeControl: [{ type: 'proportionalPeakShaver', identifier: 'peak-shaver', meterAssetIndex: 0, batteryAssetIndices: [2], activePowerLimit: 8000 }],
    }),
    options,
  );
}

/** A wind turbine and the park's own consumption behind the meter. Asset indices: 0 meter, 1 turbine. */
export async function startWindSite(options: DemoSiteOptions = {}): Promise<DemoSite> {
  const site = new Site({ seed: options.seed ?? 202, start: options.start ?? Date.now(), weather: { meanWindSpeed: 9, gustiness: 2 } });
  site.add(new Load({ base: 20_000, noise: 2000 }));
  const turbine = site.add(new WindTurbine({ nominalPower: 2_000_000, powerResponseMs: 3000 }));
  const units: SimulatedUnit[] = [
    { slaveId: 1, type: 'demo-meter', target: site.meter },
    { slaveId: 2, type: 'demo-wind', target: turbine },
  ];
  return demoSite(
    'wind',
    site,
    units,
    (simulator) => ({
      network,
      reportingIntervalInSec: 10,
      assets: [
        { type: 'demo-meter', identifier: 'park-meter', communication: simulator.connection(), slaveId: 1, enableFlashReport: { reportingInterval: 1 } },
        {
          type: 'demo-wind',
          identifier: 'wtg-1',
          communication: simulator.connection(),
          slaveId: 2,
          nominalActivePower: 2_000_000,
          powerResponseMs: 3000,
          powerMeterAssetIndex: 0,
          enableFlashReport: { reportingInterval: 1 },
        },
      ],
    }),
    options,
  );
}

/** An 8-point EV charger, a relay and a building load. Asset indices: 0 meter, 1 charger, 2 relay. */
export async function startEvChargingSite(options: DemoSiteOptions = {}): Promise<DemoSite> {
  const site = new Site({ seed: options.seed ?? 303, start: options.start ?? Date.now() });
  site.add(new Load({ base: 10_000, noise: 1000, peakPower: 5000, peaksPerHour: 1 }));
  const charger = site.add(new EvCharger({ pointCount: 8, maxPhaseCurrent: 32, arrivalsPerHour: 0.5 }));
  const relay = site.add(new Relay({ channels: 3, channelLoads: [1500, 800, 0], initial: ['on', 'on', 'off'] }));
  const units: SimulatedUnit[] = [
    { slaveId: 1, type: 'demo-meter', target: site.meter },
    { slaveId: 2, type: 'demo-ev', target: charger },
    { slaveId: 3, type: 'demo-relay', target: relay },
  ];
  return demoSite(
    'ev-charging',
    site,
    units,
    (simulator) => ({
      network,
      reportingIntervalInSec: 10,
      assets: [
        {
          type: 'demo-meter',
          identifier: 'grid-meter',
          communication: simulator.connection(),
          slaveId: 1,
          enableFlashReport: { reportingInterval: 1, additionalProperties: ['phaseCurrent'] },
        },
        {
          type: 'demo-ev',
          identifier: 'chargers',
          communication: simulator.connection(),
          slaveId: 2,
          nominalActivePower: 8 * 3 * 230 * 32,
          nominalPhaseCurrent: 32,
          staticLimit: { phaseCurrent: -160 },
        },
        {
          type: 'demo-relay',
          identifier: 'relays',
          communication: simulator.connection(),
          slaveId: 3,
          relays: [
            { name: 'lighting', default: 'on' },
            { name: 'signage', default: 'on' },
            { name: 'spare', default: 'off' },
          ],
        },
      ],
      activeControl: [
        {
          type: 'currentLimiter',
          identifier: 'phase-guard',
          meterAssetIndex: 0,
          limitableAssetIndices: [1],
          contractualLimit: { consumption: 160, feedIn: 160 },
        },
      ],
    }),
    options,
  );
}

/** The demo-type sites by name (the demo fleet also starts startRealFamilySite). */
export const demoSites = {
  'solar-battery': startSolarBatterySite,
  wind: startWindSite,
  'ev-charging': startEvChargingSite,
} as const;

/**
 * Solar + battery + meter of real device families, on the register-map simulator bound to the
 * plant: a Janitza UMG meter, a Huawei SUN2000 inverter and an SMA Sunny Island, with the
 * peak shaver of the solar-battery site. Asset indices: 0 meter, 1 inverter, 2 battery.
 */
export async function startRealFamilySite(options: DemoSiteOptions = {}): Promise<DemoSite> {
  const site = new Site({ seed: options.seed ?? 404, start: options.start ?? Date.now() });
  site.add(new Load({ base: 6000, noise: 600, peakPower: 6000, peaksPerHour: 3, peakDurationS: [120, 600] }));
  const solar = site.add(new SolarPlant({ nominalPower: 15_000, powerResponseMs: 1000 }));
  const battery = site.add(new Battery({ capacityWh: 20_000, stateOfCharge: 60, maxChargePower: 8000, maxDischargePower: 8000, powerResponseMs: 500 }));
  const simulator = await startMapSimulator({
    host: options.host,
    port: options.port,
    units: [
      { slaveId: 1, map: builtInMap('janitza'), plant: { site, target: site.meter } },
      {
        slaveId: 2,
        map: builtInMap('huawei-inverter'),
        values: { ratedPower: 15_000, modelName: 'SUN2000-15KTL-M2', serialNumber: 'SIM-HUAWEI-2' },
        plant: { site, target: solar },
      },
      { slaveId: 3, map: builtInMap('sma-sunny-island'), plant: { site, target: battery, nominalActivePower: 8000 } },
    ],
  });
  return siteOn(
    'real-families',
    site,
    simulator,
    (server) => ({
      network,
      reportingIntervalInSec: 10,
      assets: [
        { type: 'janitza', identifier: 'grid-meter', communication: server.connection(), slaveId: 1, enableFlashReport: { reportingInterval: 1 } },
        { type: 'huawei-inverter', identifier: 'pv-hall', communication: server.connection(), slaveId: 2, nominalActivePower: 15_000, powerMeterAssetIndex: 0 },
        {
          type: 'sma-sunny-island',
          identifier: 'battery',
          communication: server.connection(),
          slaveId: 3,
          nominalActivePower: 8000,
          stateOfChargeLimits: { min: 10, max: 90 },
          powerLimits: { charge: 8000, discharge: 8000 },
        },
      ],
      activeControl: [{ type: 'proportionalPeakShaver', identifier: 'peak-shaver', meterAssetIndex: 0, batteryAssetIndices: [2], activePowerLimit: 8000 }],
    }),
    options,
  );
}
