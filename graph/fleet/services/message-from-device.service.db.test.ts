import pino from 'pino';
import type { StoredReport } from '../../../contracts/hub/reports';
import { testDatabase, type TestDatabase } from '../../../test-support/database';
import { insertDeviceRow } from '../../../test-support/factories';
import { MessageFromDeviceService } from './message-from-device.service';

/** messageFromDevice audit entries, written behind the report path (docs/operations.md, "Monitors and alarms"). */
describe('messages from devices', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await testDatabase();
  });

  afterAll(async () => {
    await database.close();
  });

  const report = (deviceId: number, type: string, n: number): StoredReport => ({
    deviceId,
    reportId: `r${n}`,
    type,
    at: new Date(Date.now() - 1000 + n).toISOString(),
    assetIndex: null,
    controllerIndex: null,
    body: { type, observations: { n } },
  });
  const entriesOf = (deviceId: number) =>
    database.db('audit_log').where({ object_type: 'devices', object_id: deviceId, change_type: 'messageFromDevice' }).orderBy('id') as Promise<
      { transaction_identifier: string; diff: { name: string; newValue: { observations?: { n: number } } }[] }[]
    >;

  it('keeps only error and alarm reports, and writes what arrives together in one transaction, in order', async () => {
    const deviceId = await insertDeviceRow(database.db);
    const other = await insertDeviceRow(database.db);
    const service = new MessageFromDeviceService(database.db, pino({ level: 'silent' }));
    service.reportsStored([report(deviceId, 'meterPower', 1), report(deviceId, 'error', 2), report(other, 'alarm', 3), report(deviceId, 'config', 4)]);
    for (let n = 0; n < 50; n += 1) {
      service.errorEnvelope(deviceId, { id: `err-${n}`, payload: { key: 'payload_invalid', message: `frame ${n}` } });
    }
    service.reportsStored([report(deviceId, 'alarm', 5)]);
    await service.idle();

    const entries = await entriesOf(deviceId);
    expect(entries.map((entry) => entry.diff[0]?.name)).toEqual(['error', ...Array.from({ length: 50 }, () => 'errorEnvelope'), 'alarm']);
    expect(new Set(entries.map((entry) => entry.transaction_identifier)).size).toBe(1);
    expect((await entriesOf(other)).map((entry) => entry.diff[0]?.newValue.observations?.n)).toEqual([3]);
  });

  it('skips a device that is gone and audits the others of the batch', async () => {
    const deviceId = await insertDeviceRow(database.db);
    const service = new MessageFromDeviceService(database.db, pino({ level: 'silent' }));
    service.reportsStored([report(-1, 'error', 1), report(deviceId, 'error', 2)]);
    await service.idle();
    expect(await entriesOf(deviceId)).toHaveLength(1);
  });
});
