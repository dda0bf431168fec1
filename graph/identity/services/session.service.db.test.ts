import { createSigner } from 'fast-jwt';
import { anonymousActor, systemActor } from '../../common/context';
import { HashIds } from '../../common/hash-ids';
import { createServices, type Services } from '../../services';
import { testSecrets } from '../../../test-support/app';
import { testDatabase, type TestDatabase } from '../../../test-support/database';

describe('console sessions', () => {
  let database: TestDatabase;
  let services: Services;
  let hashIds: HashIds;
  const sign = createSigner({ key: testSecrets.sessionSecret, algorithm: 'HS256', expiresIn: 60_000 });

  beforeAll(async () => {
    database = await testDatabase();
    hashIds = new HashIds(testSecrets.hashIdSecret);
    services = createServices({ db: database.db, hashIds, ...testSecrets });
  });

  afterAll(async () => {
    await database.close();
  });

  async function aUser(email: string): Promise<number> {
    const user = await services.users.create(systemActor('test'), {
      organizationHashId: hashIds.encode('organization', 1),
      name: email,
      email,
      rights: ['gridport.ops'],
    });
    const id = hashIds.decode('user', user.hashId);
    if (id === null) {
      throw new Error(`the user's hash id ${user.hashId} does not decode`);
    }
    return id;
  }

  it('resolve a minted token to its own user', async () => {
    const userId = await aUser('owner@example.com');
    const session = await services.sessions.mint(userId, 'test');
    await expect(services.sessions.authenticate(session.token)).resolves.toMatchObject({ kind: 'user', userId });
  });

  it('refuse a token whose user claim is not the user of the session it names, with unauthorized', async () => {
    const ownerId = await aUser('first@example.com');
    const otherId = await aUser('second@example.com');
    const session = await services.sessions.mint(ownerId, 'test');
    const sessionId = hashIds.decode('session', session.sessionHashId);
    const crossed = sign({ sid: sessionId, sub: hashIds.encode('user', otherId) });
    await expect(services.sessions.authenticate(crossed)).resolves.toMatchObject({ kind: 'anonymous', rejection: 'unauthorized' });
    const withoutUser = sign({ sid: sessionId });
    await expect(services.sessions.authenticate(withoutUser)).resolves.toMatchObject({ kind: 'anonymous', rejection: 'unauthorized' });
  });

  it('read on each request only the session and what an actor needs of its user, in one query', async () => {
    const userId = await aUser('lookup@example.com');
    await database
      .db('users')
      .where('id', userId)
      .update({ password_hash: 'not-to-be-read', recovery_code_hashes: JSON.stringify(['not-to-be-read']) });
    const session = await services.sessions.mint(userId, 'test');
    const sessionId = hashIds.decode('session', session.sessionHashId);
    const queries: string[] = [];
    const record = (query: { sql: string }) => {
      queries.push(query.sql);
    };
    database.db.on('query', record);
    try {
      await expect(services.sessions.authenticate(session.token)).resolves.toEqual({
        kind: 'user',
        userId,
        apiKeyId: null,
        organizationId: 1,
        rights: ['gridport.ops'],
        name: 'lookup@example.com',
        sessionId,
      });
    } finally {
      database.db.off('query', record);
    }
    expect(queries).toEqual([
      'select "sessions"."id", "sessions"."user_id", "sessions"."expires_at", "sessions"."revoked_at", "users"."organization_id", "users"."rights", "users"."name" from "sessions" inner join "users" on "users"."id" = "sessions"."user_id" where "sessions"."id" = $1 limit $2',
    ]);
  });

  it('refuse a revoked session with unauthorized and a lapsed one with jwt_expired', async () => {
    const userId = await aUser('ended@example.com');
    const revoked = await services.sessions.mint(userId, 'test');
    await database.db('sessions').where('id', hashIds.decode('session', revoked.sessionHashId)).update({ revoked_at: new Date() });
    await expect(services.sessions.authenticate(revoked.token)).resolves.toEqual({ ...anonymousActor, rejection: 'unauthorized' });
    const lapsed = await services.sessions.mint(userId, 'test');
    await database
      .db('sessions')
      .where('id', hashIds.decode('session', lapsed.sessionHashId))
      .update({ expires_at: new Date(Date.now() - 1000) });
    await expect(services.sessions.authenticate(lapsed.token)).resolves.toEqual({ ...anonymousActor, rejection: 'jwt_expired' });
  });
});
