import { exampleDeviceConfig } from '../../contracts/device';
import type { Actor } from '../../graph/common/context';
import { anOrganization, buildDeviceGroup } from '../../test-support/factories';
import { seedDevices } from '../../test-support/fleet';
import { customerActor, staffActor, testGraph, type TestGraph } from '../../test-support/graphql';

interface DeviceRow {
  hashId: string;
  name: string;
  organization: { name: string } | null;
  deviceGroup: { name: string } | null;
  assets: { identifier: string }[];
}

/** The fleet subgraph, composed with identity: devices with their organisation, group and assets, groups, partnerships and steering. */
describe('the fleet in GraphQL', () => {
  let g: TestGraph;
  let owner: { id: number; hashId: string };
  let partner: { id: number; hashId: string };
  let groupHashId: string;
  let seeded: number[];
  let queries = 0;

  const organization = async (name: string) => {
    const { hashId } = await anOrganization(g.services, { name });
    return { id: g.hashIds.decode('organization', hashId) ?? 0, hashId };
  };

  beforeAll(async () => {
    g = await testGraph();
    owner = await organization('Fleet Owner BV');
    partner = await organization('Fleet Partner BV');
    const group = await buildDeviceGroup(g.services, { name: 'North', organizationHashId: owner.hashId });
    groupHashId = group.hashId;
    seeded = await seedDevices(g.database.db, owner.id, 500, { deviceGroupId: g.hashIds.decode('deviceGroup', groupHashId) });
    g.database.db.on('query', () => {
      queries += 1;
    });
  });

  afterAll(async () => {
    await g.close();
  });

  async function counted<T>(actor: Actor, query: string, variables?: Record<string, unknown>) {
    queries = 0;
    const result = await g.execute<T>(actor, query, variables);
    return { result, queries };
  }

  const listQuery = `query List($rows: Int, $organizationHashId: String) {
    devices(rowsPerPage: $rows, organizationHashId: $organizationHashId) {
      rows { hashId name organization { name type } deviceGroup { name deviceCount } assets { identifier category schedule } controllers { type } }
      nextPageOffset
    }
  }`;

  it('lists 500 devices with their organisation, group and assets in as many queries as 5', async () => {
    const few = await counted<{ devices: { rows: DeviceRow[] } }>(staffActor(['gridport.employee']), listQuery, { rows: 5, organizationHashId: owner.hashId });
    expect(few.result.errors).toBeUndefined();
    expect(few.result.data?.devices.rows).toHaveLength(5);
    const many = await counted<{ devices: { rows: DeviceRow[]; nextPageOffset: string | null } }>(staffActor(['gridport.employee']), listQuery, {
      rows: 500,
      organizationHashId: owner.hashId,
    });
    expect(many.result.errors).toBeUndefined();
    const rows = many.result.data?.devices.rows ?? [];
    expect(rows).toHaveLength(500);
    expect(rows[0]).toMatchObject({ organization: { name: 'Fleet Owner BV', type: 'ASSET_OWNER' }, deviceGroup: { name: 'North', deviceCount: 500 } });
    expect(rows[0]?.assets).toHaveLength(exampleDeviceConfig.assets.length);
    expect(many.queries).toBe(few.queries);
    expect(many.queries).toBeLessThanOrEqual(12);
  });

  it('shows a customer its devices with the status filter and a count; admin filters are refused; groups are staff only', async () => {
    const customer = customerActor(owner.id);
    const { data, errors } = await g.execute<{ devices: { count: number; rows: unknown[] } }>(
      customer,
      '{ devices(rowsPerPage: 3, status: NON_OPERATIONAL) { count rows { hashId } } }',
    );
    expect(errors).toBeUndefined();
    expect(data?.devices).toMatchObject({ count: 500 });
    expect(data?.devices.rows).toHaveLength(3);
    const filtered = await g.execute(customer, '{ devices(assetType: "sma-sunny-tripower") { rows { hashId } } }');
    expect(filtered.errors?.[0]?.extensions?.code).toBe('query_invalid');
    const group = await g.execute(customer, `query($h: ID!) { device(hashId: $h) { name deviceGroup { name } } }`, {
      h: g.hashIds.encode('device', seeded[0] ?? 0),
    });
    expect(group.errors?.[0]?.extensions?.code).toBe('forbidden');
    const stranger = await g.execute(customerActor(partner.id), `query($h: ID!) { device(hashId: $h) { name } }`, {
      h: g.hashIds.encode('device', seeded[0] ?? 0),
    });
    expect(stranger.errors?.[0]?.extensions?.code).toBe('not_found');
  });

  it('shares through a partnership made in GraphQL: the partner sees the listed device and both organisations by name', async () => {
    const shared = g.hashIds.encode('device', seeded[1] ?? 0);
    const created = await g.execute<{ createPartnership: { hashId: string; owner: { name: string }; partner: { name: string }; deviceCount: number } }>(
      staffActor(['gridport.ops']),
      'mutation($input: PartnershipCreateInput!) { createPartnership(input: $input) { hashId role owner { name } partner { name } deviceCount } }',
      { input: { ownerOrganizationHashId: owner.hashId, partnerOrganizationHashId: partner.hashId, role: 'VIEWER', deviceHashIds: [shared] } },
    );
    expect(created.errors).toBeUndefined();
    expect(created.data?.createPartnership).toMatchObject({ owner: { name: 'Fleet Owner BV' }, partner: { name: 'Fleet Partner BV' }, deviceCount: 1 });

    const partnerActor = customerActor(partner.id);
    const seen = await g.execute<{
      devices: {
        count: number;
        rows: {
          hashId: string;
          organization: { name: string; pricing: unknown };
          partnerships: { role: string; owner: { name: string }; partner: { name: string } }[];
        }[];
      };
    }>(partnerActor, '{ devices { count rows { hashId organization { name pricing } partnerships { role owner { name } partner { name } } } } }');
    expect(seen.errors).toBeUndefined();
    expect(seen.data?.devices.count).toBe(1);
    expect(seen.data?.devices.rows[0]).toEqual({
      hashId: shared,
      organization: { name: 'Fleet Owner BV', pricing: null },
      partnerships: [{ role: 'VIEWER', owner: { name: 'Fleet Owner BV' }, partner: { name: 'Fleet Partner BV' } }],
    });
    const list = await g.execute<{ partnerships: { rows: { owner: { name: string } }[] } }>(
      partnerActor,
      '{ partnerships(kind: ACCEPTED) { rows { owner { name } deviceHashIds } } }',
    );
    expect(list.data?.partnerships.rows).toEqual([{ owner: { name: 'Fleet Owner BV' }, deviceHashIds: [shared] }]);
    // A viewer may not steer (steering is for API keys, as PUT /v2/schedule; a console session may not steer at all).
    const partnerKey: Actor = {
      kind: 'apiKey',
      userId: null,
      apiKeyId: 2,
      organizationId: partner.id,
      rights: ['customer.read', 'customer.write'],
      name: 'Partner key',
    };
    const steer = await g.execute(partnerKey, 'mutation { setSchedule(input: { assetIdentifiers: ["pv-roof"], schedule: [] }) { deviceHashIds } }');
    expect(steer.errors?.[0]?.extensions).toEqual({ code: 'unknown_identifier', details: { identifiers: ['pv-roof'] } });
    const session = await g.execute(partnerActor, 'mutation { setSchedule(input: { assetIdentifiers: ["pv-roof"], schedule: [] }) { deviceHashIds } }');
    expect(session.errors?.[0]?.extensions).toEqual({ code: 'forbidden', details: { reason: 'this route needs an API key' } });
  });

  it('updates a device with the REST rules and steers it', async () => {
    const hashId = g.hashIds.encode('device', seeded[2] ?? 0);
    const invalid = await g.execute(staffActor(['gridport.ops']), 'mutation($h: ID!, $c: JSON) { updateDevice(hashId: $h, input: { config: $c }) { name } }', {
      h: hashId,
      c: { ...exampleDeviceConfig, reportingIntervalInSec: 1 },
    });
    expect(invalid.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_config', details: { issues: [{ key: 'reportingIntervalInSec' }] } });
    const employee = await g.execute(staffActor(['gridport.employee']), 'mutation($h: ID!) { updateDevice(hashId: $h, input: { name: "x" }) { name } }', {
      h: hashId,
    });
    expect(employee.errors?.[0]?.extensions?.code).toBe('forbidden');
    const renamed = await g.execute<{ updateDevice: { name: string; cloudApi: string } }>(
      staffActor(['gridport.ops']),
      'mutation($h: ID!) { updateDevice(hashId: $h, input: { name: "Renamed", cloudApi: READ }) { name cloudApi } }',
      { h: hashId },
    );
    expect(renamed.data?.updateDevice).toEqual({ name: 'Renamed', cloudApi: 'READ' });

    const key: Actor = { kind: 'apiKey', userId: null, apiKeyId: 1, organizationId: owner.id, rights: ['customer.write'], name: 'API key' };
    const refused = await g.execute(key, 'mutation { setSchedule(input: { assetIdentifiers: ["pv-roof"], schedule: [] }) { deviceHashIds } }');
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'forbidden', details: { deviceHashIds: [hashId] } });
    const badBody = await g.execute(key, 'mutation { setSchedule(input: { schedule: [] }) { deviceHashIds } }');
    expect(badBody.errors?.[0]?.extensions?.code).toBe('payload_invalid');
  });
});
