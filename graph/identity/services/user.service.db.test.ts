import { userListHashIdsMax, userListQuerySchema } from '../../../contracts/user';
import { validate } from '../../../contracts/validation';
import { HashIds } from '../../common/hash-ids';
import { createServices, type Services } from '../../services';
import { testSecrets } from '../../../test-support/app';
import { testDatabase, type TestDatabase } from '../../../test-support/database';
import { buildOrganization, buildUser } from '../../../test-support/factories';
import { customerActor, staffActor } from '../../../test-support/graphql';

describe('users listed by hash id', () => {
  let database: TestDatabase;
  let services: Services;
  let north: { id: number; hashId: string };
  let noor: string;
  let daan: string;
  let sanne: string;
  let staff: string;

  beforeAll(async () => {
    database = await testDatabase();
    services = createServices({ db: database.db, hashIds: new HashIds(testSecrets.hashIdSecret), ...testSecrets });
    north = await buildOrganization(services, { name: 'North' });
    const south = await buildOrganization(services, { name: 'South' });
    noor = (await buildUser(services, { organizationHashId: north.hashId, name: 'Noor', rights: ['customer.read'] })).hashId;
    daan = (await buildUser(services, { organizationHashId: north.hashId, name: 'Daan', rights: ['customer.write'] })).hashId;
    sanne = (await buildUser(services, { organizationHashId: south.hashId, name: 'Sanne', rights: ['customer.read'] })).hashId;
    staff = (await buildUser(services, { name: 'Olivia Ops' })).hashId;
  });

  afterAll(async () => {
    await database.close();
  });

  const query = (hashIds: unknown) => validate(userListQuerySchema, { hashIds }, 'query_invalid');
  const names = (page: { rows: { name: string }[] }) => page.rows.map((row) => row.name).sort();

  it('answers staff exactly the users named, across organisations, leaving out hash ids that name nobody', async () => {
    const unknown = services.hashIds.encode('user', 999_999);
    const page = await services.users.list(staffActor(['gridport.employee']), query([noor, sanne, staff, unknown, 'not-a-hash-id', north.hashId]));
    expect(names(page)).toEqual(['Noor', 'Olivia Ops', 'Sanne']);
    expect(page.nextPageOffset).toBeNull();
  });

  it("answers a customer only the named users of their own organisation: another's and staff are left out", async () => {
    const page = await services.users.list(customerActor(north.id, ['customer.read']), query([noor, daan, sanne, staff]));
    expect(names(page)).toEqual(['Daan', 'Noor']);
  });

  it('answers an empty page when no hash id names a user, never the whole list', async () => {
    const page = await services.users.list(staffActor(['gridport.employee']), query(['nobody', "x' or '1'='1"]));
    expect(page.rows).toEqual([]);
  });

  it('takes one hash id given as text (a query string parameter given once)', async () => {
    expect(names(await services.users.list(staffActor(['gridport.employee']), query(noor)))).toEqual(['Noor']);
  });

  it(`refuses more than ${userListHashIdsMax} hash ids, or one longer than 64 characters, with query_invalid`, () => {
    const many = Array.from({ length: userListHashIdsMax + 1 }, (_, index) => `u${index}`);
    expect(() => query(many)).toThrow(
      expect.objectContaining({ key: 'query_invalid', details: [{ path: 'hashIds', message: 'hashIds field must have less than or equal to 100 items' }] }),
    );
    expect(() => query(['x'.repeat(65)])).toThrow(
      expect.objectContaining({ key: 'query_invalid', details: [{ path: 'hashIds[0]', message: 'hashIds[0] must be at most 64 characters' }] }),
    );
  });
});
