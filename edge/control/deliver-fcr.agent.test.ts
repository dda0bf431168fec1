import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { systemActor } from '../../graph/common/context';
import { version } from '../../server/version';
import { anOrganization } from '../../test-support/factories';
import { testApp, type TestApp } from '../../test-support/app';
import { until } from '../../test-support/until';
import type { Agent } from '../agent/agent';
import { defaultAgentParts } from '../agent/parts';
import { startEdgeAgent } from '../agent/run';
import { startModbusSimulator, type ModbusSimulator } from '../simulators/modbus-simulator';
import { Battery, Site } from '../simulators/plant';

interface ReportRow {
  type: string;
  body: { observations: Record<string, unknown> };
}

const minute = 60_000;

/**
 * deliverFCR of setBatteryOperation end to end: the cloud's setAssetSchedule goes through the
 * console's send-message route and the hub to the real agent, whose schedule runner adds the FCR
 * droop on the grid meter's frequency to the dispatch, and the demo battery driver writes the sum
 * over Modbus TCP into the simulated battery. At 49.9 Hz a battery dispatched at 10 kW with 40 kW
 * of band each way delivers 10 + 40 × 0.1 / 0.2 = 30 kW; at 50.1 Hz, −10 kW.
 */
describe('deliverFCR from the cloud to the battery', () => {
  let t: TestApp;
  let stateDirectory: string;
  let simulator: ModbusSimulator;
  let site: Site;
  let battery: Battery;
  let agent: Agent | undefined;

  beforeAll(async () => {
    t = await testApp({}, { hub: true });
    stateDirectory = mkdtempSync(path.join(tmpdir(), 'gridport-fcr-'));
    site = new Site({ seed: 7, start: Date.now() });
    battery = site.add(new Battery({ capacityWh: 200_000, stateOfCharge: 50, maxChargePower: 50_000, maxDischargePower: 50_000 }));
    simulator = await startModbusSimulator(site, {
      units: [
        { slaveId: 1, type: 'demo-meter', target: site.meter },
        { slaveId: 2, type: 'demo-battery', target: battery },
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await agent?.stop();
    await simulator?.close();
    await t?.close();
    rmSync(stateDirectory, { recursive: true, force: true });
  }, 60_000);

  it('droops the battery on the meter frequency around its dispatch', async () => {
    const organization = await anOrganization(t.services);
    const actor = systemActor('test');
    const { hashId, provisioningToken } = await t.services.devices.ship(actor, { organizationHashId: organization.hashId, name: 'FCR site' });
    const assets = [
      { type: 'demo-meter', identifier: 'grid', communication: simulator.connection(), slaveId: 1 },
      { type: 'demo-battery', identifier: 'battery', communication: simulator.connection(), slaveId: 2, nominalActivePower: 50_000 },
    ];
    await t.services.devices.update(actor, hashId, {
      config: { network: { eth0: { type: 'dhcp' }, eth1: null }, reportingIntervalInSec: 4, assets, activeControl: [] },
    });
    const baseUrl = await t.listen();
    agent = await startEdgeAgent({
      hub: baseUrl,
      token: provisioningToken,
      identifier: 'fcr-site',
      stateDirectory,
      log: () => undefined,
      version,
      parts: defaultAgentParts,
    });
    const deviceId = t.hashIds.decode('device', hashId) ?? 0;
    const rows = async () => (await t.database.db('device_reports').where('device_id', deviceId).select('type', 'body')) as ReportRow[];
    await until('the battery reported', async () => (await rows()).some((row) => row.type === 'batteryPower'), 30_000);

    site.meter.frequency = 49.9;
    const ops = await t.signIn(['gridport.ops']);
    const now = Date.now();
    const schedule = [
      {
        startAt: new Date(now - minute).toISOString(),
        endAt: new Date(now + 30 * minute).toISOString(),
        command: { type: 'setBatteryOperation', dispatchPower: 10_000, deliverFCR: true, chargeToState: null },
      },
    ];
    const sent = await t.call('POST', `/console-admin/v1/device/${hashId}/send-message`, ops, {
      message: { type: 'setAssetSchedule', assetIndex: 1, schedule },
    });
    expect(sent.statusCode).toBe(201);
    await until('the battery delivers dispatch plus FCR at 49.9 Hz', () => battery.setpoint === 30_000, 30_000);

    site.meter.frequency = 50.1;
    await until('the battery delivers dispatch less FCR at 50.1 Hz', () => battery.setpoint === -10_000, 30_000);
    site.meter.frequency = 50;
    await until('the battery is back at its dispatch at 50 Hz', () => battery.setpoint === 10_000, 30_000);
    expect((await rows()).filter((row) => row.type === 'error')).toEqual([]);
  }, 120_000);
});
