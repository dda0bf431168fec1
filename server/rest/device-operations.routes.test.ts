import { exampleDeviceConfig } from '../../contracts/device';
import { limits } from '../../contracts/limits';
import { testApp, type TestApp } from '../../test-support/app';
import { aRelease, fakeBalena, type FakeBalena } from '../../test-support/fake-balena';
import { anOrganization, buildDevice, type DeviceOverrides } from '../../test-support/factories';

type Json = Record<string, unknown>;

const admin = '/console-admin/v1';

describe('device operations: firmware, messages, the HubSpot link, the latest firmware', () => {
  let t: TestApp;
  let bare: TestApp;
  let balena: FakeBalena;
  let organizationHashId: string;
  let ops: string;
  let developer: string;
  let employee: string;
  /** A device with a Balena uuid that Balena knows, not in production. */
  let pinnable: string;
  /** A device without a Balena uuid. */
  let uuidless: string;
  /** A device in production with the example config (several MW of nominal power). */
  let production: string;
  let productionWatts: number;

  beforeAll(async () => {
    balena = await fakeBalena();
    balena.devices.push(
      { id: 11, uuid: 'uuid-pinnable', os_version: 'balenaOS 5.3.0', is_running__release: null, is_pinned_on__release: null },
      { id: 12, uuid: 'uuid-production', os_version: 'balenaOS 5.3.0', is_running__release: null, is_pinned_on__release: null },
    );
    aRelease(balena, '1.0.0', '2026-01-01T00:00:00.000Z');
    aRelease(balena, '1.2.0-rc.1', '2026-02-01T00:00:00.000Z');
    aRelease(balena, '1.2.0', '2026-03-01T00:00:00.000Z');
    t = await testApp({}, { balena: balena.settings({ timeoutMs: 200 }), hubspot: { portalId: '5551234' } });
    bare = await testApp();
    organizationHashId = (await anOrganization(t.services, { name: 'Firmware BV' })).hashId;
    ops = await t.signIn(['gridport.ops']);
    developer = await t.signIn(['gridport.developer']);
    employee = await t.signIn(['gridport.employee']);

    const device = async (name: string, overrides: DeviceOverrides) => (await buildDevice(t.services, { organizationHashId, name, ...overrides })).hashId;
    pinnable = await device('Pinnable', { balenaUuid: 'uuid-pinnable', config: exampleDeviceConfig });
    uuidless = await device('Uuidless', { config: exampleDeviceConfig });
    production = await device('Production', { balenaUuid: 'uuid-production', config: exampleDeviceConfig, inProduction: true });
    const view = await t.call('GET', `${admin}/device/${production}`, ops);
    productionWatts = (view.json() as { nominalActivePowerSum: number }).nominalActivePowerSum;
  });

  afterEach(() => {
    balena.mode = 'ok';
  });

  afterAll(async () => {
    await t.close();
    await bare.close();
    await balena.close();
  });

  const deviceId = (hashId: string) => t.hashIds.decode('device', hashId) ?? 0;
  const pinnedFirmware = async (hashId: string) =>
    ((await t.database.db('devices').where('id', deviceId(hashId)).first()) as { pinned_firmware: string | null }).pinned_firmware;

  it('are described in the OpenAPI document', async () => {
    const paths = Object.keys((await t.call('GET', '/openapi.json')).json<{ paths: Json }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        `${admin}/device/{hashId}/firmware`,
        `${admin}/device/{hashId}/send-message`,
        `${admin}/device/{hashId}/hubspot`,
        `${admin}/latest-firmware`,
      ]),
    );
  });

  describe('POST /device/{hashId}/firmware', () => {
    it('pins the device to the latest successful release without a version, and records it with an audit entry', async () => {
      const response = await t.call('POST', `${admin}/device/${pinnable}/firmware`, ops);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ remainingAllowance: null });
      expect(balena.devices.find((device) => device.id === 11)?.is_pinned_on__release).toBe(1002);
      expect(await pinnedFirmware(pinnable)).toBe('1.2.0');
      const audit = (await t.database
        .db('audit_log')
        .where({ object_type: 'devices', object_id: deviceId(pinnable), change_type: 'controllerUpdate' })
        .orderBy('id', 'desc')
        .first()) as { diff: unknown };
      expect(audit.diff).toEqual([{ type: 'string', name: 'pinnedFirmware', oldValue: null, newValue: '1.2.0' }]);
    });

    it('pins to the release with the given version, pre-releases included, for a developer too', async () => {
      const response = await t.call('POST', `${admin}/device/${pinnable}/firmware`, developer, { semver: '1.2.0-rc.1' });
      expect(response.statusCode).toBe(200);
      expect(balena.devices.find((device) => device.id === 11)?.is_pinned_on__release).toBe(1001);
      expect(await pinnedFirmware(pinnable)).toBe('1.2.0-rc.1');
    });

    it('refuses a version that is not semver with invalid_version_format, and one the fleet lacks with semver_not_found', async () => {
      for (const semver of ['1.2', 'v1.2.3', '1.2.3.4', 'latest', '01.2.3']) {
        const response = await t.call('POST', `${admin}/device/${pinnable}/firmware`, ops, { semver });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ key: 'invalid_version_format', details: { semver } });
      }
      const missing = await t.call('POST', `${admin}/device/${pinnable}/firmware`, ops, { semver: '3.0.0' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ key: 'semver_not_found', details: { semver: '3.0.0' } });
      expect((await t.call('POST', `${admin}/device/${pinnable}/firmware`, ops, { version: '1.0.0' })).json()).toMatchObject({ key: 'payload_invalid' });
    });

    it('answers no_balena_uuid for a device without one, and for one Balena does not know', async () => {
      const response = await t.call('POST', `${admin}/device/${uuidless}/firmware`, ops);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ key: 'no_balena_uuid', details: { deviceHashId: uuidless } });
      const unknown = await buildDevice(t.services, { organizationHashId, name: 'Unknown to Balena', balenaUuid: 'uuid-elsewhere' });
      expect((await t.call('POST', `${admin}/device/${unknown.hashId}/firmware`, ops)).json()).toMatchObject({
        key: 'no_balena_uuid',
        details: { balenaUuid: 'uuid-elsewhere' },
      });
    });

    it('answers balena_unavailable when Balena fails or does not answer in time, and changes nothing', async () => {
      const before = await pinnedFirmware(pinnable);
      balena.mode = 'fail';
      const failed = await t.call('POST', `${admin}/device/${pinnable}/firmware`, ops, { semver: '1.0.0' });
      expect(failed.statusCode).toBe(503);
      expect(failed.json()).toEqual({ key: 'balena_unavailable', details: { status: 500 } });
      balena.mode = 'hang';
      const hung = await t.call('POST', `${admin}/device/${pinnable}/firmware`, ops, { semver: '1.0.0' });
      expect(hung.statusCode).toBe(503);
      expect(hung.json()).toEqual({ key: 'balena_unavailable', details: { reason: 'no answer within 200 ms' } });
      expect(await pinnedFirmware(pinnable)).toBe(before);
    });

    it('draws on the allowance for a device in production, and refuses a pin that exceeds what is left', async () => {
      const user = await t.signIn(['gridport.ops']);
      const first = await t.call('POST', `${admin}/device/${production}/firmware`, user, { semver: '1.0.0' });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ remainingAllowance: limits.dangerousActionAllowanceWatts - productionWatts });
      expect(balena.devices.find((device) => device.id === 12)?.is_pinned_on__release).toBe(1000);
      let answer = first;
      while (answer.statusCode === 200) {
        answer = await t.call('POST', `${admin}/device/${production}/firmware`, user, { semver: '1.0.0' });
      }
      expect(answer.statusCode).toBe(429);
      expect(answer.json()).toMatchObject({ key: 'rate_limit_exceeded_for_dangerous_actions', details: { requested: productionWatts } });
    });

    it('answers not_found for an unknown device and forbidden for an employee', async () => {
      const unknown = await t.call('POST', `${admin}/device/zzzzzzzz/firmware`, ops);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ key: 'not_found' });
      const employeeCall = await t.call('POST', `${admin}/device/${pinnable}/firmware`, employee);
      expect(employeeCall.statusCode).toBe(403);
      expect(employeeCall.json()).toMatchObject({ key: 'forbidden' });
    });

    it('answers no_balena_credentials without a Balena token', async () => {
      const cookie = await bare.signIn(['gridport.ops']);
      const response = await bare.call('POST', `${admin}/device/${pinnable}/firmware`, cookie);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ key: 'no_balena_credentials' });
    });
  });

  describe('GET /latest-firmware', () => {
    it("answers the version of the fleet's newest successful release to any employee", async () => {
      const response = await t.call('GET', `${admin}/latest-firmware`, employee);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ latestDeviceFirmware: '1.2.0' });
    });

    it('answers null without releases, no_balena_credentials without a token, and balena_unavailable when Balena fails', async () => {
      const kept = balena.releases.splice(0);
      try {
        expect((await t.call('GET', `${admin}/latest-firmware`, employee)).json()).toEqual({ latestDeviceFirmware: null });
        const none = await t.call('POST', `${admin}/device/${pinnable}/firmware`, ops);
        expect(none.statusCode).toBe(404);
        expect(none.json()).toEqual({ key: 'no_releases_found', details: { fleetId: balena.fleetId } });
      } finally {
        balena.releases.push(...kept);
      }
      const bareCall = await bare.call('GET', `${admin}/latest-firmware`, await bare.signIn(['gridport.employee']));
      expect(bareCall.statusCode).toBe(503);
      expect(bareCall.json()).toMatchObject({ key: 'no_balena_credentials' });
      balena.mode = 'fail';
      expect((await t.call('GET', `${admin}/latest-firmware`, employee)).json()).toEqual({ key: 'balena_unavailable', details: { status: 500 } });
    });
  });

  describe('GET /device/{hashId}/hubspot', () => {
    it("redirects (303) to the device's tickets in HubSpot", async () => {
      const response = await t.call('GET', `${admin}/device/${pinnable}/hubspot`, employee);
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`https://app.hubspot.com/contacts/5551234/objects/0-5/views/all/list?query=${encodeURIComponent(pinnable)}`);
    });

    it('answers not_found for an unknown device, and service_unavailable without a portal id', async () => {
      expect((await t.call('GET', `${admin}/device/zzzzzzzz/hubspot`, employee)).statusCode).toBe(404);
      const response = await bare.call('GET', `${admin}/device/${pinnable}/hubspot`, await bare.signIn(['gridport.employee']));
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ key: 'service_unavailable', details: { reason: 'HUBSPOT_PORTAL_ID is not set' } });
    });
  });

  describe('POST /device/{hashId}/send-message', () => {
    it('queues the message for the device with an audit entry, answering its id', async () => {
      const response = await t.call('POST', `${admin}/device/${pinnable}/send-message`, ops, { message: { type: 'reboot', hard: true } });
      expect(response.statusCode).toBe(201);
      const body = response.json() as { messageId: string; remainingAllowance: null };
      expect(body).toEqual({ messageId: expect.stringMatching(/^\d+$/), remainingAllowance: null });
      const pending = await t.services.deviceOutbox.pending(deviceId(pinnable));
      expect(pending.find((message) => String(message.id) === body.messageId)?.payload).toEqual({ type: 'reboot', hard: true });
      const audit = (await t.database
        .db('audit_log')
        .where({ object_type: 'devices', object_id: deviceId(pinnable), change_type: 'controllerMessageToDevice' })
        .orderBy('id', 'desc')
        .first()) as { diff: unknown };
      expect(audit.diff).toEqual([{ type: 'message-to-device', name: 'reboot', message: { type: 'reboot', hard: true } }]);
    });

    it('refuses setConfig and invalid messages with payload_invalid under message.', async () => {
      const setConfig = await t.call('POST', `${admin}/device/${pinnable}/send-message`, ops, { message: { type: 'setConfig', config: exampleDeviceConfig } });
      expect(setConfig.statusCode).toBe(400);
      expect(setConfig.json()).toEqual({
        key: 'payload_invalid',
        details: [{ path: 'message.type', message: 'config changes go through PUT /device/{hashId}' }],
      });
      const unknownType = await t.call('POST', `${admin}/device/${pinnable}/send-message`, ops, { message: { type: 'selfDestruct' } });
      expect(unknownType.json()).toMatchObject({ key: 'payload_invalid', details: [{ path: 'message.type' }] });
      const tooLong = await t.call('POST', `${admin}/device/${pinnable}/send-message`, ops, { message: { type: 'getJournal', lines: 501 } });
      expect(tooLong.json()).toMatchObject({ key: 'payload_invalid', details: [{ path: 'message.lines' }] });
      const missing = await t.call('POST', `${admin}/device/${pinnable}/send-message`, ops, {});
      expect(missing.json()).toMatchObject({ key: 'payload_invalid', details: [{ path: 'message' }] });
    });

    it('draws on the allowance for a device in production, and refuses what exceeds it', async () => {
      const user = await t.signIn(['gridport.developer']);
      const first = await t.call('POST', `${admin}/device/${production}/send-message`, user, { message: { type: 'getSignalQuality' } });
      expect(first.statusCode).toBe(201);
      expect((first.json() as { remainingAllowance: number }).remainingAllowance).toBe(limits.dangerousActionAllowanceWatts - productionWatts);
      let answer = first;
      while (answer.statusCode === 201) {
        answer = await t.call('POST', `${admin}/device/${production}/send-message`, user, { message: { type: 'getSignalQuality' } });
      }
      expect(answer.statusCode).toBe(429);
      expect(answer.json()).toMatchObject({ key: 'rate_limit_exceeded_for_dangerous_actions', details: { requested: productionWatts } });
    });

    it('answers not_found for an unknown device and forbidden for an employee', async () => {
      expect((await t.call('POST', `${admin}/device/zzzzzzzz/send-message`, ops, { message: { type: 'debugPing' } })).statusCode).toBe(404);
      const response = await t.call('POST', `${admin}/device/${pinnable}/send-message`, employee, { message: { type: 'debugPing' } });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ key: 'forbidden' });
    });
  });
});
