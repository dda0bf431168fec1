import { buildDeviceGroup, buildOrganization } from '../../test-support/factories';
import { customerActor, staffActor, testGraph, type TestGraph } from '../../test-support/graphql';

const destinationFields = `hashId name type organizationHashId organization { hashId name } outageEmails destination secretsSet
  monitorSettings { enabled maxLagSeconds } nominalActivePowerSum
  health { state pausedReason pausedAt position lagReports lagCountCapped lagSeconds deliveredCount lastSuccessAt lastErrorAt lastError failingSince nextAttemptAt }`;

const create = `mutation($input: MessageDestinationCreateInput!) { createMessageDestination(input: $input) { ${destinationFields} } }`;

interface DestinationRow {
  hashId: string;
  type: string;
  destination: Record<string, unknown>;
  secretsSet: string[];
  health: { state: string; position: string };
}

/** Message destinations and group forwarding in GraphQL: the same services, rights and errors as REST. */
describe('forwarding in GraphQL', () => {
  let g: TestGraph;

  beforeAll(async () => {
    g = await testGraph();
  });

  afterAll(async () => {
    await g.close();
  });

  const http = { type: 'http', url: 'https://1.1.1.1/ingest', headers: [{ name: 'Authorization', value: 'Bearer S3cret-graphql' }] };

  async function createDestination(organizationHashId: string, destination: Record<string, unknown> = http): Promise<DestinationRow> {
    const result = await g.execute<{ createMessageDestination: DestinationRow }>(staffActor(['gridport.ops']), create, {
      input: { name: 'Over GraphQL', organizationHashId, destination },
    });
    expect(result.errors).toBeUndefined();
    return result.data?.createMessageDestination as DestinationRow;
  }

  it('creates, reads, updates and resumes a destination; the kind is an enum, the settings JSON without secrets, the position a string', async () => {
    const organization = await buildOrganization(g.services, { name: 'GraphQL Forwarding BV' });
    const created = await createDestination(organization.hashId);
    expect(created).toMatchObject({ type: 'HTTP', destination: { type: 'http', url: 'https://1.1.1.1/ingest', method: 'POST' }, secretsSet: ['headers'] });
    expect(JSON.stringify(created)).not.toContain('S3cret');
    expect(created.health.position).toMatch(/^\d+$/);

    const read = await g.execute<{ messageDestination: DestinationRow }>(
      staffActor(['gridport.employee']),
      `query($h: ID!) { messageDestination(hashId: $h) { ${destinationFields} } }`,
      {
        h: created.hashId,
      },
    );
    expect(read.data?.messageDestination).toEqual(created);

    const update = `mutation($h: ID!, $input: MessageDestinationUpdateInput!) { updateMessageDestination(hashId: $h, input: $input) { name destination secretsSet } }`;
    const renamed = await g.execute(staffActor(['gridport.developer']), update, {
      h: created.hashId,
      input: { name: 'Renamed', destination: { type: 'http', url: 'https://1.1.1.1/v2' } },
    });
    expect(renamed).toEqual({
      data: {
        updateMessageDestination: { name: 'Renamed', destination: expect.objectContaining({ url: 'https://1.1.1.1/v2' }) as unknown, secretsSet: ['headers'] },
      },
    });
    const changing = await g.execute(staffActor(['gridport.ops']), update, {
      h: created.hashId,
      input: { destination: { type: 'kafka', brokers: ['1.1.1.1:9092'], topic: 't' } },
    });
    expect(changing.errors?.map((error) => error.extensions)).toEqual([{ code: 'changing_type', details: { type: 'http', requestedType: 'kafka' } }]);

    const resume = 'mutation($h: ID!, $o: Float) { resumeMessageDestination(hashId: $h, offset: $o) { health { state } } }';
    const byOps = await g.execute(staffActor(['gridport.ops']), resume, { h: created.hashId });
    expect(byOps.errors?.map((error) => error.extensions)).toEqual([{ code: 'forbidden', details: { required: ['gridport.developer'] } }]);
    const byDeveloper = await g.execute(staffActor(['gridport.developer']), resume, { h: created.hashId, o: 0 });
    expect(byDeveloper).toEqual({ data: { resumeMessageDestination: { health: { state: 'ACTIVE' } } } });
  });

  it('answers payload_invalid under destination. and destination_address_not_allowed as REST does', async () => {
    const organization = await buildOrganization(g.services);
    const missing = await g.execute(staffActor(['gridport.ops']), create, {
      input: { name: 'No URL', organizationHashId: organization.hashId, destination: { type: 'http' } },
    });
    expect(missing.errors?.map((error) => error.extensions)).toEqual([
      { code: 'payload_invalid', details: [{ path: 'destination.url', message: expect.any(String) as string }] },
    ]);
    const loopback = await g.execute(staffActor(['gridport.ops']), create, {
      input: { name: 'Loopback', organizationHashId: organization.hashId, destination: { type: 'postgres', host: '127.0.0.1', database: 'd', username: 'u' } },
    });
    expect(loopback.errors?.map((error) => error.extensions?.code)).toEqual(['destination_address_not_allowed']);
  });

  it("lists destinations by kind and state; a customer sees only their organisation's", async () => {
    const own = await buildOrganization(g.services);
    const other = await buildOrganization(g.services);
    const mine = await createDestination(own.hashId);
    await createDestination(other.hashId);
    const list =
      'query($type: DestinationKind, $state: DestinationState) { messageDestinations(type: $type, state: $state, rowsPerPage: 500) { rows { hashId organizationHashId } nextPageOffset } }';
    const customer = customerActor(g.hashIds.decode('organization', own.hashId) ?? 0, ['customer.read']);
    const seen = await g.execute<{ messageDestinations: { rows: { hashId: string; organizationHashId: string }[] } }>(customer, list, {
      type: 'HTTP',
      state: 'ACTIVE',
    });
    expect(seen.data?.messageDestinations.rows).toEqual([{ hashId: mine.hashId, organizationHashId: own.hashId }]);
    const single = await g.execute(customer, 'query($h: ID!) { messageDestination(hashId: $h) { hashId } }', { h: mine.hashId });
    expect(single.errors?.map((error) => error.extensions?.code)).toEqual(['forbidden']);
  });

  it('adds, lists, updates and removes a group forwarding, with max_destinations_reached and already_configured as REST', async () => {
    const organization = await buildOrganization(g.services);
    const group = await buildDeviceGroup(g.services, { organizationHashId: organization.hashId });
    const destinations = [
      await createDestination(organization.hashId),
      await createDestination(organization.hashId),
      await createDestination(organization.hashId),
      await createDestination(organization.hashId),
    ];
    const add = `mutation($input: DeviceGroupMessageDestinationCreateInput!) {
      addDeviceGroupMessageDestination(input: $input) { hashId deviceGroup { hashId name } messageDestination { hashId type } messageTypes settings { minIntervalSeconds } createdAt }
    }`;
    const ops = staffActor(['gridport.ops']);
    const added: string[] = [];
    for (const destination of destinations.slice(0, 3)) {
      const result = await g.execute<{ addDeviceGroupMessageDestination: { hashId: string; messageTypes: string[] } }>(ops, add, {
        input: { deviceGroupHashId: group.hashId, messageDestinationHashId: destination.hashId, messageTypes: ['ALARM', 'SOLAR_POWER_FLASH'] },
      });
      expect(result.errors).toBeUndefined();
      expect(result.data?.addDeviceGroupMessageDestination.messageTypes).toEqual(['SOLAR_POWER_FLASH', 'ALARM']);
      added.push(result.data?.addDeviceGroupMessageDestination.hashId ?? '');
    }
    const fourth = await g.execute(ops, add, {
      input: { deviceGroupHashId: group.hashId, messageDestinationHashId: destinations[3]?.hashId, messageTypes: ['ALARM'] },
    });
    expect(fourth.errors?.map((error) => error.extensions)).toEqual([{ code: 'max_destinations_reached', details: { messageTypes: ['alarm'], max: 3 } }]);
    const twice = await g.execute(ops, add, {
      input: { deviceGroupHashId: group.hashId, messageDestinationHashId: destinations[0]?.hashId, messageTypes: ['EV_POWER'] },
    });
    expect(twice.errors?.map((error) => error.extensions?.code)).toEqual(['already_configured']);

    const list = 'query($g: String) { deviceGroupMessageDestinations(deviceGroupHashId: $g) { rows { hashId } nextPageOffset } }';
    const listed = await g.execute<{ deviceGroupMessageDestinations: { rows: { hashId: string }[] } }>(staffActor(['gridport.employee']), list, {
      g: group.hashId,
    });
    expect(listed.data?.deviceGroupMessageDestinations.rows.map((row) => row.hashId).sort()).toEqual([...added].sort());
    const one = await g.execute(staffActor(['gridport.employee']), 'query($h: ID!) { deviceGroupMessageDestination(hashId: $h) { messageTypes } }', {
      h: added[0],
    });
    expect(one).toEqual({ data: { deviceGroupMessageDestination: { messageTypes: ['SOLAR_POWER_FLASH', 'ALARM'] } } });

    const update =
      'mutation($h: ID!) { updateDeviceGroupMessageDestination(hashId: $h, input: { messageTypes: [METER_POWER], settings: { minIntervalSeconds: 30 } }) { messageTypes settings { minIntervalSeconds } } }';
    expect(await g.execute(ops, update, { h: added[0] })).toEqual({
      data: { updateDeviceGroupMessageDestination: { messageTypes: ['METER_POWER'], settings: { minIntervalSeconds: 30 } } },
    });
    const remove = 'mutation($h: ID!) { removeDeviceGroupMessageDestination(hashId: $h) }';
    expect(await g.execute(ops, remove, { h: added[0] })).toEqual({ data: { removeDeviceGroupMessageDestination: true } });
    const again = await g.execute(ops, remove, { h: added[0] });
    expect(again.errors?.map((error) => error.extensions?.code)).toEqual(['not_found']);
    const byEmployee = await g.execute(staffActor(['gridport.employee']), remove, { h: added[1] });
    expect(byEmployee.errors?.map((error) => error.extensions?.code)).toEqual(['forbidden']);
  });
});
