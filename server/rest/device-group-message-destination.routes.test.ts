import { testApp, type TestApp } from '../../test-support/app';
import { anOrganization } from '../../test-support/factories';

type Json = Record<string, unknown>;

interface ForwardingView {
  hashId: string;
  deviceGroup: { hashId: string; name: string };
  messageDestination: { hashId: string; name: string; type: string };
  messageTypes: string[];
  settings: { minIntervalSeconds: number };
  createdAt: string;
}

const base = '/console-admin/v1/device-group/message-destination';

describe('device group forwarding to message destinations', () => {
  let t: TestApp;
  let ownerHashId: string;
  let otherHashId: string;
  let ops: string;
  let developer: string;
  let employee: string;
  let customer: string;
  let made = 0;

  beforeAll(async () => {
    t = await testApp();
    ownerHashId = (await anOrganization(t.services, { name: 'Forwarding Groups BV' })).hashId;
    otherHashId = (await anOrganization(t.services, { name: 'Forwarding Elsewhere BV' })).hashId;
    [ops, developer, employee, customer] = await Promise.all([
      t.signIn(['gridport.ops']),
      t.signIn(['gridport.developer']),
      t.signIn(['gridport.employee']),
      t.signIn(['customer.write'], ownerHashId),
    ]);
  });

  afterAll(async () => {
    await t.close();
  });

  async function aGroup(organizationHashId = ownerHashId): Promise<string> {
    made += 1;
    const response = await t.call('POST', '/console-admin/v1/device-group', ops, { name: `Forwarding group ${made}`, organizationHashId });
    expect(response.statusCode).toBe(201);
    return (response.json() as { hashId: string }).hashId;
  }

  async function aDestination(organizationHashId = ownerHashId): Promise<string> {
    made += 1;
    const response = await t.call('POST', '/console-admin/v1/message-destination', ops, {
      name: `Forwarding destination ${made}`,
      organizationHashId,
      destination: { type: 'http', url: 'https://1.1.1.1/ingest' },
    });
    expect(response.statusCode).toBe(201);
    return (response.json() as { hashId: string }).hashId;
  }

  async function add(payload: Json, cookie = ops) {
    return t.call('POST', base, cookie, payload);
  }

  function auditRows(groupHashId: string) {
    return t.database
      .db('audit_log')
      .where({ object_type: 'device_groups', object_id: t.hashIds.decode('deviceGroup', groupHashId) ?? -1 })
      .orderBy('id');
  }

  it('adds a forwarding, gets it, lists it by group and by destination, updates it, removes it, and audits each change on the group', async () => {
    const group = await aGroup();
    const destination = await aDestination();
    const added = await add({ deviceGroupHashId: group, messageDestinationHashId: destination, messageTypes: ['meterPower', 'solarPower'] });
    expect(added.statusCode).toBe(201);
    const view = added.json() as ForwardingView;
    expect(view).toMatchObject({
      deviceGroup: { hashId: group, name: expect.stringMatching(/^Forwarding group/) as string },
      messageDestination: { hashId: destination, type: 'http' },
      messageTypes: ['solarPower', 'meterPower'],
      settings: { minIntervalSeconds: 0 },
    });

    const got = await t.call('GET', `${base}/${view.hashId}`, employee);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(view);
    for (const query of [
      `deviceGroupHashId=${group}`,
      `messageDestinationHashId=${destination}`,
      `deviceGroupHashId=${group}&messageDestinationHashId=${destination}`,
    ]) {
      const listed = await t.call('GET', `${base}?${query}`, employee);
      expect({ query, status: listed.statusCode, body: listed.json() as unknown }).toEqual({
        query,
        status: 200,
        body: { rows: [view], nextPageOffset: null },
      });
    }

    const updated = await t.call('PUT', `${base}/${view.hashId}`, developer, { messageTypes: ['alarm'], settings: { minIntervalSeconds: 60 } });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ hashId: view.hashId, messageTypes: ['alarm'], settings: { minIntervalSeconds: 60 } });
    await t.call('PUT', `${base}/${view.hashId}`, developer, { messageTypes: ['alarm'] });

    const removed = await t.call('DELETE', `${base}/${view.hashId}`, ops);
    expect(removed.statusCode).toBe(204);
    expect((await t.call('GET', `${base}/${view.hashId}`, employee)).statusCode).toBe(404);
    expect((await t.call('DELETE', `${base}/${view.hashId}`, ops)).statusCode).toBe(404);

    const audit = await auditRows(group);
    expect(audit.map((row: { diff: unknown }) => row.diff)).toEqual([
      expect.anything(),
      [
        { type: 'link-many', name: 'messageDestinations', objectType: 'message_destinations', addedHashIds: [destination], removedHashIds: [] },
        {
          type: 'json',
          name: `messageDestinations.${destination}`,
          oldValue: null,
          newValue: { messageTypes: ['solarPower', 'meterPower'], settings: { minIntervalSeconds: 0 } },
        },
      ],
      [
        {
          type: 'json',
          name: `messageDestinations.${destination}`,
          oldValue: { messageTypes: ['solarPower', 'meterPower'], settings: { minIntervalSeconds: 0 } },
          newValue: { messageTypes: ['alarm'], settings: { minIntervalSeconds: 60 } },
        },
      ],
      [
        { type: 'link-many', name: 'messageDestinations', objectType: 'message_destinations', addedHashIds: [], removedHashIds: [destination] },
        {
          type: 'json',
          name: `messageDestinations.${destination}`,
          oldValue: { messageTypes: ['alarm'], settings: { minIntervalSeconds: 60 } },
          newValue: null,
        },
      ],
    ]);
  });

  it('refuses the same group and destination twice with already_configured', async () => {
    const group = await aGroup();
    const destination = await aDestination();
    const first = await add({ deviceGroupHashId: group, messageDestinationHashId: destination, messageTypes: ['solarPower'] });
    expect(first.statusCode).toBe(201);
    const twice = await add({ deviceGroupHashId: group, messageDestinationHashId: destination, messageTypes: ['alarm'] }, developer);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({
      key: 'already_configured',
      details: {
        deviceGroupHashId: group,
        messageDestinationHashId: destination,
        deviceGroupMessageDestinationHashId: (first.json() as ForwardingView).hashId,
      },
    });
  });

  it('refuses a fourth destination for a message type with max_destinations_reached naming the message types, on add and on update', async () => {
    const group = await aGroup();
    const destinations = [await aDestination(), await aDestination(), await aDestination(), await aDestination()];
    for (const destination of destinations.slice(0, 3)) {
      expect((await add({ deviceGroupHashId: group, messageDestinationHashId: destination, messageTypes: ['solarPower', 'alarm'] })).statusCode).toBe(201);
    }
    const fourth = await add({ deviceGroupHashId: group, messageDestinationHashId: destinations[3], messageTypes: ['alarm', 'meterPower', 'solarPower'] });
    expect(fourth.statusCode).toBe(400);
    expect(fourth.json()).toEqual({ key: 'max_destinations_reached', details: { messageTypes: ['solarPower', 'alarm'], max: 3 } });

    const other = await add({ deviceGroupHashId: group, messageDestinationHashId: destinations[3], messageTypes: ['meterPower'] });
    expect(other.statusCode).toBe(201);
    const widened = await t.call('PUT', `${base}/${(other.json() as ForwardingView).hashId}`, ops, { messageTypes: ['meterPower', 'solarPower'] });
    expect(widened.statusCode).toBe(400);
    expect(widened.json()).toEqual({ key: 'max_destinations_reached', details: { messageTypes: ['solarPower'], max: 3 } });
  });

  it('lets only one of two requests at once take the third place of a message type', async () => {
    const group = await aGroup();
    const destinations = [await aDestination(), await aDestination(), await aDestination(), await aDestination()];
    for (const destination of destinations.slice(0, 2)) {
      expect((await add({ deviceGroupHashId: group, messageDestinationHashId: destination, messageTypes: ['windPower'] })).statusCode).toBe(201);
    }
    const racing = await Promise.all(
      destinations.slice(2).map((destination) => add({ deviceGroupHashId: group, messageDestinationHashId: destination, messageTypes: ['windPower'] })),
    );
    expect(racing.map((response) => response.statusCode).sort()).toEqual([201, 400]);
    const listed = (await t.call('GET', `${base}?deviceGroupHashId=${group}`, employee)).json() as { rows: ForwardingView[] };
    expect(listed.rows).toHaveLength(3);
  });

  it('refuses a destination of another organisation with payload_invalid, and a missing group or destination with not_found', async () => {
    const group = await aGroup();
    const foreign = await aDestination(otherHashId);
    const crossing = await add({ deviceGroupHashId: group, messageDestinationHashId: foreign, messageTypes: ['solarPower'] });
    expect(crossing.statusCode).toBe(400);
    expect(crossing.json()).toEqual({
      key: 'payload_invalid',
      details: [{ path: 'messageDestinationHashId', message: 'the message destination belongs to another organisation than the device group' }],
    });
    const noGroup = await add({ deviceGroupHashId: t.hashIds.encode('deviceGroup', 999_999), messageDestinationHashId: foreign, messageTypes: ['solarPower'] });
    expect(noGroup.statusCode).toBe(404);
    expect(noGroup.json()).toMatchObject({ key: 'not_found', details: { deviceGroupHashId: expect.any(String) as string } });
    const noDestination = await add({
      deviceGroupHashId: group,
      messageDestinationHashId: t.hashIds.encode('messageDestination', 999_999),
      messageTypes: ['solarPower'],
    });
    expect(noDestination.statusCode).toBe(404);
    expect(noDestination.json()).toMatchObject({ key: 'not_found', details: { messageDestinationHashId: expect.any(String) as string } });
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', { messageTypes: ['alarm'] }],
      ['DELETE', undefined],
    ] as const) {
      const response = await t.call(method, `${base}/${t.hashIds.encode('deviceGroup', 1)}`, ops, payload);
      expect({ method, status: response.statusCode }).toEqual({ method, status: 404 });
    }
  });

  it('refuses no message type, a type named twice, an unknown type and unknown settings with payload_invalid', async () => {
    const group = await aGroup();
    const destination = await aDestination();
    for (const [payload, path] of [
      [{ messageTypes: [] }, 'messageTypes'],
      [{ messageTypes: ['alarm', 'alarm'] }, 'messageTypes'],
      [{ messageTypes: ['weather'] }, 'messageTypes[0]'],
      [{ messageTypes: ['alarm'], settings: { minIntervalSeconds: -1 } }, 'settings.minIntervalSeconds'],
      [{ messageTypes: ['alarm'], settings: { batch: 5 } }, 'settings'],
    ] as const) {
      const response = await add({ deviceGroupHashId: group, messageDestinationHashId: destination, ...payload });
      expect({ path, status: response.statusCode, body: response.json() as unknown }).toEqual({
        path,
        status: 400,
        body: { key: 'payload_invalid', details: [expect.objectContaining({ path })] },
      });
    }
  });

  it('lets employees read but not write; customers never reach the routes', async () => {
    const group = await aGroup();
    const destination = await aDestination();
    const view = (await add({ deviceGroupHashId: group, messageDestinationHashId: destination, messageTypes: ['evPower'] })).json() as ForwardingView;
    for (const response of [
      await add({ deviceGroupHashId: group, messageDestinationHashId: await aDestination(), messageTypes: ['evPower'] }, employee),
      await t.call('PUT', `${base}/${view.hashId}`, employee, { messageTypes: ['alarm'] }),
      await t.call('DELETE', `${base}/${view.hashId}`, employee),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ key: 'forbidden', details: { required: ['gridport.ops', 'gridport.developer'] } });
    }
    for (const url of [base, `${base}/${view.hashId}`]) {
      expect((await t.call('GET', url, customer)).statusCode).toBe(403);
    }
    expect((await t.call('GET', base)).statusCode).toBe(401);
  });

  it('goes with an empty device group when it is deleted (the forwarding rows cascade)', async () => {
    const group = await aGroup();
    const destination = await aDestination();
    const view = (await add({ deviceGroupHashId: group, messageDestinationHashId: destination, messageTypes: ['alarm'] })).json() as ForwardingView;
    expect((await t.call('DELETE', `/console-admin/v1/device-group/${group}`, ops)).statusCode).toBe(204);
    expect((await t.call('GET', `${base}/${view.hashId}`, employee)).statusCode).toBe(404);
    expect((await t.call('GET', `/console-admin/v1/message-destination/${destination}`, employee)).statusCode).toBe(200);
  });

  it('are described in the OpenAPI document from the same schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    const paths = (response.json() as { paths: Record<string, Record<string, unknown>> }).paths;
    expect(Object.keys(paths[base] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths[`${base}/{hashId}`] ?? {}).sort()).toEqual(['delete', 'get', 'put']);
  });
});
