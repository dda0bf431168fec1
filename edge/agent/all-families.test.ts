import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { configIssues } from '../../contracts/device/config';
import { controlLoopTypes } from '../../contracts/device/control-loops';
import { systemActor } from '../../graph/common/context';
import { version } from '../../server/version';
import { anOrganization } from '../../test-support/factories';
import { testApp, type TestApp } from '../../test-support/app';
import { startRegisterServer, type RegisterServer } from '../../test-support/modbus-peers/register-server';
import { describeWithPeers } from '../../test-support/services';
import { builtInMap } from '../drivers/maps/registry';
import { derCapacityPoints, derControlsPoints, derMeasurementPoints, integerInverterPoints, nameplatePoints, controlsPoints } from '../drivers/sunspec/models';
import { commonData, modelData, sunspecChain, type TestModel } from '../drivers/sunspec/test-maps';
import { startMapSimulator, type MapSimulator } from '../simulators/map-simulator';
import { freePort, startModbusSimulator, type ModbusSimulator } from '../simulators/modbus-simulator';
import { Battery, EvCharger, Generator, HeatStorage, Load, Relay, Site, SolarPlant, WindTurbine } from '../simulators/plant';
import type { Agent } from './agent';
import { defaultAgentParts } from './parts';
import { startEdgeAgent } from './run';

interface ReportRow {
  type: string;
  asset_index: number | null;
  controller_index: number | null;
  body: { observations: Record<string, unknown> };
}

/** A 10 kW series-100 inverter: common, 103 (integers with scale factors), nameplate 120, controls 123. */
const series100: TestModel[] = [
  { id: 1, data: commonData({ manufacturer: 'Fronius', model: 'Symo 10.0-3-M', version: '3.14.1-2', serialNumber: 'SIM-100' }) },
  { id: 103, data: modelData(50, integerInverterPoints, { W: 6543, W_SF: 0, Hz: 5001, Hz_SF: -2, AphA: 484, AphB: 485, AphC: 483, A_SF: -2, St: 4 }) },
  { id: 120, data: modelData(26, nameplatePoints, { WRtg: 10000, WRtg_SF: 0 }) },
  { id: 123, data: modelData(24, controlsPoints, { WMaxLimPct: 10000, WMaxLim_Ena: 0, WMaxLimPct_SF: -2 }) },
];

/** A 50 kW series-700 DER: common, 701 (AC measurement), 702 (capacity), 704 (controls). */
const series700: TestModel[] = [
  { id: 1, data: commonData({ manufacturer: 'SunSpec DER', model: 'DER-50', version: '1.0.7', serialNumber: 'SIM-700' }) },
  { id: 701, data: modelData(153, derMeasurementPoints, { InvSt: 5, W: 4567, W_SF: 1, Hz: 49990, Hz_SF: -3 }) },
  { id: 702, data: modelData(48, derCapacityPoints, { WMaxRtg: 5000, WMax: 5000, W_SF: 1 }) },
  { id: 704, data: modelData(69, derControlsPoints, { WMaxLimPctEna: 0, WMaxLimPct: 1000, WMaxLim_SF: -1 }) },
];

/**
 * Issue 20's "Done when": one asset of every family that has a driver and one loop of every type,
 * run by the real agent (real loop factory, real drivers over Modbus TCP) against simulators,
 * connected to the real hub. Asset indices: 0 demo meter, 1 demo solar, 2 demo battery, 3 demo
 * wind, 4 demo EV, 5 demo relay, 6 demo generator, 7 demo heat storage (its storage temperature
 * feeds the temperature limiter), then one of every register-map family: 8 Janitza, 9 Huawei
 * inverter, 10 Huawei ESS, 11 Sungrow, 12 SMA Sunny Island, 13 Alfen charger, 14 Waveshare relay,
 * 15 test-modbus-inverter, 16 test-asset, 17 Socomec; then the families with drivers of their
 * own: 18 a SunSpec series-100 inverter and 19 a series-700 DER (their model chains served by
 * pymodbus, a peer nobody here wrote), 20 an Eastron SDM630 (its documented map on the map
 * simulator). The ABL charger is the one family left out: it speaks Modbus ASCII on RS485 only,
 * and the config takes only the gateway's own serial ports, so it runs through the link pool on a
 * pseudo-terminal in drivers/maps/ascii.test.ts.
 */
