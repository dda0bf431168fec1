import { GridportError } from '../../../contracts/errors';
import { limits } from '../../../contracts/limits';
import { systemActor, type Actor } from '../../common/context';
import { HashIds } from '../../common/hash-ids';
import { createServices, type Services } from '../../services';
import { testSecrets } from '../../../test-support/app';
import { testDatabase, type TestDatabase } from '../../../test-support/database';

describe('the dangerous-action allowance', () => {
  let database: TestDatabase;
  let services: Services;
  let hashIds: HashIds;
  let users = 0;

  beforeAll(async () => {
    database = await testDatabase();
    hashIds = new HashIds(testSecrets.hashIdSecret);
    services = createServices({ db: database.db, hashIds, ...testSecrets });
  });

  afterAll(async () => {
    await database.close();
  });

  async function operator(): Promise<Actor> {
    users += 1;
    const user = await services.users.create(systemActor('test'), {
      organizationHashId: hashIds.encode('organization', 1),
      name: `Operator ${users}`,
      email: `operator${users}@example.com`,
      rights: ['gridport.ops'],
    });
    return { kind: 'user', userId: hashIds.decode('user', user.hashId), apiKeyId: null, organizationId: 1, rights: ['gridport.ops'], name: user.name };
  }

  const spend = (actor: Actor, watts: number) => database.db.transaction((trx) => services.dangerousActions.spend(trx, actor, watts, 'schedule'));

  it('return the remaining allowance after each action, and refuse one that would exceed it with 429', async () => {
    const actor = await operator();
    await expect(spend(actor, 1_500_000)).resolves.toEqual({ remainingAllowance: 3_500_000 });
    await expect(spend(actor, 3_000_000)).resolves.toEqual({ remainingAllowance: 500_000 });
    const refused = await spend(actor, 600_000).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GridportError);
    expect((refused as GridportError).status).toBe(429);
    expect((refused as GridportError).toBody()).toEqual({
      key: 'rate_limit_exceeded_for_dangerous_actions',
      details: { remaining: 500_000, requested: 600_000 },
    });
    await expect(spend(actor, 500_000)).resolves.toEqual({ remainingAllowance: 0 });
    await expect(services.dangerousActions.remaining(database.db, actor.userId ?? 0)).resolves.toBe(0);
  });

  it('count only the rolling 24 hours', async () => {
    const actor = await operator();
    const dayAgo = new Date(Date.now() - 24 * 60 * 60 * 1000 - 60_000);
    await database
      .db('dangerous_actions')
      .insert({ user_id: actor.userId, watts: limits.dangerousActionAllowanceWatts, action: 'schedule', created_at: dayAgo });
    await expect(spend(actor, 1_000_000)).resolves.toEqual({ remainingAllowance: 4_000_000 });
  });

  it('keep allowances per user', async () => {
    const first = await operator();
    const second = await operator();
    await spend(first, limits.dangerousActionAllowanceWatts);
    await expect(spend(second, 1)).resolves.toEqual({ remainingAllowance: limits.dangerousActionAllowanceWatts - 1 });
  });

  it("record nothing when the caller's transaction rolls back", async () => {
    const actor = await operator();
    await expect(
      database.db.transaction(async (trx) => {
        await services.dangerousActions.spend(trx, actor, 4_000_000, 'schedule');
        throw new Error('the device write failed');
      }),
    ).rejects.toThrow('the device write failed');
    await expect(spend(actor, 5_000_000)).resolves.toEqual({ remainingAllowance: 0 });
  });

  it('let exactly one of two concurrent spends through when together they exceed the allowance', async () => {
    const actor = await operator();
    const slowSpend = () =>
      database.db.transaction(async (trx) => {
        const spent = await services.dangerousActions.spend(trx, actor, 3_000_000, 'schedule');
        // Hold the transaction open, as a device write would, so the other spend has to wait.
        await new Promise((resolve) => setTimeout(resolve, 150));
        return spent;
      });
    const outcomes = await Promise.allSettled([slowSpend(), slowSpend()]);
    const fulfilled = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const rejected = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect((rejected[0]?.reason as GridportError).toBody()).toEqual({
      key: 'rate_limit_exceeded_for_dangerous_actions',
      details: { remaining: 2_000_000, requested: 3_000_000 },
    });
    const rows = await database.db('dangerous_actions').where('user_id', actor.userId);
    expect(rows).toHaveLength(1);
  });

  it('refuse an API key without a user with 400 dangerous_action_requires_user_id', async () => {
    const key: Actor = { kind: 'apiKey', userId: null, apiKeyId: 1, organizationId: 1, rights: ['gridport.developer'], name: 'API key' };
    const refused = await spend(key, 1).catch((error: unknown) => error);
    expect((refused as GridportError).status).toBe(400);
    expect((refused as GridportError).toBody()).toEqual({ key: 'dangerous_action_requires_user_id', details: { action: 'schedule' } });
  });
});
