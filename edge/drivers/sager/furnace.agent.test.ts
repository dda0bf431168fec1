import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { systemActor } from '../../../graph/common/context';
import { version } from '../../../server/version';
import { anOrganization } from '../../../test-support/factories';
import { testApp, type TestApp } from '../../../test-support/app';
import { until } from '../../../test-support/until';
import type { Agent } from '../../agent/agent';
import { defaultAgentParts } from '../../agent/parts';
import { startEdgeAgent } from '../../agent/run';
import { startFurnaceSimulator, type FurnaceSimulator } from './furnace-simulator';

interface ReportRow {
  type: string;
  asset_index: number | null;
  body: { observations: Record<string, unknown> };
}

const hour = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The cloud's setAssetParameters for a Sager furnace, end to end: sent through the console's
 * send-message route, carried by the hub to the real agent, written by the furnace driver into
 * the furnace simulator over Modbus TCP, answered with executedAssetParameters and echoed by the
 * furnace's thermalPower report; an invalid schedule is refused by the route with payload_invalid.
 */
describe('sagerFurnace parameters from the cloud to the furnace', () => {
  let t: TestApp;
  let stateDirectory: string;
  let furnace: FurnaceSimulator;
  let agent: Agent | undefined;

  beforeAll(async () => {
    t = await testApp({}, { hub: true });
    stateDirectory = mkdtempSync(path.join(tmpdir(), 'gridport-furnace-'));
    furnace = await startFurnaceSimulator({ heaterPower: 60_000, capacityWh: 400_000, storedWh: 100_000, clock: Date.now });
  }, 120_000);

  afterAll(async () => {
    await agent?.stop();
    await furnace?.close();
    await t?.close();
    rmSync(stateDirectory, { recursive: true, force: true });
  }, 60_000);

  it('reaches the furnace, is answered with executedAssetParameters and echoed by the report; 12 entries are refused with payload_invalid', async () => {
    const organization = await anOrganization(t.services);
    const actor = systemActor('test');
    const { hashId, provisioningToken } = await t.services.devices.ship(actor, { organizationHashId: organization.hashId, name: 'Furnace site' });
    const assets = [{ type: 'sager-furnace', identifier: 'furnace', communication: furnace.connection(), nominalActivePower: 60_000, capacity: 400_000 }];
    await t.services.devices.update(actor, hashId, {
      config: { network: { eth0: { type: 'dhcp' }, eth1: null }, reportingIntervalInSec: 4, assets, activeControl: [] },
    });
    const baseUrl = await t.listen();
    agent = await startEdgeAgent({
      hub: baseUrl,
      token: provisioningToken,
      identifier: 'furnace-site',
      stateDirectory,
      log: () => undefined,
      version,
      parts: defaultAgentParts,
    });
    const deviceId = t.hashIds.decode('device', hashId) ?? 0;
    const rows = async () => (await t.database.db('device_reports').where('device_id', deviceId).select('type', 'asset_index', 'body')) as ReportRow[];
    await until('the furnace reported', async () => (await rows()).some((row) => row.type === 'thermalPower'), 30_000);

    const ops = await t.signIn(['gridport.ops']);
    const now = Date.now();
    const schedule = [
      { charge: 75, startAt: iso(now - hour), endAt: iso(now + hour) },
      { charge: 30, startAt: iso(now + 2 * hour), endAt: iso(now + 3 * hour) },
    ].map((entry) => ({ ...entry, startAt: entry.startAt.replace(/\.\d{3}Z$/, '.000Z'), endAt: entry.endAt.replace(/\.\d{3}Z$/, '.000Z') }));
    const message = { type: 'setAssetParameters', assetIndex: 0, parameters: { type: 'sagerFurnace', schedule } };
    const sent = await t.call('POST', `/console-admin/v1/device/${hashId}/send-message`, ops, { message });
    expect(sent.statusCode).toBe(201);
    const messageId = (sent.json() as { messageId: string }).messageId;

    const answered = async () => (await rows()).filter((row) => row.body.observations.messageId === messageId);
    await until('the agent answered', async () => (await answered()).some((row) => row.type === 'executedAssetParameters'), 30_000);
    expect((await answered()).map((row) => row.type).sort()).toEqual(['ack', 'executedAssetParameters']);
    expect((await answered()).find((row) => row.type === 'executedAssetParameters')).toMatchObject({
      asset_index: 0,
      body: { observations: { messageId, parameters: { type: 'sagerFurnace', schedule } } },
    });
    expect(furnace.schedule()).toEqual(schedule);
    // The furnace charges by the first entry, and its next report holds the schedule as the furnace does.
    furnace.advance(60);
    expect(furnace.heaterDraw).toBe(45_000);
    // The hub stores times as it received them or in its own ISO form: compared as instants.
    const instants = (entries: unknown) =>
      JSON.stringify(
        ((entries ?? []) as { charge: number; startAt: string; endAt: string }[]).map((entry) => [
          entry.charge,
          Date.parse(entry.startAt),
          Date.parse(entry.endAt),
        ]),
      );
    const echoed = (row: ReportRow) => row.type === 'thermalPower' && instants(row.body.observations.schedule) === instants(schedule);
    await until('a report echoes the schedule', async () => (await rows()).some(echoed), 30_000).catch(async (error: unknown) => {
      const last = (await rows()).filter((row) => row.type === 'thermalPower').at(-1);
      throw new Error(`${String(error)}; the last thermalPower report: ${JSON.stringify(last?.body.observations)}`);
    });
    expect((await rows()).filter((row) => row.type === 'error')).toEqual([]);

    const tooMany = { ...message, parameters: { type: 'sagerFurnace', schedule: Array.from({ length: 12 }, () => schedule[0]) } };
    const refused = await t.call('POST', `/console-admin/v1/device/${hashId}/send-message`, ops, { message: tooMany });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ key: 'payload_invalid' });
  }, 90_000);
});