describeWithPeers(['pymodbus'], __filename)('the agent with one asset of every family and one loop of every type', () => {
  let t: TestApp;
  let stateDirectory: string;
  let demo: ModbusSimulator;
  let maps: MapSimulator;
  let sunspec: RegisterServer;
  let agent: Agent | undefined;

  beforeAll(async () => {
    t = await testApp({}, { hub: true });
    stateDirectory = mkdtempSync(path.join(tmpdir(), 'gridport-all-families-'));
    const site = new Site({ seed: 20, start: Date.now() });
    site.add(new Load({ base: 6000, noise: 300, peakPower: 0, peaksPerHour: 0, peakDurationS: [60, 60] }));
    const units = [
      { slaveId: 1, type: 'demo-meter', target: site.meter },
      { slaveId: 2, type: 'demo-solar', target: site.add(new SolarPlant({ nominalPower: 15_000 })) },
      {
        slaveId: 3,
        type: 'demo-battery',
        target: site.add(new Battery({ capacityWh: 20_000, stateOfCharge: 60, maxChargePower: 8000, maxDischargePower: 8000 })),
      },
      { slaveId: 4, type: 'demo-wind', target: site.add(new WindTurbine({ nominalPower: 10_000 })) },
      { slaveId: 5, type: 'demo-ev', target: site.add(new EvCharger({ pointCount: 2, maxPhaseCurrent: 32 })) },
      { slaveId: 6, type: 'demo-relay', target: site.add(new Relay({ channels: 2 })) },
      { slaveId: 7, type: 'demo-generator', target: site.add(new Generator({ nominalPower: 20_000 })) },
      { slaveId: 8, type: 'demo-heat-storage', target: site.add(new HeatStorage({ heaterPower: 6000, capacityWh: 30_000 })) },
    ] as const;
    demo = await startModbusSimulator(site, { units });
    maps = await startMapSimulator({
      units: [
        { slaveId: 1, map: builtInMap('janitza'), values: { powerSum: 6900.75, frequency: 49.98 } },
        { slaveId: 2, map: builtInMap('huawei-inverter'), values: { ratedPower: 50_000, activePower: 30_000, gridFrequency: 50.01 } },
        { slaveId: 3, map: builtInMap('huawei-ess'), values: { stateOfCapacity: 56.7, chargeDischargePower: -2500 } },
        { slaveId: 4, map: builtInMap('sungrow-string-inverter'), values: { nominalPower: 110_000, totalActivePower: 78_000, gridFrequency: 50 } },
        { slaveId: 5, map: builtInMap('sma-sunny-island'), values: { activePower: -3000, stateOfCharge: 81, gridFrequency: 50.02 } },
        { slaveId: 6, map: builtInMap('alfen-ev-ng9xx'), values: { realPowerSum: -11_000, mode3State: 'C2' } },
        { slaveId: 7, map: builtInMap('waveshare-relay'), values: {} },
        { slaveId: 8, map: builtInMap('test-modbus-inverter'), values: { activePower: 4000, availablePower: 5200, nominalPower: 10_000 } },
        { slaveId: 9, map: builtInMap('test-asset'), values: { activePower: -1500, frequency: 50.01 } },
        { slaveId: 10, map: builtInMap('socomec'), values: { activePower: -2340, frequency: 50.02 } },
        { slaveId: 11, map: builtInMap('eastron'), values: { powerL1: 1200, powerL2: 1100, powerL3: 900, frequency: 49.99 } },
      ],
    });
    sunspec = await startRegisterServer({ units: { '1': { holding: sunspecChain(40000, series100) }, '2': { holding: sunspecChain(40000, series700) } } });
    // The app with its hub, two simulators and a pymodbus peer: well within 30 s on a quiet machine, not on a loaded one.
  }, 120_000);

  afterAll(async () => {
    await agent?.stop();
    await demo.close();
    await maps.close();
    await sunspec.stop();
    await t.close();
    rmSync(stateDirectory, { recursive: true, force: true });
  });

  it('reports every asset and the status of every loop, with no unsupported asset type or control loop', async () => {
    const onDemo = (slaveId: number) => ({ communication: demo.connection(), slaveId });
    const onMaps = (slaveId: number) => ({ communication: maps.connection(), slaveId });
    const onSunspec = (slaveId: number) => ({ communication: sunspec.connection, slaveId });
    const assets = [
      { type: 'demo-meter', identifier: 'grid-meter', ...onDemo(1) },
      { type: 'demo-solar', identifier: 'pv', ...onDemo(2), nominalActivePower: 15_000 },
      { type: 'demo-battery', identifier: 'battery', ...onDemo(3), nominalActivePower: 8000 },
      { type: 'demo-wind', identifier: 'wind', ...onDemo(4), nominalActivePower: 10_000 },
      { type: 'demo-ev', identifier: 'ev', ...onDemo(5), nominalActivePower: 2 * 3 * 230 * 32, nominalPhaseCurrent: 32 },
      { type: 'demo-relay', identifier: 'relays', ...onDemo(6), relays: [{}, {}] },
      { type: 'demo-generator', identifier: 'genset', ...onDemo(7), nominalActivePower: 20_000 },
      { type: 'demo-heat-storage', identifier: 'heat', ...onDemo(8), nominalActivePower: 6000 },
      { type: 'janitza', identifier: 'janitza', ...onMaps(1) },
      { type: 'huawei-inverter', identifier: 'huawei-inverter', ...onMaps(2) },
      { type: 'huawei-ess', identifier: 'huawei-ess', ...onMaps(3), nominalActivePower: 5000 },
      { type: 'sungrow-string-inverter', identifier: 'sungrow', ...onMaps(4) },
      { type: 'sma-sunny-island', identifier: 'sma', ...onMaps(5), nominalActivePower: 6000 },
      { type: 'alfen-ev-ng9xx', identifier: 'alfen', ...onMaps(6), nominalActivePower: 22_080 },
      { type: 'waveshare-relay', identifier: 'waveshare', ...onMaps(7), relays: [{}, {}] },
      { type: 'test-modbus-inverter', identifier: 'test-inverter', ...onMaps(8) },
      { type: 'test-asset', identifier: 'test-meter', ...onMaps(9) },
      { type: 'socomec', identifier: 'socomec', ...onMaps(10) },
      { type: 'sunspec-series100', identifier: 'sunspec-100', ...onSunspec(1) },
      { type: 'sunspec-series700', identifier: 'sunspec-700', ...onSunspec(2) },
      { type: 'eastron', identifier: 'sdm630', ...onMaps(11) },
    ];
    const limit = { consumption: 100_000, feedIn: 80_000 };
    const rtiPort = await freePort('127.0.0.1');
    const serverPort = await freePort('127.0.0.1');
    const activeControl = [
      { type: 'proportionalPeakShaver', meterAssetIndex: 0, batteryAssetIndices: [2], activePowerLimit: 40_000 },
      { type: 'batteryPowerLimiter', meterAssetIndex: 0, batteryAssetIndices: [2], contractualLimit: limit },
      { type: 'batteryCurrentLimiter', meterAssetIndex: 0, batteryAssetIndices: [2], contractualLimit: { consumption: 160, feedIn: 160 } },
      { type: 'cascadeBatteryPowerLimiter', meterAssetIndex: 0, primaryBatteryAssetIndices: [2], secondaryBatteryAssetIndices: [10], contractualLimit: limit },
      {
        type: 'batteryPowerReservationLimiter',
        meterAssetIndex: 0,
        batteryAssetIndices: [12],
        reservedPower: { charge: 1000, discharge: 1000 },
        stateOfChargeSchedule: [{ start: '00:00', end: '23:59', min: 20, max: 90 }],
      },
      { type: 'powerReservationLimiter', meterAssetIndex: 0, limitableAssetIndices: [1], monitoredCapacity: 120_000, reservedPower: { discharge: 5000 } },
      { type: 'powerLimiter', meterAssetIndex: 0, primaryLimitableAssetIndices: [1], secondaryLimitableAssetIndices: [3], contractualLimit: limit },
      { type: 'apparentPowerLimiter', meterAssetIndex: 0, limitableAssetIndices: [9], apparentPowerLimit: 130_000 },
      { type: 'currentLimiter', meterAssetIndex: 0, limitableAssetIndices: [4], contractualLimit: { consumption: 160, feedIn: 160 } },
      {
        type: 'temperaturePowerLimiter',
        temperatureSensorAssetIndex: 7,
        temperatureName: 'storage',
        limitableAssetIndices: [11],
        derating: [
          { temperature: 95, activePowerPercentage: 70 },
          { temperature: 99, activePowerPercentage: 0 },
        ],
      },
      { type: 'realTimeInterface', meterAssetIndex: 0, assetIndices: [1, 2], port: rtiPort },
      { type: 'afrrLimiter', meterAssetIndex: 0, batteryAssetIndices: [10] },
      { type: 'zonbalansPowerLimiter', meterAssetIndex: 0, limitableAssetIndices: [15], contractualLimit: { consumption: null, feedIn: 80_000 } },
      { type: 'modbusServer', assetIndices: [0, 1, 2], port: serverPort },
      { type: 'batteryPeakShaver', meterAssetIndex: 0, batteryAssetIndices: [12], evAssetIndices: [13], contractualLimit: limit },
      { type: 'generatorBatteryCharger', generatorAssetIndex: 6, batteryAssetIndices: [2], startStateOfCharge: 5, stopStateOfCharge: 80 },
      { type: 'gridOperatorHedno', meterAssetIndex: 0, limitableAssetIndices: [9] },
      {
        type: 'optimizer',
        topology: { name: 'site', constraint: limit, assets: { controllable: [2, 1], powerMeterable: [{ assetIndex: 0, meter: 'net' }] } },
      },
    ].map((loop, index) => ({ identifier: `loop-${index}`, reportingInterval: 1, ...loop }));
    expect(new Set(activeControl.map((loop) => loop.type))).toEqual(new Set(controlLoopTypes));

    const organization = await anOrganization(t.services);
    const actor = systemActor('test');
    const { hashId, provisioningToken } = await t.services.devices.ship(actor, { organizationHashId: organization.hashId, name: 'Every family' });
    const config = { network: { eth0: { type: 'dhcp' }, eth1: null }, reportingIntervalInSec: 5, assets, activeControl };
    expect(configIssues(config)).toEqual([]);
    await t.services.devices.update(actor, hashId, { config });
    const baseUrl = await t.listen();
    // The real factories, with what each made noted: a null is what the agent answers as unsupported.
    const built: string[] = [];
    const parts = {
      ...defaultAgentParts,
      createDriver: (...args: Parameters<typeof defaultAgentParts.createDriver>) => {
        const driver = defaultAgentParts.createDriver(...args);
        built.push(`asset ${args[0]}: ${driver === null ? 'unsupported' : 'driver'}`);
        return driver;
      },
      createControlLoop: (...args: Parameters<typeof defaultAgentParts.createControlLoop>) => {
        const loop = defaultAgentParts.createControlLoop(...args);
        built.push(`loop ${args[0]}: ${loop === null ? 'unsupported' : 'built'}`);
        return loop;
      },
    };
    agent = await startEdgeAgent({ hub: baseUrl, token: provisioningToken, identifier: 'every-family', stateDirectory, log: () => undefined, version, parts });

    const deviceId = t.hashIds.decode('device', hashId) ?? 0;
    const rows = async () =>
      (await t.database.db('device_reports').where('device_id', deviceId).select('type', 'asset_index', 'controller_index', 'body')) as ReportRow[];
    const reported = (all: ReportRow[]) => ({
      assets: new Set(all.filter((row) => row.asset_index !== null && !row.type.endsWith('.flash')).map((row) => row.asset_index)),
      loops: new Set(all.filter((row) => row.controller_index !== null).map((row) => row.controller_index)),
    });
    const deadline = Date.now() + 30_000;
    let all = await rows();
    while (Date.now() < deadline && (reported(all).assets.size < assets.length || reported(all).loops.size < activeControl.length)) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      all = await rows();
    }
    expect(built).toEqual([...assets.map((_, index) => `asset ${index}: driver`), ...activeControl.map((_, index) => `loop ${index}: built`)]);
    expect(all.filter((row) => row.type === 'error').map((row) => row.body.observations)).toEqual([]);
    // Each asset's report of its category (flash reports and alarms aside).
    const assetReportTypes = assets.map((_, index) => [
      ...new Set(all.filter((row) => row.asset_index === index && !row.type.endsWith('.flash') && row.type !== 'alarm').map((row) => row.type)),
    ]);
    expect(assetReportTypes).toEqual(
      [
        'meterPower',
        'solarPower',
        'batteryPower',
        'windPower',
        'evPower',
        'relay',
        'generatorPower',
        'thermalPower',
        'meterPower',
        'solarPower',
        'batteryPower',
        'solarPower',
        'batteryPower',
        'evPower',
        'relay',
        'solarPower',
        'meterPower',
        'meterPower',
        'solarPower',
        'solarPower',
        'meterPower',
      ].map((type) => [type]),
    );
    // Grid frequency as each family's document gives it: SunSpec Hz with its scale factor (103, 701), the SDM630's float.
    const frequencyOf = (index: number) =>
      all.find((row) => row.asset_index === index && !row.type.endsWith('.flash') && row.type !== 'alarm')?.body.observations.frequency;
    expect([18, 19, 20].map(frequencyOf)).toEqual([50.01, 49.99, 49.99]);
    expect([...reported(all).loops].sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(activeControl.map((_, index) => index));
    // The loops serving Modbus TCP listen on their ports.
    for (const port of [rtiPort, serverPort]) {
      await new Promise<void>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.destroy();
          resolve();
        });
        socket.on('error', reject);
      });
    }
  }, 60_000);
});
