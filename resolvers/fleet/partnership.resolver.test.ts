import type { Actor } from '../../graph/common/context';
import { buildDevice, buildOrganization, buildPartnership } from '../../test-support/factories';
import { customerActor, staffActor, testGraph, type TestGraph } from '../../test-support/graphql';

interface PartnershipRow {
  hashId: string;
  deviceHashIds: string[];
  devices: { hashId: string; name: string }[];
}

const listQuery = `query($organizationHashId: String, $kind: PartnershipKind) {
  partnerships(organizationHashId: $organizationHashId, kind: $kind) { rows { hashId deviceHashIds devices { hashId name } } }
}`;

/** The devices of a partnership in GraphQL: the listed devices by name, for whoever may see the partnership. */
describe('the devices of a partnership in GraphQL', () => {
  let g: TestGraph;
  let queries = 0;

  beforeAll(async () => {
    g = await testGraph();
    g.database.db.on('query', () => {
      queries += 1;
    });
  });

  afterAll(async () => {
    await g.close();
  });

  const organizationId = (hashId: string) => g.hashIds.decode('organization', hashId) ?? 0;

  async function list(actor: Actor, variables: Record<string, unknown>) {
    queries = 0;
    const result = await g.execute<{ partnerships: { rows: PartnershipRow[] } }>(actor, listQuery, variables);
    expect(result.errors).toBeUndefined();
    return { rows: result.data?.partnerships.rows ?? [], queries };
  }

  it('names the listed devices, and none for a partnership sharing all devices', async () => {
    const owner = await buildOrganization(g.services, { name: 'Names Owner BV' });
    const north = await buildDevice(g.services, { organizationHashId: owner.hashId, name: 'North roof' });
    const south = await buildDevice(g.services, { organizationHashId: owner.hashId, name: 'South roof' });
    const listing = await buildPartnership(g.services, { ownerOrganizationHashId: owner.hashId, deviceHashIds: [north.hashId, south.hashId] });
    const sharingAll = await buildPartnership(g.services, { ownerOrganizationHashId: owner.hashId, allDevices: true });

    const { rows } = await list(staffActor(['gridport.employee']), { organizationHashId: owner.hashId });

    const byHashId = new Map(rows.map((row) => [row.hashId, row]));
    // Listed devices come in the order of their ids: the first built first.
    expect(byHashId.get(listing.hashId)?.devices).toEqual([
      { hashId: north.hashId, name: 'North roof' },
      { hashId: south.hashId, name: 'South roof' },
    ]);
    expect(byHashId.get(sharingAll.hashId)?.devices).toEqual([]);
  });

  it('asks the names of every partnership of a page in one query: twenty partnerships cost as many queries as one', async () => {
    const owner = await buildOrganization(g.services);
    const device = await buildDevice(g.services, { organizationHashId: owner.hashId });
    await buildPartnership(g.services, { ownerOrganizationHashId: owner.hashId, deviceHashIds: [device.hashId] });
    const one = await list(staffActor(['gridport.employee']), { organizationHashId: owner.hashId });
    expect(one.rows).toHaveLength(1);

    const many = await buildOrganization(g.services);
    for (let index = 0; index < 20; index += 1) {
      const listed = await buildDevice(g.services, { organizationHashId: many.hashId, name: `Shared ${index}` });
      await buildPartnership(g.services, { ownerOrganizationHashId: many.hashId, deviceHashIds: [listed.hashId] });
    }
    const twenty = await list(staffActor(['gridport.employee']), { organizationHashId: many.hashId });

    expect(twenty.rows).toHaveLength(20);
    expect(twenty.rows.flatMap((row) => row.devices.map((shared) => shared.name)).sort()).toEqual(
      Array.from({ length: 20 }, (_, index) => `Shared ${index}`).sort(),
    );
    expect(twenty.queries).toBe(one.queries);
  });

  it('shows the partner the names of the devices shared with it, and another customer nothing', async () => {
    const owner = await buildOrganization(g.services);
    const partner = await buildOrganization(g.services);
    const stranger = await buildOrganization(g.services);
    const device = await buildDevice(g.services, { organizationHashId: owner.hashId, name: 'Shared battery' });
    await buildPartnership(g.services, { ownerOrganizationHashId: owner.hashId, partnerOrganizationHashId: partner.hashId, deviceHashIds: [device.hashId] });

    const accepted = await list(customerActor(organizationId(partner.hashId), ['customer.read']), { kind: 'ACCEPTED' });
    expect(accepted.rows.map((row) => row.devices)).toEqual([[{ hashId: device.hashId, name: 'Shared battery' }]]);

    const own = await list(customerActor(organizationId(owner.hashId), ['customer.read']), { kind: 'OWN' });
    expect(own.rows.map((row) => row.devices)).toEqual([[{ hashId: device.hashId, name: 'Shared battery' }]]);

    const none = await list(customerActor(organizationId(stranger.hashId), ['customer.read']), {});
    expect(none.rows).toEqual([]);
  });

  it('names no device outside the partnerships a customer may see, even when asked directly', async () => {
    const owner = await buildOrganization(g.services);
    const stranger = await buildOrganization(g.services);
    const device = await buildDevice(g.services, { organizationHashId: owner.hashId, name: 'Private inverter' });
    await buildPartnership(g.services, { ownerOrganizationHashId: owner.hashId, deviceHashIds: [device.hashId] });

    const names = await g.services.partnerships.listedDeviceNames(customerActor(organizationId(stranger.hashId), ['customer.read']), [
      device.hashId,
      'not-a-hash',
    ]);

    expect(names.size).toBe(0);
    const staffNames = await g.services.partnerships.listedDeviceNames(staffActor(['gridport.employee']), [device.hashId]);
    expect(staffNames.get(device.hashId)).toBe('Private inverter');
  });
});
