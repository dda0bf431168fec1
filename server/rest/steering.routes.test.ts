import { exampleDeviceConfig } from '../../contracts/device';
import { limits } from '../../contracts/limits';
import type { CloudApiLevel } from '../../contracts/fleet';
import type { Actor } from '../../graph/common/context';
import { testApp, type TestApp } from '../../test-support/app';
import { anOrganization, buildApiKey, buildDevice, buildUser, type DeviceOverrides } from '../../test-support/factories';
import { remainingAllowanceHeader } from './steering.routes';

type Json = Record<string, unknown>;

const hour = 60 * 60 * 1000;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const item = (startOffset: number, endOffset: number, command: Json = { type: 'limitProductionPower', percentage: 50 }) => ({
  startAt: iso(startOffset),
  endAt: iso(endOffset),
  command,
});

describe('the steering API: GET /v2/device, PUT /v2/schedule, PUT /v1/parameters', () => {
  let t: TestApp;
  let organizationHashId: string;
  let otherHashId: string;
  let ops: string;
  let tradingKey: string;
  let userlessKey: string;
  let steerable: string[];
  let readOnly: string;
  let off: string;
  let foreign: string;

  beforeAll(async () => {
    t = await testApp();
    organizationHashId = (await anOrganization(t.services, { name: 'Steering Trader BV', type: 'energy-trader' })).hashId;
    otherHashId = (await anOrganization(t.services, { name: 'Steering Other BV' })).hashId;
    ops = await t.signIn(['gridport.ops']);
    // A key created by a staff user records that user: dangerous actions through it draw on that user's allowance.
    const creator = await buildUser(t.services, { name: 'Key Maker', email: 'key.maker@example.com', rights: ['gridport.ops'] });
    const creatorActor: Actor = { kind: 'user', userId: creator.id, apiKeyId: null, organizationId: 1, rights: ['gridport.ops'], name: 'Key Maker' };
    tradingKey = (await buildApiKey(t.services, { actor: creatorActor, organizationHashId, name: 'Trading' })).apiKey;
    userlessKey = (await buildApiKey(t.services, { organizationHashId, name: 'No user' })).apiKey;

    /** A device with the example config; on one that is not READ_WRITE every identifier gets a prefix, so that it does not share them. */
    const device = async (organization: string, cloudApi: CloudApiLevel, extra: DeviceOverrides = {}) => {
      const prefix = cloudApi === 'READ_WRITE' ? '' : `${cloudApi.toLowerCase()}-`;
      const rename = <T extends { identifier?: string }>(entry: T): T => (entry.identifier ? { ...entry, identifier: `${prefix}${entry.identifier}` } : entry);
      const config = { ...exampleDeviceConfig, assets: exampleDeviceConfig.assets.map(rename), activeControl: exampleDeviceConfig.activeControl.map(rename) };
      const built = await buildDevice(t.services, {
        organizationHashId: organization,
        name: `Steered ${cloudApi}`,
        config,
        isExposedToCustomer: true,
        cloudApi,
        ...extra,
      });
      return built.hashId;
    };
    steerable = [await device(organizationHashId, 'READ_WRITE'), await device(organizationHashId, 'READ_WRITE')];
    readOnly = await device(organizationHashId, 'READ');
    off = await device(organizationHashId, 'OFF');
    foreign = await device(otherHashId, 'READ_WRITE');
  });

  afterAll(async () => {
    await t.close();
  });

  const pendingOf = async (hashId: string) => t.services.deviceOutbox.pending(t.hashIds.decode('device', hashId) ?? 0);

  it('lists the devices the key may see whose cloud API is on, page by page', async () => {
    const first = await t.call('GET', '/v2/device?rowsPerPage=2', { bearer: tradingKey });
    expect(first.statusCode).toBe(200);
    const page = first.json() as { devices: { hashId: string; cloudApi: string; assets: Json[]; controllers: Json[] }[]; nextPageOffset: string };
    expect(page.devices.map((row) => row.hashId)).toEqual(steerable);
    expect(page.devices[0]).toMatchObject({
      name: 'Steered READ_WRITE',
      cloudApi: 'READ_WRITE',
      reportingInterval: 60,
      dataForwarding: false,
      inProduction: false,
      isOnline: false,
    });
    expect(page.devices[0]?.assets[0]).toEqual({
      type: 'sma-sunny-tripower',
      category: 'solar',
      identifier: 'pv-roof',
      nominalActivePower: 100000,
      schedule: [],
    });
    expect(page.devices[0]?.controllers[0]).toMatchObject({ type: 'proportionalPeakShaver', identifier: 'peak-shaver', schedule: [] });
    const second = await t.call('GET', `/v2/device?rowsPerPage=2&offset=${page.nextPageOffset}`, { bearer: tradingKey });
    const rest = (second.json() as { devices: { hashId: string; cloudApi: string }[]; nextPageOffset: null }).devices;
    expect(rest.map((row) => [row.hashId, row.cloudApi])).toEqual([[readOnly, 'READ']]);
    expect(rest.map((row) => row.hashId)).not.toContain(off);
    expect(rest.map((row) => row.hashId)).not.toContain(foreign);
    expect((await t.call('GET', '/v2/device?offset=abc', { bearer: tradingKey })).json()).toMatchObject({ key: 'invalid_offset' });
  });

  it('needs an API key with customer.write: a console session is forbidden', async () => {
    const session = await t.call('GET', '/v2/device', await t.signIn(['customer.write'], organizationHashId));
    expect(session.statusCode).toBe(403);
    expect((await t.call('GET', '/v2/device')).statusCode).toBe(401);
  });

  it('replaces the schedule of every asset with the identifiers, queues it per device, and drops what ended in the last 24 hours', async () => {
    const recent = item(-3 * hour, -hour);
    const next = item(hour, 2 * hour);
    const response = await t.call('PUT', '/v2/schedule', { bearer: tradingKey }, { assetIdentifiers: ['pv-roof', 'bess-1'], schedule: [recent, next] });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ deviceHashIds: steerable, droppedCommands: 1, remainingAllowance: null });
    const [first] = steerable;
    const messages = await pendingOf(first ?? '');
    const schedules = messages.filter((message) => message.type === 'setAssetSchedule').map((message) => message.payload);
    expect(schedules).toEqual([
      { type: 'setAssetSchedule', assetIndex: 0, schedule: [next] },
      { type: 'setAssetSchedule', assetIndex: 3, schedule: [next] },
    ]);
    const listed = (await t.call('GET', '/v2/device', { bearer: tradingKey })).json() as {
      devices: { assets: { identifier: string; schedule: unknown[] }[] }[];
    };
    expect(listed.devices[0]?.assets.find((asset) => asset.identifier === 'pv-roof')?.schedule).toEqual([next]);

    const replacement = item(3 * hour, 4 * hour, { type: 'setBatteryOperation', dispatchPower: -50000 });
    expect((await t.call('PUT', '/v2/schedule', { bearer: tradingKey }, { assetIdentifiers: ['bess-1'], schedule: [replacement] })).statusCode).toBe(201);
    const after = (await t.call('GET', '/v2/device', { bearer: tradingKey })).json() as {
      devices: { assets: { identifier: string; schedule: unknown[] }[] }[];
    };
    // Stored as the schema casts it: the defaults of the command filled in.
    expect(after.devices[0]?.assets.find((asset) => asset.identifier === 'bess-1')?.schedule).toEqual([
      { ...replacement, command: { ...replacement.command, deliverFCR: false, chargeToState: null } },
    ]);
    expect(after.devices[0]?.assets.find((asset) => asset.identifier === 'pv-roof')?.schedule).toEqual([next]);

    const audit = await t.database
      .db('audit_log')
      .where({ object_type: 'devices', object_id: t.hashIds.decode('device', first ?? ''), change_type: 'controllerMessageToDevice' });
    expect(audit.length).toBeGreaterThanOrEqual(2);
  });

  it('schedules controllers by their identifiers', async () => {
    const response = await t.call(
      'PUT',
      '/v2/schedule',
      { bearer: tradingKey },
      {
        controllerIdentifiers: ['peak-shaver'],
        schedule: [item(hour, 2 * hour, { type: 'limitPower', feedIn: 100000, consume: 200000 })],
      },
    );
    expect(response.statusCode).toBe(201);
    const messages = await pendingOf(steerable[1] ?? '');
    expect(messages.at(-1)?.payload).toMatchObject({ type: 'setAssetSchedule', controlLoopIndex: 0 });
  });

  it('refuses the whole call for an end more than 24 hours ago, a start too far ahead, or an interval too long', async () => {
    const cases: [Json, string][] = [
      [item(-30 * hour, -25 * hour), 'end_at_too_far_in_the_past'],
      [item(25 * 24 * hour, 26 * 24 * hour), 'start_at_too_far_in_future'],
      [item(hour, hour + 2147483648), 'interval_too_long'],
    ];
    for (const [bad, key] of cases) {
      const response = await t.call('PUT', '/v2/schedule', { bearer: tradingKey }, { assetIdentifiers: ['pv-roof'], schedule: [item(hour, 2 * hour), bad] });
      expect({ status: response.statusCode, body: response.json() }).toEqual({
        status: 400,
        body: { key, details: { index: 1, startAt: bad.startAt, endAt: bad.endAt } },
      });
    }
  });

  it('checks the body: at most 192 commands, 1 to 100 identifiers, exactly one kind of identifier', async () => {
    const many = Array.from({ length: 193 }, () => item(hour, 2 * hour));
    expect((await t.call('PUT', '/v2/schedule', { bearer: tradingKey }, { assetIdentifiers: ['pv-roof'], schedule: many })).json()).toMatchObject({
      key: 'payload_invalid',
      details: [{ path: 'schedule' }],
    });
    const identifiers = Array.from({ length: 101 }, (_, index) => `asset-${index}`);
    expect((await t.call('PUT', '/v2/schedule', { bearer: tradingKey }, { assetIdentifiers: identifiers, schedule: [] })).json()).toMatchObject({
      key: 'payload_invalid',
      details: [{ path: 'assetIdentifiers' }],
    });
    expect((await t.call('PUT', '/v2/schedule', { bearer: tradingKey }, { assetIdentifiers: [], schedule: [] })).json()).toMatchObject({
      key: 'payload_invalid',
    });
    expect(
      (
        await t.call('PUT', '/v2/schedule', { bearer: tradingKey }, { assetIdentifiers: ['pv-roof'], controllerIdentifiers: ['peak-shaver'], schedule: [] })
      ).json(),
    ).toMatchObject({
      key: 'payload_invalid',
    });
    expect(
      (
        await t.call(
          'PUT',
          '/v2/schedule',
          { bearer: tradingKey },
          { assetIdentifiers: ['pv-roof'], schedule: [{ ...item(hour, 2 * hour), command: { type: 'fly' } }] },
        )
      ).json(),
    ).toMatchObject({ key: 'payload_invalid', details: [{ path: 'schedule[0].command.type' }] });
  });

  it('names every unknown identifier, including those only on devices of another organisation', async () => {
    const response = await t.call('PUT', '/v2/schedule', { bearer: tradingKey }, { assetIdentifiers: ['pv-roof', 'nowhere', 'also-nowhere'], schedule: [] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ key: 'unknown_identifier', details: { identifiers: ['nowhere', 'also-nowhere'] } });
  });

  it('refuses a write that reaches a device whose cloud API is READ, naming it', async () => {
    const response = await t.call(
      'PUT',
      '/v1/parameters',
      { bearer: tradingKey },
      { assetIdentifiers: ['read-furnace'], parameters: { type: 'sagerFurnace', schedule: [] } },
    );
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      key: 'forbidden',
      details: { reason: 'the cloud API level of these devices is not READ_WRITE', deviceHashIds: [readOnly] },
    });
  });

  it('writes parameters to the assets of their kind only', async () => {
    const furnace = { type: 'sagerFurnace', schedule: [{ charge: 80, startAt: iso(hour), endAt: iso(2 * hour) }] };
    const response = await t.call('PUT', '/v1/parameters', { bearer: tradingKey }, { assetIdentifiers: ['furnace'], parameters: furnace });
    expect(response.statusCode).toBe(204);
    expect((await pendingOf(steerable[0] ?? '')).at(-1)?.payload).toEqual({ type: 'setAssetParameters', assetIndex: 4, parameters: furnace });
    const hedno = await t.call(
      'PUT',
      '/v1/parameters',
      { bearer: tradingKey },
      { assetIdentifiers: ['hedno'], parameters: { type: 'hedno', localMode: true } },
    );
    expect(hedno.statusCode).toBe(204);
    expect((await pendingOf(steerable[0] ?? '')).at(-1)?.payload).toMatchObject({
      type: 'setAssetParameters',
      controlLoopIndex: expect.any(Number),
      parameters: { type: 'hedno', localMode: true },
    });

    const wrongKind = await t.call(
      'PUT',
      '/v1/parameters',
      { bearer: tradingKey },
      { assetIdentifiers: ['furnace'], parameters: { type: 'demoBattery', errors: ['E1'] } },
    );
    expect(wrongKind.json()).toEqual({
      key: 'payload_invalid',
      details: [{ path: 'assetIdentifiers', message: 'demoBattery parameters are for demo-battery; furnace is a sager-furnace' }],
    });
    const tooMany = { type: 'sagerFurnace', schedule: Array.from({ length: 12 }, () => ({ charge: 50, startAt: iso(hour), endAt: iso(2 * hour) })) };
    expect((await t.call('PUT', '/v1/parameters', { bearer: tradingKey }, { assetIdentifiers: ['furnace'], parameters: tooMany })).json()).toMatchObject({
      key: 'payload_invalid',
      details: [{ path: 'parameters.schedule' }],
    });
    expect((await t.call('PUT', '/v1/parameters', { bearer: tradingKey }, { assetIdentifiers: ['ghost'], parameters: furnace })).json()).toEqual({
      key: 'unknown_identifier',
      details: { identifiers: ['ghost'] },
    });
  });

  it('draws on the allowance for devices in production, refuses what exceeds it, and needs a user behind the key', async () => {
    const [production] = steerable;
    await t.call('PUT', `/console-admin/v1/device/${production}`, ops, { inProduction: true });
    const spent = await t.call('PUT', '/v2/schedule', { bearer: tradingKey }, { assetIdentifiers: ['pv-roof'], schedule: [item(hour, 2 * hour)] });
    expect(spent.statusCode).toBe(201);
    expect((spent.json() as { remainingAllowance: number }).remainingAllowance).toBe(limits.dangerousActionAllowanceWatts - 100000);

    const parameters = await t.call(
      'PUT',
      '/v1/parameters',
      { bearer: tradingKey },
      { assetIdentifiers: ['furnace'], parameters: { type: 'sagerFurnace', schedule: [] } },
    );
    expect(parameters.statusCode).toBe(204);
    expect(Number(parameters.headers[remainingAllowanceHeader])).toBeLessThan(limits.dangerousActionAllowanceWatts - 100000);

    const userless = await t.call('PUT', '/v2/schedule', { bearer: userlessKey }, { assetIdentifiers: ['pv-roof'], schedule: [] });
    expect(userless.json()).toEqual({ key: 'dangerous_action_requires_user_id', details: { action: 'schedule' } });

    // The wind turbine is 2 MW: three schedules exhaust what is left.
    let answer = await t.call('PUT', '/v2/schedule', { bearer: tradingKey }, { assetIdentifiers: ['wtg-1'], schedule: [] });
    while (answer.statusCode === 201) {
      answer = await t.call('PUT', '/v2/schedule', { bearer: tradingKey }, { assetIdentifiers: ['wtg-1'], schedule: [] });
    }
    expect(answer.statusCode).toBe(429);
    expect(answer.json()).toMatchObject({ key: 'rate_limit_exceeded_for_dangerous_actions', details: { requested: 2000000 } });
  });
});
