import { testDatabase, type TestDatabase } from '../../../test-support/database';
import { insertDeviceRow } from '../../../test-support/factories';
import { comparePositions, positionBefore, streamHead } from './forwarding-stream';

/**
 * Positions in the stream compare as numbers (xid8, bigint), never as text: a destination made
 * once transaction ids reach four digits starts at the newest report, not at one with a
 * three-digit id (it used to start at 954 with 1010 stored, and got reports older than itself).
 */
describe('forwarding stream positions', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await testDatabase();
  });

  afterAll(async () => {
    await database.close();
  });

  it('finds the head and replay positions by number when transaction ids differ in digits', async () => {
    const deviceId = await insertDeviceRow(database.db, {});
    const base = Date.now() - 60_000;
    const rows = [
      { tx: '954', seq: 40 },
      { tx: '1010', seq: 48 },
      { tx: '99', seq: 2 },
    ].map(({ tx, seq }, index) => ({
      device_id: deviceId,
      report_id: `r${index}`,
      type: 'meterPower',
      at: new Date(base + index),
      asset_index: 0,
      body: JSON.stringify({ type: 'meterPower', observations: {} }),
      tx,
      seq,
    }));
    await database.db('device_reports').insert(rows);

    expect(await streamHead(database.db)).toEqual({ tx: '1010', seq: '48' });
    expect(await positionBefore(database.db, 41)).toEqual({ tx: '1010', seq: '47' });
    expect(comparePositions({ tx: '954', seq: '40' }, { tx: '1010', seq: '1' })).toBe(-1);
    expect(comparePositions({ tx: '1010', seq: '48' }, { tx: '1010', seq: '48' })).toBe(0);
  });
});
