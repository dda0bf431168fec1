import { createSigner } from 'fast-jwt';
import { systemActor } from '../../common/context';
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
});
