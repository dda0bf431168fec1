import { migrateLatest, migrateRollbackAll } from '../server/database';
import { migrations } from '.';
import { testDatabase, type TestDatabase } from '../test-support/database';

describe('migrations', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await testDatabase();
  });

  afterAll(async () => {
    await database.close();
  });

  async function tables(): Promise<string[]> {
    const result = await database.db.select('table_name').from('information_schema.tables').where('table_schema', database.schema).orderBy('table_name');
    return result.map((row: { table_name: string }) => row.table_name);
  }

  it('run every migration up, down and up again', async () => {
    const migrated = await tables();
    expect(migrated).toEqual(
      expect.arrayContaining([
        'organizations',
        'audit_log',
        'users',
        'sessions',
        'api_keys',
        'contacts',
        'dangerous_actions',
        'user_invites',
        'saml_requests',
        'device_groups',
        'devices',
        'device_components',
        'device_schedules',
        'partnerships',
        'partnership_devices',
        'device_outbox',
        'certificate_authorities',
        'device_reports',
        'report_minutes',
        'report_hours',
        'report_rollup_progress',
      ]),
    );

    const reverted = await migrateRollbackAll(database.db, database.schema);
    expect(reverted).toHaveLength(migrations.length);
    expect((await tables()).filter((name) => !name.startsWith('knex_'))).toEqual([]);

    const applied = await migrateLatest(database.db, database.schema);
    expect(applied).toEqual(migrations.map(([name]) => name));
    expect(await tables()).toEqual(migrated);
  });

  it('create the provider organisation with id 1', async () => {
    const provider = await database.db('organizations').where({ id: 1 }).first();
    expect(provider).toMatchObject({ id: 1, name: 'Gridport', type: null });
  });

  it('refuse an organisation type outside the four', async () => {
    await expect(database.db('organizations').insert({ name: 'X', type: 'utility' })).rejects.toThrow(/organizations_type_check/);
  });
});
