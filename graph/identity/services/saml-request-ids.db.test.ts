import { testDatabase, type TestDatabase } from '../../../test-support/database';
import { SamlRequestIds } from './saml.service';

describe('SAML request ids in the database', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await testDatabase();
  });

  afterAll(async () => {
    await database.close();
  });

  it('are shared by every node: one saves the id, another finds and removes it, and then nobody finds it', async () => {
    const [here, there] = [new SamlRequestIds(database.db), new SamlRequestIds(database.db)];
    const saved = await here.saveAsync('_request-1', '2026-11-22T00:00:00Z');
    expect(saved?.value).toBe('2026-11-22T00:00:00Z');
    expect(await there.getAsync('_request-1')).toBe('2026-11-22T00:00:00Z');
    expect(await there.removeAsync('_request-1')).toBe('2026-11-22T00:00:00Z');
    expect(await here.getAsync('_request-1')).toBeNull();
    expect(await here.removeAsync('_request-1')).toBeNull();
    expect(await here.removeAsync(null)).toBeNull();
  });

  it('refuse an id saved twice', async () => {
    const ids = new SamlRequestIds(database.db);
    expect(await ids.saveAsync('_request-2', 'first')).not.toBeNull();
    expect(await ids.saveAsync('_request-2', 'second')).toBeNull();
    expect(await ids.getAsync('_request-2')).toBe('first');
  });

  it('forget an id after ten minutes, and sweep old ones when saving', async () => {
    const ids = new SamlRequestIds(database.db);
    await ids.saveAsync('_request-old', 'old');
    await database
      .db('saml_requests')
      .where('id', '_request-old')
      .update({ created_at: new Date(Date.now() - 11 * 60_000) });
    expect(await ids.getAsync('_request-old')).toBeNull();
    await ids.saveAsync('_request-new', 'new');
    expect(await database.db('saml_requests').where('id', '_request-old').first()).toBeUndefined();
  });
});
