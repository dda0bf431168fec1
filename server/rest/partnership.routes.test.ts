import { exampleDeviceConfig } from '../../contracts/device';
import type { PartnershipView } from '../../contracts/partnership';
import type { Actor } from '../../graph/common/context';
import { testApp, type TestApp } from '../../test-support/app';
import { anOrganization, buildApiKey, buildDevice } from '../../test-support/factories';

type Json = Record<string, unknown>;
type Page = { rows: PartnershipView[]; nextPageOffset: string | null };

const admin = '/console-admin/v1/partnership';
const customer = '/console/v1/partnership';

describe('partnerships', () => {
  let t: TestApp;
  let ownerHashId: string;
  let partnerHashId: string;
  let thirdHashId: string;
  let partnerId: number;
  let ops: string;
  let developer: string;
  let employee: string;
  let sales: string;
  let ownerUser: string;
  let partnerUser: string;
  let thirdUser: string;

  beforeAll(async () => {
    t = await testApp();
    ownerHashId = (await anOrganization(t.services, { name: 'Sharing Owner BV' })).hashId;
    partnerHashId = (await anOrganization(t.services, { name: 'Sharing Partner BV' })).hashId;
    thirdHashId = (await anOrganization(t.services, { name: 'Sharing Third BV' })).hashId;
    partnerId = t.hashIds.decode('organization', partnerHashId) ?? 0;
    [ops, developer, employee, sales, ownerUser, partnerUser, thirdUser] = await Promise.all([
      t.signIn(['gridport.ops']),
      t.signIn(['gridport.developer']),
      t.signIn(['gridport.employee']),
      t.signIn(['gridport.sales']),
      t.signIn(['customer.write'], ownerHashId),
      t.signIn(['customer.write'], partnerHashId),
      t.signIn(['customer.read'], thirdHashId),
    ]);
  });

  afterAll(async () => {
    await t.close();
  });

  /** A device of the organisation; exposed to customers (with the example config) unless told otherwise. */
  async function aDevice(organizationHashId: string, exposed = true): Promise<string> {
    return (await buildDevice(t.services, { organizationHashId, ...(exposed ? { config: exampleDeviceConfig, isExposedToCustomer: true } : {}) })).hashId;
  }

  /** The hash ids of the devices a customer session lists. */
  async function visibleDevices(cookie: string): Promise<string[]> {
    const response = await t.call('GET', '/console/v1/device?rowsPerPage=500', cookie);
    expect(response.statusCode).toBe(200);
    return (response.json() as { rows: { hashId: string }[] }).rows.map((row) => row.hashId).sort();
  }

  /** The hash ids of the devices an actor may steer, through the service. */
  async function steerable(actor: Actor): Promise<string[]> {
    const rows = await t.services.devices.accessible(actor, 'write');
    return rows.map((row) => t.hashIds.encode('device', row.id)).sort();
  }

  async function create(payload: Json, cookie = ops): Promise<PartnershipView> {
    const response = await t.call('POST', admin, cookie, payload);
    expect(response.statusCode).toBe(201);
    return response.json() as PartnershipView;
  }

  async function audit(hashId: string) {
    return t.database
      .db('audit_log')
      .where({ object_type: 'partnerships', object_id: t.hashIds.decode('partnership', hashId) })
      .orderBy('id');
  }

  describe('what a partner sees and steers', () => {
    let listed: string;
    let unlisted: string;
    let hidden: string;
    let thirds: string;
    let partnersOwn: string;
    const partnerActor = (): Actor => ({ kind: 'user', userId: null, apiKeyId: null, organizationId: partnerId, rights: ['customer.write'], name: 'partner' });

    beforeAll(async () => {
      listed = await aDevice(ownerHashId);
      unlisted = await aDevice(ownerHashId);
      hidden = await aDevice(ownerHashId, false);
      thirds = await aDevice(thirdHashId);
      partnersOwn = await aDevice(partnerHashId);
    });

    it('a listed viewer partnership shares exactly the listed devices, to see but not to steer; then all; then none after DELETE', async () => {
      expect(await visibleDevices(partnerUser)).toEqual([partnersOwn]);

      const created = await create({
        ownerOrganizationHashId: ownerHashId,
        partnerOrganizationHashId: partnerHashId,
        role: 'viewer',
        description: 'Maintenance contractor',
        allDevices: false,
        deviceHashIds: [listed],
      });
      expect(created).toEqual({
        hashId: expect.any(String) as string,
        owner: { hashId: ownerHashId, name: 'Sharing Owner BV' },
        partner: { hashId: partnerHashId, name: 'Sharing Partner BV' },
        role: 'viewer',
        description: 'Maintenance contractor',
        allDevices: false,
        deviceCount: 1,
        deviceHashIds: [listed],
      });

      // The list, one device, and acting on it.
      expect(await visibleDevices(partnerUser)).toEqual([listed, partnersOwn].sort());
      const one = await t.call('GET', `/console/v1/device/${listed}`, partnerUser);
      expect(one.statusCode).toBe(200);
      expect(one.json()).toMatchObject({
        hashId: listed,
        partnerships: [
          {
            hashId: created.hashId,
            role: 'viewer',
            description: 'Maintenance contractor',
            allDevices: false,
            owner: { hashId: ownerHashId },
            partner: { hashId: partnerHashId },
          },
        ],
      });
      const contacts = await t.call('PUT', `/console/v1/device/${listed}`, partnerUser, { outageEmails: ['partner-noc@example.com'] });
      expect(contacts.statusCode).toBe(200);
      expect(contacts.json()).toMatchObject({ outageEmails: ['partner-noc@example.com'] });
      for (const other of [unlisted, hidden, thirds]) {
        expect((await t.call('GET', `/console/v1/device/${other}`, partnerUser)).json()).toEqual({ key: 'not_found', details: { deviceHashId: other } });
        expect((await t.call('PUT', `/console/v1/device/${other}`, partnerUser, { outageEmails: ['partner-noc@example.com'] })).statusCode).toBe(404);
      }
      // The owner's and the third organisation's views are unchanged by it.
      expect(await visibleDevices(ownerUser)).toEqual([listed, unlisted].sort());
      expect(await visibleDevices(thirdUser)).toEqual([thirds]);
      expect((await t.call('GET', `/console/v1/device/${listed}`, thirdUser)).statusCode).toBe(404);

      // A viewer steers only its own devices.
      expect(await steerable(partnerActor())).toEqual([partnersOwn]);
      const operator = await t.call('PUT', `${admin}/${created.hashId}`, developer, { role: 'operator' });
      expect(operator.statusCode).toBe(200);
      expect(operator.json()).toMatchObject({ role: 'operator', allDevices: false, deviceHashIds: [listed] });
      expect(await steerable(partnerActor())).toEqual([listed, partnersOwn].sort());

      // Every device of the owner: the exposed ones are seen, the one not exposed to customers stays hidden.
      const all = await t.call('PUT', `${admin}/${created.hashId}`, ops, { allDevices: true });
      expect(all.statusCode).toBe(200);
      expect(all.json()).toMatchObject({ allDevices: true, deviceCount: 3, deviceHashIds: [] });
      expect(await visibleDevices(partnerUser)).toEqual([listed, unlisted, partnersOwn].sort());
      expect((await t.call('GET', `/console/v1/device/${unlisted}`, partnerUser)).statusCode).toBe(200);
      expect((await t.call('PUT', `/console/v1/device/${unlisted}`, partnerUser, { outageEmails: ['partner-noc@example.com'] })).statusCode).toBe(200);
      expect((await t.call('GET', `/console/v1/device/${hidden}`, partnerUser)).statusCode).toBe(404);
      expect((await t.call('GET', `/console/v1/device/${thirds}`, partnerUser)).statusCode).toBe(404);
      expect(await steerable(partnerActor())).toEqual([listed, unlisted, partnersOwn].sort());

      // Back to viewer: nothing shared can be steered any more, everything shared is still seen.
      await t.call('PUT', `${admin}/${created.hashId}`, ops, { role: 'viewer' });
      expect(await steerable(partnerActor())).toEqual([partnersOwn]);
      expect(await visibleDevices(partnerUser)).toEqual([listed, unlisted, partnersOwn].sort());

      // Back to a list, now of the other device: the list replaces what was listed before.
      // A listed device that is not exposed to customers stays hidden from the partner as from the owner's users.
      const relisted = await t.call('PUT', `${admin}/${created.hashId}`, ops, { allDevices: false, deviceHashIds: [unlisted, hidden] });
      expect(relisted.json()).toMatchObject({
        allDevices: false,
        deviceCount: 2,
        deviceHashIds: [unlisted, hidden].sort((a, b) => (t.hashIds.decode('device', a) ?? 0) - (t.hashIds.decode('device', b) ?? 0)),
      });
      expect(await visibleDevices(partnerUser)).toEqual([unlisted, partnersOwn].sort());
      expect((await t.call('GET', `/console/v1/device/${hidden}`, partnerUser)).statusCode).toBe(404);

      const deleted = await t.call('DELETE', `${admin}/${created.hashId}`, ops);
      expect(deleted.statusCode).toBe(204);
      expect(await visibleDevices(partnerUser)).toEqual([partnersOwn]);
      for (const other of [listed, unlisted]) {
        expect((await t.call('GET', `/console/v1/device/${other}`, partnerUser)).statusCode).toBe(404);
        expect((await t.call('PUT', `/console/v1/device/${other}`, partnerUser, { outageEmails: ['partner-noc@example.com'] })).statusCode).toBe(404);
      }
      expect(await steerable(partnerActor())).toEqual([partnersOwn]);
      expect(await t.database.db('partnership_devices').where('partnership_id', t.hashIds.decode('partnership', created.hashId))).toEqual([]);
      expect((await t.call('DELETE', `${admin}/${created.hashId}`, ops)).json()).toEqual({ key: 'not_found', details: { partnershipHashId: created.hashId } });
    });

    it('an operator partnership over all devices lets the partner steer them from the start', async () => {
      const created = await create({
        ownerOrganizationHashId: ownerHashId,
        partnerOrganizationHashId: partnerHashId,
        role: 'operator',
        allDevices: true,
        deviceHashIds: [thirds],
      });
      // The list is not used when every device is shared, so a device of another organisation in it is not looked at.
      expect(created).toMatchObject({ allDevices: true, deviceHashIds: [], description: '' });
      expect(await steerable(partnerActor())).toEqual([listed, unlisted, partnersOwn].sort());
      expect(await steerable({ ...partnerActor(), organizationId: t.hashIds.decode('organization', thirdHashId) ?? 0 })).toEqual([thirds]);
      await t.call('DELETE', `${admin}/${created.hashId}`, ops);
      expect(await steerable(partnerActor())).toEqual([partnersOwn]);
    });

    it('lists the partnerships of a device: those sharing all its owner devices and those listing it', async () => {
      const listing = await create({ ownerOrganizationHashId: ownerHashId, partnerOrganizationHashId: partnerHashId, role: 'viewer', deviceHashIds: [listed] });
      const everything = await create({ ownerOrganizationHashId: ownerHashId, partnerOrganizationHashId: thirdHashId, role: 'operator', allDevices: true });
      const theirs = await create({ ownerOrganizationHashId: thirdHashId, partnerOrganizationHashId: ownerHashId, role: 'viewer', allDevices: true });
      const of = async (device: string) => ((await t.call('GET', `${admin}/device/${device}`, employee)).json() as Page).rows.map((row) => row.hashId);
      expect(await of(listed)).toEqual([everything.hashId, listing.hashId]);
      expect(await of(unlisted)).toEqual([everything.hashId]);
      expect(await of(thirds)).toEqual([theirs.hashId]);
      expect(await of(partnersOwn)).toEqual([]);
      const paged = (await t.call('GET', `${admin}/device/${listed}?rowsPerPage=1`, employee)).json() as Page;
      expect(paged.rows.map((row) => row.hashId)).toEqual([everything.hashId]);
      const next = (await t.call('GET', `${admin}/device/${listed}?rowsPerPage=1&offset=${paged.nextPageOffset ?? ''}`, employee)).json() as Page;
      expect(next).toEqual({ rows: [expect.objectContaining({ hashId: listing.hashId })], nextPageOffset: null });

      // The third organisation sees its shared devices as partner of the owner, never the owner's devices through its own partnership.
      expect(await visibleDevices(thirdUser)).toEqual([listed, unlisted, thirds].sort());
      expect(await visibleDevices(ownerUser)).toEqual([listed, unlisted, thirds].sort());
      expect(await visibleDevices(partnerUser)).toEqual([listed, partnersOwn].sort());

      expect((await t.call('GET', `${admin}/device/${listed}`, ownerUser)).statusCode).toBe(403);
      const unknown = t.hashIds.encode('device', 987654);
      expect((await t.call('GET', `${admin}/device/${unknown}`, employee)).json()).toEqual({ key: 'not_found', details: { deviceHashId: unknown } });
      expect((await t.call('GET', `${admin}/device/${listing.hashId}`, employee)).json()).toEqual({
        key: 'not_found',
        details: { deviceHashId: listing.hashId },
      });
      for (const partnership of [listing, everything, theirs]) {
        expect((await t.call('DELETE', `${admin}/${partnership.hashId}`, developer)).statusCode).toBe(204);
      }
    });
  });

  describe('managing partnerships', () => {
    it('records every write in the audit log with a typed diff', async () => {
      const [first, second] = [await aDevice(ownerHashId), await aDevice(ownerHashId)];
      const created = await create({
        ownerOrganizationHashId: ownerHashId,
        partnerOrganizationHashId: partnerHashId,
        role: 'viewer',
        description: 'Audited',
        deviceHashIds: [first, first],
      });
      expect(created.deviceHashIds).toEqual([first]);
      await t.call('PUT', `${admin}/${created.hashId}`, ops, { description: 'Audited, renamed', deviceHashIds: [second] });
      // An update that changes nothing records nothing.
      await t.call('PUT', `${admin}/${created.hashId}`, ops, { description: 'Audited, renamed' });
      await t.call('DELETE', `${admin}/${created.hashId}`, ops);
      const entries = await audit(created.hashId);
      expect(entries.map((entry: { change_type: string }) => entry.change_type)).toEqual(['controllerCreate', 'controllerUpdate', 'controllerDelete']);
      expect(entries[0].diff).toEqual([
        { type: 'id', name: 'ownerOrganizationHashId', oldValue: null, newValue: ownerHashId },
        { type: 'id', name: 'partnerOrganizationHashId', oldValue: null, newValue: partnerHashId },
        { type: 'string', name: 'role', oldValue: null, newValue: 'viewer' },
        { type: 'string', name: 'description', oldValue: null, newValue: 'Audited' },
        { type: 'boolean', name: 'allDevices', oldValue: null, newValue: false },
        { type: 'link-many', name: 'devices', objectType: 'devices', addedHashIds: [first], removedHashIds: [] },
      ]);
      expect(entries[1].diff).toEqual([
        { type: 'string', name: 'description', oldValue: 'Audited', newValue: 'Audited, renamed' },
        { type: 'link-many', name: 'devices', objectType: 'devices', addedHashIds: [second], removedHashIds: [first] },
      ]);
      expect(entries[2].diff).toEqual(
        expect.arrayContaining([
          { type: 'string', name: 'role', oldValue: 'viewer', newValue: null },
          { type: 'link-many', name: 'devices', objectType: 'devices', addedHashIds: [], removedHashIds: [second] },
        ]),
      );
      expect(entries.map((entry: { organization_id: string | number }) => Number(entry.organization_id))).toEqual(
        Array(3).fill(t.hashIds.decode('organization', ownerHashId)),
      );
      expect(new Set(entries.map((entry: { transaction_identifier: string }) => entry.transaction_identifier)).size).toBe(3);
      const log = await t.call('GET', `/console-admin/v1/audit-log?objectType=partnerships&objectHashId=${created.hashId}`, employee);
      expect(log.statusCode).toBe(200);
      expect((log.json() as { rows: unknown[] }).rows).toHaveLength(3);
    });

    it('refuses a second partnership of the same owner and partner with 409 already_configured, but not the reverse direction', async () => {
      const owner = (await anOrganization(t.services)).hashId;
      const partner = (await anOrganization(t.services)).hashId;
      const first = await create({ ownerOrganizationHashId: owner, partnerOrganizationHashId: partner, role: 'viewer', allDevices: true });
      const again = await t.call('POST', admin, ops, {
        ownerOrganizationHashId: owner,
        partnerOrganizationHashId: partner,
        role: 'operator',
        allDevices: true,
      });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ key: 'already_configured', details: { partnershipHashId: first.hashId } });
      await create({ ownerOrganizationHashId: partner, partnerOrganizationHashId: owner, role: 'viewer', allDevices: true });
    });

    it('refuses a device of another organisation, the owner as partner, and bad fields with payload_invalid and each path', async () => {
      const own = await aDevice(ownerHashId);
      const foreign = await aDevice(thirdHashId);
      const missing = t.hashIds.encode('device', 987654);
      const base = { ownerOrganizationHashId: ownerHashId, partnerOrganizationHashId: thirdHashId, role: 'viewer' };
      const devicesRefused = await t.call('POST', admin, ops, { ...base, deviceHashIds: [own, foreign, missing] });
      expect(devicesRefused.statusCode).toBe(400);
      expect(devicesRefused.json()).toEqual({
        key: 'payload_invalid',
        details: [
          { path: 'deviceHashIds[1]', message: `device ${foreign} is not a device of the owner organisation` },
          { path: 'deviceHashIds[2]', message: `device ${missing} is not a device of the owner organisation` },
        ],
      });
      const self = await t.call('POST', admin, ops, { ...base, partnerOrganizationHashId: ownerHashId });
      expect(self.json()).toEqual({
        key: 'payload_invalid',
        details: [{ path: 'partnerOrganizationHashId', message: 'partnerOrganizationHashId must be another organisation than the owner' }],
      });
      const fields = await t.call('POST', admin, ops, { ...base, role: 'admin', description: 'x'.repeat(256), allDevices: 'sometimes', extra: 1 });
      expect(fields.statusCode).toBe(400);
      const paths = (fields.json() as { key: string; details: { path: string }[] }).details.map((issue) => issue.path).sort();
      expect(fields.json()).toMatchObject({ key: 'payload_invalid' });
      expect(paths).toEqual(expect.arrayContaining(['role', 'description', 'allDevices']));
      expect(paths.some((path) => path === '' || path === 'extra')).toBe(true);
      const empty = await t.call('POST', admin, ops, {});
      expect(empty.json()).toMatchObject({ key: 'payload_invalid' });
      expect((empty.json() as { details: { path: string }[] }).details.map((issue) => issue.path)).toEqual(
        expect.arrayContaining(['ownerOrganizationHashId', 'partnerOrganizationHashId', 'role']),
      );

      // An update checks the list against the owner the same way, and refuses the role admin.
      const created = await create({ ...base, deviceHashIds: [own] });
      const update = await t.call('PUT', `${admin}/${created.hashId}`, ops, { deviceHashIds: [foreign] });
      expect(update.json()).toEqual({
        key: 'payload_invalid',
        details: [{ path: 'deviceHashIds[0]', message: `device ${foreign} is not a device of the owner organisation` }],
      });
      expect((await t.call('PUT', `${admin}/${created.hashId}`, ops, { role: 'admin' })).json()).toMatchObject({
        key: 'payload_invalid',
        details: [{ path: 'role' }],
      });
      expect((await t.call('PUT', `${admin}/${created.hashId}`, ops, { ownerOrganizationHashId: thirdHashId })).json()).toMatchObject({
        key: 'payload_invalid',
      });
      // Nothing changed.
      const [after] = ((await t.call('GET', `${admin}/device/${own}`, employee)).json() as Page).rows;
      expect(after).toEqual(created);
      await t.call('DELETE', `${admin}/${created.hashId}`, ops);
    });

    it('answers 404 not_found for hash ids that do not decode or name nothing', async () => {
      const own = await aDevice(ownerHashId);
      const unknownOrganization = t.hashIds.encode('organization', 987654);
      const base = { ownerOrganizationHashId: ownerHashId, partnerOrganizationHashId: partnerHashId, role: 'viewer' };
      expect((await t.call('POST', admin, ops, { ...base, ownerOrganizationHashId: 'nonsense' })).json()).toEqual({
        key: 'not_found',
        details: { ownerOrganizationHashId: 'nonsense' },
      });
      const noPartner = await t.call('POST', admin, ops, { ...base, partnerOrganizationHashId: unknownOrganization });
      expect(noPartner.statusCode).toBe(404);
      expect(noPartner.json()).toEqual({ key: 'not_found', details: { partnerOrganizationHashId: unknownOrganization } });
      // A device's hash id is not an organisation's.
      expect((await t.call('POST', admin, ops, { ...base, partnerOrganizationHashId: own })).statusCode).toBe(404);
      const badDevice = await t.call('POST', admin, ops, { ...base, deviceHashIds: [own, 'not-a-hash-id'] });
      expect(badDevice.statusCode).toBe(404);
      expect(badDevice.json()).toEqual({ key: 'not_found', details: { deviceHashId: 'not-a-hash-id' } });

      const gone = t.hashIds.encode('partnership', 987654);
      for (const [method, payload] of [
        ['PUT', { role: 'operator' }],
        ['DELETE', undefined],
      ] as const) {
        expect((await t.call(method, `${admin}/${gone}`, ops, payload)).json()).toEqual({ key: 'not_found', details: { partnershipHashId: gone } });
        // The hash id of another kind of object names no partnership.
        expect((await t.call(method, `${admin}/${own}`, ops, payload)).statusCode).toBe(404);
      }
      expect((await t.call('PUT', `${admin}/${'x'.repeat(65)}`, ops, {})).json()).toMatchObject({ key: 'params_invalid' });
      expect((await t.call('GET', `${admin}?organizationHashId=nonsense`, employee)).json()).toEqual({
        key: 'not_found',
        details: { organizationHashId: 'nonsense' },
      });
    });

    it('is read by employees and written by ops and developers only; customers and the anonymous are refused', async () => {
      const payload = { ownerOrganizationHashId: ownerHashId, partnerOrganizationHashId: thirdHashId, role: 'viewer', allDevices: true };
      for (const cookie of [employee, sales, ownerUser]) {
        const refused = await t.call('POST', admin, cookie, payload);
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toMatchObject({ key: 'forbidden' });
      }
      const created = await create(payload, developer);
      expect((await t.call('PUT', `${admin}/${created.hashId}`, sales, { role: 'operator' })).statusCode).toBe(403);
      expect((await t.call('DELETE', `${admin}/${created.hashId}`, employee)).statusCode).toBe(403);
      expect((await t.call('GET', admin, ownerUser)).json()).toMatchObject({ key: 'forbidden' });
      expect((await t.call('GET', admin, sales)).statusCode).toBe(200);
      for (const url of [admin, customer, `${admin}/device/${created.hashId}`]) {
        const anonymous = await t.call('GET', url);
        expect(anonymous.statusCode).toBe(401);
        expect(anonymous.json()).toMatchObject({ key: 'unauthorized' });
      }
      expect((await t.call('DELETE', `${admin}/${created.hashId}`, undefined)).statusCode).toBe(401);
      expect((await t.call('DELETE', `${admin}/${created.hashId}`, developer)).statusCode).toBe(204);
    });

    it('refuses API keys: partnerships are managed from console sessions, and the service says so too', async () => {
      const key = await buildApiKey(t.services, { organizationHashId: ownerHashId, name: 'Partnership key' });
      const response = await t.call('GET', customer, { bearer: key.apiKey });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ key: 'forbidden', details: { reason: 'this route needs a console session' } });
      const apiKeyActor: Actor = { kind: 'apiKey', userId: null, apiKeyId: 1, organizationId: partnerId, rights: ['customer.write'], name: 'key' };
      await expect(t.services.partnerships.customerList(apiKeyActor, { rowsPerPage: 10 })).rejects.toMatchObject({ key: 'forbidden' });
    });
  });

  describe('lists', () => {
    let owner: string;
    let partner: string;
    let owners: string;
    let partners: string;
    let outsider: string;
    const made: PartnershipView[] = [];

    beforeAll(async () => {
      const organizations = await Promise.all(
        ['List Owner BV', 'List Partner BV', 'List Outsider BV', 'List Fourth BV'].map((name) => anOrganization(t.services, { name })),
      );
      [owner, partner, outsider] = organizations.map((organization) => organization.hashId) as [string, string, string];
      const fourth = organizations[3]?.hashId ?? '';
      [owners, partners] = await Promise.all([t.signIn(['customer.read'], owner), t.signIn(['customer.write'], partner)]);
      const device = await aDevice(owner);
      made.push(
        await create({
          ownerOrganizationHashId: owner,
          partnerOrganizationHashId: partner,
          role: 'viewer',
          description: 'Owner to partner',
          deviceHashIds: [device],
        }),
      );
      made.push(
        await create({
          ownerOrganizationHashId: partner,
          partnerOrganizationHashId: owner,
          role: 'operator',
          description: 'Partner to owner',
          allDevices: true,
        }),
      );
      made.push(
        await create({ ownerOrganizationHashId: fourth, partnerOrganizationHashId: owner, role: 'viewer', description: 'Fourth to owner', allDevices: true }),
      );
      made.push(
        await create({ ownerOrganizationHashId: fourth, partnerOrganizationHashId: outsider, role: 'viewer', description: 'Not ours', allDevices: true }),
      );
    });

    async function rows(cookie: string, url: string): Promise<string[]> {
      const response = await t.call('GET', url, cookie);
      expect(response.statusCode).toBe(200);
      return (response.json() as Page).rows.map((row) => row.description);
    }

    it('shows a customer its own, its accepted, or both, newest first, and nothing of other organisations', async () => {
      expect(await rows(owners, customer)).toEqual(['Fourth to owner', 'Partner to owner', 'Owner to partner']);
      expect(await rows(owners, `${customer}?kind=own`)).toEqual(['Owner to partner']);
      expect(await rows(owners, `${customer}?kind=accepted`)).toEqual(['Fourth to owner', 'Partner to owner']);
      expect(await rows(partners, `${customer}?kind=own`)).toEqual(['Partner to owner']);
      expect(await rows(partners, `${customer}?kind=accepted`)).toEqual(['Owner to partner']);
      const outsiders = await t.signIn(['customer.read'], outsider);
      expect(await rows(outsiders, customer)).toEqual(['Not ours']);
      expect(await rows(outsiders, `${customer}?kind=own`)).toEqual([]);
      const seen = (await t.call('GET', `${customer}?kind=own`, owners)).json() as Page;
      expect(seen.rows[0]).toEqual(made[0]);
      expect(seen.rows[0]).toMatchObject({ deviceCount: 1, allDevices: false });
      expect(seen.nextPageOffset).toBeNull();
    });

    it('pages with opaque cursors and refuses a bad kind, page size or cursor', async () => {
      const first = (await t.call('GET', `${customer}?rowsPerPage=2`, owners)).json() as Page;
      expect(first.rows.map((row) => row.description)).toEqual(['Fourth to owner', 'Partner to owner']);
      expect(first.nextPageOffset).toEqual(expect.any(String));
      const second = (await t.call('GET', `${customer}?rowsPerPage=2&offset=${first.nextPageOffset ?? ''}`, owners)).json() as Page;
      expect(second).toEqual({ rows: [made[0]], nextPageOffset: null });
      const kind = await t.call('GET', `${customer}?kind=mine`, owners);
      expect(kind.statusCode).toBe(400);
      expect(kind.json()).toMatchObject({ key: 'query_invalid', details: [{ path: 'kind' }] });
      expect((await t.call('GET', `${admin}?rowsPerPage=501`, employee)).json()).toMatchObject({ key: 'query_invalid', details: [{ path: 'rowsPerPage' }] });
      for (const url of [`${customer}?offset=not-a-cursor`, `${admin}?offset=not-a-cursor`]) {
        const bad = await t.call('GET', url, url.startsWith(admin) ? employee : owners);
        expect(bad.statusCode).toBe(400);
        expect(bad.json()).toEqual({ key: 'invalid_offset', details: { offset: 'not-a-cursor' } });
      }
    });

    it('lists every partnership for staff, by organisation (owner or partner) and by filter', async () => {
      expect(await rows(employee, `${admin}?organizationHashId=${owner}`)).toEqual(['Fourth to owner', 'Partner to owner', 'Owner to partner']);
      expect(await rows(employee, `${admin}?organizationHashId=${outsider}`)).toEqual(['Not ours']);
      expect(await rows(employee, `${admin}?filter=${encodeURIComponent('List Outsider')}`)).toEqual(['Not ours']);
      expect(await rows(employee, `${admin}?filter=${encodeURIComponent('partner to')}`)).toEqual(['Partner to owner']);
      const all = await rows(employee, `${admin}?rowsPerPage=500`);
      expect(all).toEqual(expect.arrayContaining(made.map((row) => row.description)));
      // Staff use the customer list as their own organisation's: the provider shares nothing here.
      expect(await rows(employee, customer)).toEqual([]);
    });

    it('costs a fixed number of queries per page however many rows it has', async () => {
      const counted = async (url: string) => {
        let queries = 0;
        const count = () => {
          queries += 1;
        };
        t.database.db.on('query', count);
        const response = await t.call('GET', url, employee);
        t.database.db.off('query', count);
        expect(response.statusCode).toBe(200);
        return queries;
      };
      const organizations = await Promise.all(Array.from({ length: 8 }, () => anOrganization(t.services)));
      for (const [index, organization] of organizations.entries()) {
        const device = index % 2 === 0 ? await aDevice(organization.hashId) : null;
        await create({
          ownerOrganizationHashId: organization.hashId,
          partnerOrganizationHashId: partner,
          role: 'viewer',
          allDevices: device === null,
          deviceHashIds: device === null ? [] : [device],
        });
      }
      // Both kinds (listing devices, sharing all) on a short page and on a page of every partnership there is.
      const few = await counted(`${admin}?organizationHashId=${owner}`);
      const many = await counted(`${admin}?rowsPerPage=500`);
      expect(((await t.call('GET', `${admin}?rowsPerPage=500`, employee)).json() as Page).rows.length).toBeGreaterThan(8);
      expect(many).toBe(few);
    });
  });
});
