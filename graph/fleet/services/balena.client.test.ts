import { GridportError } from '../../../contracts/errors';
import { aRelease, fakeBalena, type FakeBalena } from '../../../test-support/fake-balena';
import { BalenaClient } from './balena.client';

/** The GridportError a promise rejects with (fails the test when it resolves or throws something else). */
async function refusal(promise: Promise<unknown>): Promise<{ key: string; details: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof GridportError) {
      return { key: error.key, details: error.details };
    }
    throw error;
  }
  throw new Error('the call succeeded');
}

describe('the Balena client, against a local server that speaks the v7 API', () => {
  let balena: FakeBalena;
  let client: BalenaClient;

  beforeAll(async () => {
    balena = await fakeBalena();
    client = new BalenaClient(`${balena.url}/`, balena.token, balena.fleetId, 200);
    aRelease(balena, '1.0.0', '2026-01-01T00:00:00.000Z');
    aRelease(balena, '1.2.0', '2026-03-01T00:00:00.000Z');
    aRelease(balena, '1.1.0', '2026-02-01T00:00:00.000Z');
    aRelease(balena, '2.0.0', '2026-04-01T00:00:00.000Z', { status: 'failed' });
    aRelease(balena, '3.0.0', '2026-04-15T00:00:00.000Z', { is_invalidated: true });
    aRelease(balena, '9.9.9', '2026-05-01T00:00:00.000Z', { belongs_to__application: 999 });
    balena.devices.push({ id: 77, uuid: 'a1b2c3d4e5f6', os_version: 'balenaOS 5.3.0', is_running__release: { __id: 1000 }, is_pinned_on__release: null });
  });

  afterEach(() => {
    balena.mode = 'ok';
    balena.requests.length = 0;
  });

  afterAll(async () => {
    await balena.close();
  });

  it('is not built without a token or a fleet', () => {
    expect(BalenaClient.fromSettings(undefined)).toBeNull();
    expect(BalenaClient.fromSettings({ apiUrl: balena.url, apiToken: null, fleetId: 1 })).toBeNull();
    expect(BalenaClient.fromSettings({ apiUrl: balena.url, apiToken: 'x', fleetId: null })).toBeNull();
    expect(BalenaClient.fromSettings(balena.settings())).toBeInstanceOf(BalenaClient);
  });

  it('finds a device by uuid with the documented $filter and $select, and null for an unknown uuid', async () => {
    expect(await client.findDevice('a1b2c3d4e5f6')).toEqual({
      id: 77,
      uuid: 'a1b2c3d4e5f6',
      os_version: 'balenaOS 5.3.0',
      is_running__release: { __id: 1000 },
    });
    expect(balena.requests[0]).toEqual({
      method: 'GET',
      path: '/v7/device',
      query: { $filter: "uuid eq 'a1b2c3d4e5f6'", $select: 'id,uuid,os_version,is_running__release' },
      body: null,
    });
    expect(await client.findDevice("o'neil")).toBeNull();
    expect(balena.requests[1]?.query.$filter).toBe("uuid eq 'o''neil'");
  });

  it("lists the fleet's successful releases, newest first", async () => {
    const releases = await client.successfulReleases();
    expect(releases.map((release) => release.semver)).toEqual(['1.2.0', '1.1.0', '1.0.0']);
    expect(releases[0]).toEqual({ id: 1001, commit: expect.any(String), semver: '1.2.0', raw_version: '1.2.0', created_at: '2026-03-01T00:00:00.000Z' });
    expect(balena.requests[0]?.query).toEqual({
      $filter: `belongs_to__application eq ${balena.fleetId} and status eq 'success' and is_invalidated eq false`,
      $select: 'id,commit,semver,raw_version,created_at',
      $orderby: 'created_at desc',
    });
  });

  it('pins a device to a release and unpins it', async () => {
    await client.pin(77, 1001);
    expect(balena.devices[0]?.is_pinned_on__release).toBe(1001);
    expect(balena.requests[0]).toEqual({ method: 'PATCH', path: '/v7/device(77)', query: {}, body: { is_pinned_on__release: 1001 } });
    await client.unpin(77);
    expect(balena.devices[0]?.is_pinned_on__release).toBeNull();
    expect(balena.requests[1]?.body).toEqual({ is_pinned_on__release: null });
  });

  it('answers balena_unavailable when Balena fails with a 5xx', async () => {
    balena.mode = 'fail';
    expect(await refusal(client.successfulReleases())).toEqual({ key: 'balena_unavailable', details: { status: 500 } });
  });

  it('answers balena_unavailable when Balena does not answer in time', async () => {
    balena.mode = 'hang';
    const started = Date.now();
    expect(await refusal(client.findDevice('a1b2c3d4e5f6'))).toEqual({ key: 'balena_unavailable', details: { reason: 'no answer within 200 ms' } });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('answers balena_unavailable when Balena cannot be reached', async () => {
    const nowhere = new BalenaClient('http://127.0.0.1:1', balena.token, balena.fleetId, 200);
    expect(await refusal(nowhere.successfulReleases())).toEqual({ key: 'balena_unavailable', details: { reason: 'Balena could not be reached' } });
  });

  it('answers no_balena_credentials when Balena refuses the token', async () => {
    const wrongToken = new BalenaClient(balena.url, 'wrong', balena.fleetId, 200);
    expect(await refusal(wrongToken.findDevice('a1b2c3d4e5f6'))).toEqual({ key: 'no_balena_credentials', details: { reason: 'Balena refused the token' } });
  });
});
