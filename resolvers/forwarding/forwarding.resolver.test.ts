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

  it("reads a group's forwardings as DeviceGroup.messageDestinations through the fleet's DeviceGroup, as the REST list gives them", async () => {
    const organization = await buildOrganization(g.services);
    const [forwarded, quiet] = [
      await buildDeviceGroup(g.services, { organizationHashId: organization.hashId }),
      await buildDeviceGroup(g.services, { organizationHashId: organization.hashId }),
    ];
    const destinations = [await createDestination(organization.hashId), await createDestination(organization.hashId)];
    const ops = staffActor(['gridport.ops']);
    await g.services.groupForwarding.add(ops, {
      deviceGroupHashId: forwarded.hashId,
      messageDestinationHashId: destinations[0]?.hashId ?? '',
      messageTypes: ['alarm', 'solarPower'],
      settings: { minIntervalSeconds: 0 },
    });
    await g.services.groupForwarding.add(ops, {
      deviceGroupHashId: forwarded.hashId,
      messageDestinationHashId: destinations[1]?.hashId ?? '',
      messageTypes: ['meterPower'],
      settings: { minIntervalSeconds: 60 },
    });
    const fields = 'hashId messageDestinations { hashId messageDestination { hashId name type } messageTypes settings { minIntervalSeconds } createdAt }';
    const employee = staffActor(['gridport.employee']);
    const read = await g.execute<{ deviceGroup: { hashId: string; messageDestinations: unknown[] } }>(
      employee,
      `query($h: ID!) { deviceGroup(hashId: $h) { name ${fields} } }`,
      { h: forwarded.hashId },
    );
    expect(read.errors).toBeUndefined();
    const listed = await g.services.groupForwarding.list(employee, { deviceGroupHashId: forwarded.hashId, rowsPerPage: 500 });
    expect(listed.rows).toHaveLength(2);
    expect(read.data?.deviceGroup).toEqual({
      name: forwarded.name,
      hashId: forwarded.hashId,
      messageDestinations: listed.rows.map((row) => ({
        hashId: row.hashId,
        messageDestination: { ...row.messageDestination, type: 'HTTP' },
        messageTypes: row.messageTypes.map((type) => type.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()),
        settings: row.settings,
        createdAt: row.createdAt,
      })),
    });
    expect(read.data?.deviceGroup.messageDestinations.map((row) => (row as { messageTypes: string[] }).messageTypes)).toEqual([
      ['METER_POWER'],
      ['SOLAR_POWER', 'ALARM'],
    ]);

    // Groups of a page, each with its own forwardings (none for the quiet one).
    const page = await g.execute<{ deviceGroups: { rows: { hashId: string; messageDestinations: { hashId: string }[] }[] } }>(
      employee,
      `query($o: String) { deviceGroups(organizationHashId: $o, rowsPerPage: 500) { rows { hashId messageDestinations { hashId } } } }`,
      { o: organization.hashId },
    );
    expect(page.errors).toBeUndefined();
    expect(page.data?.deviceGroups.rows).toEqual([
      { hashId: quiet.hashId, messageDestinations: [] },
      { hashId: forwarded.hashId, messageDestinations: listed.rows.map((row) => ({ hashId: row.hashId })) },
    ]);

    const customer = customerActor(g.hashIds.decode('organization', organization.hashId) ?? 0, ['customer.write']);
    const refused = await g.execute(customer, `query($h: ID!) { deviceGroup(hashId: $h) { ${fields} } }`, { h: forwarded.hashId });
    expect(refused.data ?? null).toBeNull();
    expect(refused.errors?.map((error) => error.extensions?.code)).toEqual(['forbidden']);
  });

  it('keeps an sftp privateKeyPassphrase sealed like the other secrets: never returned, named in secretsSet', async () => {
    const organization = await buildOrganization(g.services);
    const created = await createDestination(organization.hashId, {
      type: 'sftp',
      host: '1.1.1.1',
      username: 'gridport',
      privateKey: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAACmFlczI1Ni1jdHI=\n-----END OPENSSH PRIVATE KEY-----',
      privateKeyPassphrase: 'Open-Sesame-graphql',
      format: 'qos',
    });
    expect(created.secretsSet).toEqual(['privateKey', 'privateKeyPassphrase']);
    expect(JSON.stringify(created)).not.toContain('Open-Sesame');
    const stored = (await g.database.db('message_destinations').where('id', g.hashIds.decode('messageDestination', created.hashId)).first('settings')) as {
      settings: Record<string, unknown>;
    };
    expect(stored.settings.privateKeyPassphrase).toEqual({ iv: expect.any(String), encryptedData: expect.any(String), tag: expect.any(String) });
    expect(JSON.stringify(stored)).not.toContain('Open-Sesame');

    const alone = await g.execute(staffActor(['gridport.ops']), create, {
      input: {
        name: 'Passphrase alone',
        organizationHashId: organization.hashId,
        destination: { type: 'sftp', host: '1.1.1.1', username: 'u', password: 'p', privateKeyPassphrase: 'x', format: 'qos' },
      },
    });
    expect(alone.errors?.map((error) => error.extensions)).toEqual([
      { code: 'payload_invalid', details: [{ path: 'destination.privateKeyPassphrase', message: 'privateKeyPassphrase goes with a privateKey' }] },
    ]);
  });
});
