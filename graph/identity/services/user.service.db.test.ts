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

describe('a user changed by an admin', () => {
  let database: TestDatabase;
  let services: Services;
  let north: { id: number; hashId: string };
  let south: { id: number; hashId: string };

  beforeAll(async () => {
    database = await testDatabase();
    services = createServices({ db: database.db, hashIds: new HashIds(testSecrets.hashIdSecret), ...testSecrets });
    north = await buildOrganization(services, { name: 'North' });
    south = await buildOrganization(services, { name: 'South' });
  });

  afterAll(async () => {
    await database.close();
  });

  const ops = staffActor(['gridport.ops']);
  const admin = staffActor(['gridport.admin']);
  const customer = () => buildUser(services, { organizationHashId: north.hashId, rights: ['customer.read'] });

  it('gets a new name, email, rights and organisation from Ops, written to the audit log', async () => {
    const user = await customer();
    const changed = await services.users.update(ops, user.hashId, {
      name: 'Noor Visser',
      email: 'noor.visser@example.com',
      rights: ['customer.write'],
      organizationHashId: south.hashId,
    });
    expect(changed).toMatchObject({
      name: 'Noor Visser',
      email: 'noor.visser@example.com',
      rights: ['customer.read', 'customer.write'],
      organization: { hashId: south.hashId, name: 'South' },
    });
    const history = await services.auditLog.list(admin, { objectType: 'users', objectHashId: user.hashId, rowsPerPage: 50 });
    const update = history.rows.find((row) => row.changeType === 'controllerUpdate');
    expect(update?.diff).toEqual([
      { type: 'string', name: 'name', oldValue: user.name, newValue: 'Noor Visser' },
      { type: 'string', name: 'email', oldValue: user.email, newValue: 'noor.visser@example.com' },
      { type: 'json', name: 'rights', oldValue: ['customer.read'], newValue: ['customer.read', 'customer.write'] },
      { type: 'id', name: 'organizationHashId', oldValue: north.hashId, newValue: south.hashId },
    ]);
  });

  it('moved to another organisation is signed out everywhere; a rename keeps the sessions', async () => {
    const user = await customer();
    const session = await services.sessions.mint(user.id, 'test');
    await services.users.update(ops, user.hashId, { name: 'Still signed in' });
    await expect(services.sessions.authenticate(session.token)).resolves.toMatchObject({ userId: user.id });
    await services.users.update(ops, user.hashId, { organizationHashId: south.hashId });
    await expect(services.sessions.authenticate(session.token)).resolves.toMatchObject({ kind: 'anonymous', rejection: 'unauthorized' });
  });

  it('refuses an email another user holds, whatever its case, with user_exists', async () => {
    const taken = await customer();
    const user = await customer();
    await expect(services.users.update(ops, user.hashId, { email: taken.email.toUpperCase() })).rejects.toMatchObject({
      key: 'user_exists',
      details: { email: taken.email.toUpperCase() },
    });
    await expect(services.users.update(ops, user.hashId, { email: user.email.toUpperCase() })).resolves.toMatchObject({ email: user.email.toUpperCase() });
  });

  it('refuses rights that do not fit the organisation with payload_invalid', async () => {
    const user = await customer();
    await expect(services.users.update(admin, user.hashId, { rights: ['gridport.ops'] })).rejects.toMatchObject({
      key: 'payload_invalid',
      details: [{ path: 'rights', message: 'Customer users hold customer rights only, not gridport.ops' }],
    });
  });

  it('leaves staff users and staff rights to Admin', async () => {
    const staffUser = await buildUser(services, { rights: ['gridport.employee'] });
    await expect(services.users.update(ops, staffUser.hashId, { name: 'Renamed' })).rejects.toMatchObject({
      key: 'forbidden',
      details: { reason: 'changing a staff user needs the admin right' },
    });
    await expect(services.users.update(admin, staffUser.hashId, { rights: ['gridport.ops'] })).resolves.toMatchObject({ rights: ['gridport.ops'] });
  });

  it('refuses anyone changing their own rights, Admin included; their own name is theirs to change', async () => {
    const self = await buildUser(services, { rights: ['gridport.admin'] });
    const actor = { ...admin, userId: self.id };
    await expect(services.users.update(actor, self.hashId, { rights: ['gridport.employee'] })).rejects.toMatchObject({
      key: 'forbidden',
      details: { reason: 'nobody changes their own rights' },
    });
    await expect(services.users.update(actor, self.hashId, { name: 'Ada Admin' })).resolves.toMatchObject({ name: 'Ada Admin' });
  });

  it('is forbidden to employees and customers, and not_found for a hash id of another type', async () => {
    const user = await customer();
    await expect(services.users.update(staffActor(['gridport.employee']), user.hashId, { name: 'x' })).rejects.toMatchObject({ key: 'forbidden' });
    await expect(services.users.update(customerActor(north.id, ['customer.write']), user.hashId, { name: 'x' })).rejects.toMatchObject({
      key: 'forbidden',
    });
    await expect(services.users.update(ops, north.hashId, { name: 'x' })).rejects.toMatchObject({ key: 'not_found' });
    await expect(services.users.update(ops, user.hashId, { organizationHashId: user.hashId })).rejects.toMatchObject({ key: 'not_found' });
  });
});
