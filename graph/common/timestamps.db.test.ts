import { testDatabase, type TestDatabase } from '../../test-support/database';

/**
 * The timestamptz parser as registered (server/database.ts): what the driver hands back for
 * PostgreSQL's own text, in sessions of zones with whole-hour, half-hour and second offsets.
 */
describe('timestamps read from the database', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await testDatabase();
  });

  afterAll(async () => {
    await database.close();
  });

  const instants = [
    '2026-11-28 17:03:04.123456+00',
    '2026-11-28 17:03:04.999999+00',
    '1970-01-01 00:00:00+00',
    '1969-12-31 23:59:59.9995+00',
    '2000-02-29 12:00:00.5+00',
    '1900-01-01 00:00:00.001+00',
    '0099-06-01 12:00:00+00',
    '9999-12-31 23:59:59.999999+00',
    '12026-01-01 00:00:00+00',
  ];

  it.each(['UTC', 'Asia/Kolkata', 'America/St_Johns', 'Pacific/Kiritimati', 'Europe/Amsterdam', 'America/Los_Angeles'])(
    'reads every instant in %s to its millisecond',
    async (zone) => {
      const rows = await database.db.transaction(async (trx) => {
        await trx.raw(`set local timezone = '${zone}'`);
        const result = (await trx.raw(
          `select t, t::text as text, floor(extract(epoch from t) * 1000)::bigint as millis
           from unnest(?::timestamptz[]) with ordinality as x(t, n) order by n`,
          [instants],
        )) as { rows: { t: Date; text: string; millis: number }[] };
        return result.rows;
      });
      expect(rows.map((row) => [row.text, row.t instanceof Date ? row.t.getTime() : row.t])).toEqual(rows.map((row) => [row.text, row.millis]));
    },
  );

  it('reads infinity as the driver always did', async () => {
    const result = (await database.db.raw(`select 'infinity'::timestamptz as later, '-infinity'::timestamptz as earlier`)) as {
      rows: { later: unknown; earlier: unknown }[];
    };
    expect(result.rows[0]).toEqual({ later: Infinity, earlier: -Infinity });
  });
});
