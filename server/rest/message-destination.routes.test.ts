import type { DestinationKind } from '../../contracts/forwarding';
import { defaultForwardingSettings } from '../../graph/forwarding/services/forwarding-settings';
import { testApp, type TestApp } from '../../test-support/app';
import { anOrganization, buildDeviceGroup, buildDevice, buildUser } from '../../test-support/factories';

type Json = Record<string, unknown>;

interface DestinationView {
  hashId: string;
  name: string;
  type: DestinationKind;
  organizationHashId: string;
  organization: { hashId: string; name: string };
  outageEmails: string[];
  outageUsers: { hashId: string; name: string; email: string }[];
  destination: Json & { type: DestinationKind };
  secretsSet: string[];
  monitorSettings: { enabled: boolean; maxLagSeconds: number | null };
  nominalActivePowerSum: number;
  health: { state: string; position: string; lagReports: number; deliveredCount: number; pausedReason: string | null };
  createdAt: string;
  updatedAt: string;
}

const base = '/console-admin/v1/message-destination';
const customerBase = '/console/v1/message-destination';

/** A public address (no DNS, never connected to when saved). */
const publicIp = '1.1.1.1';

/** Valid settings of every kind, each secret a text that the answers and the audit log must never hold. */
const validSettings: Record<DestinationKind, Json> = {
  mysql: { type: 'mysql', host: publicIp, database: 'gridport', username: 'writer', password: 'S3cret-mysql' },
  mssql: { type: 'mssql', host: publicIp, database: 'gridport', username: 'writer', password: 'S3cret-mssql' },
  postgres: { type: 'postgres', host: publicIp, database: 'gridport', username: 'writer', password: 'S3cret-postgres' },
  influxdb: { type: 'influxdb', url: `https://${publicIp}:8086`, database: 'gridport', password: 'S3cret-influx', token: 'S3cret-influx-token' },
  amqp: { type: 'amqp', host: publicIp, username: 'writer', password: 'S3cret-amqp' },
  'azure-service-bus': { type: 'azure-service-bus', host: publicIp, entityPath: 'reports', sharedAccessKeyName: 'send', sharedAccessKey: 'S3cret-asb' },
  'grafana-loki': { type: 'grafana-loki', url: `https://${publicIp}:3100`, username: 'loki', password: 'S3cret-loki' },
  'aws-simple-notification-service': {
    type: 'aws-simple-notification-service',
    region: 'eu-west-1',
    topicArn: 'arn:aws:sns:eu-west-1:123456789012:gridport',
    accessKeyId: 'AKIAEXAMPLE',
    secretAccessKey: 'S3cret-sns',
    endpoint: `https://${publicIp}`,
  },
  sftp: { type: 'sftp', host: publicIp, username: 'writer', password: 'S3cret-sftp', privateKey: 'S3cret-sftp-key', format: 'synaptiq' },
  ftps: { type: 'ftps', host: publicIp, username: 'writer', password: 'S3cret-ftps', format: 'qos' },
  http: { type: 'http', url: `https://${publicIp}/ingest`, headers: [{ name: 'Authorization', value: 'Bearer S3cret-http' }] },
  kafka: { type: 'kafka', brokers: [`${publicIp}:9092`], topic: 'reports', username: 'writer', password: 'S3cret-kafka' },
};

/** A required setting of each kind, left out in the payload_invalid test. */
const requiredSetting: Record<DestinationKind, string> = {
  mysql: 'host',
  mssql: 'database',
  postgres: 'username',
  influxdb: 'url',
  amqp: 'username',
  'azure-service-bus': 'sharedAccessKey',
  'grafana-loki': 'url',
  'aws-simple-notification-service': 'topicArn',
  sftp: 'format',
  ftps: 'username',
  http: 'url',
  kafka: 'topic',
};

const secretTexts = /S3cret-[a-z-]+/;

function without(settings: Json, key: string): Json {
  const copy = { ...settings };
  delete copy[key];
  return copy;
}

describe('message destinations', () => {
  let t: TestApp;
  let ownerHashId: string;
  let otherHashId: string;
  let ops: string;
  let developer: string;
  let admin: string;
  let employee: string;
  let customer: string;
  let otherCustomer: string;
  let created = 0;
  /** Every answer body read in this file, to look for secrets in. */
  const answers: string[] = [];

  beforeAll(async () => {
    t = await testApp();
    ownerHashId = (await anOrganization(t.services, { name: 'Forwarding Owner BV' })).hashId;
    otherHashId = (await anOrganization(t.services, { name: 'Forwarding Other BV' })).hashId;
    [ops, developer, admin, employee, customer, otherCustomer] = await Promise.all([
      t.signIn(['gridport.ops']),
      t.signIn(['gridport.developer']),
      t.signIn(['gridport.admin']),
      t.signIn(['gridport.employee']),
      t.signIn(['customer.read'], ownerHashId),
      t.signIn(['customer.write'], otherHashId),
    ]);
  });

  afterAll(async () => {
    await t.close();
  });

  async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie?: string, payload?: object) {
    const response = await t.call(method, url, cookie, payload);
    answers.push(response.body);
    return response;
  }

  async function createDestination(payload: Json = {}, organizationHashId = ownerHashId): Promise<DestinationView> {
    created += 1;
    const response = await call('POST', base, ops, { name: `Destination ${created}`, organizationHashId, destination: validSettings.http, ...payload });
    expect({ status: response.statusCode, body: response.statusCode === 201 ? null : (response.json() as unknown) }).toEqual({ status: 201, body: null });
    return response.json() as DestinationView;
  }

  function idOf(hashId: string): number {
    return t.hashIds.decode('messageDestination', hashId) ?? -1;
  }

  function auditRows(hashId: string) {
    return t.database
      .db('audit_log')
      .where({ object_type: 'message_destinations', object_id: idOf(hashId) })
      .orderBy('id');
  }

  it('creates a destination of every kind: secrets sealed as { iv, encryptedData, tag } in the table, never answered, named in secretsSet', async () => {
    for (const kind of Object.keys(validSettings) as DestinationKind[]) {
      const view = await createDestination({ name: `Every kind ${kind}`, destination: validSettings[kind] });
      expect({ kind, type: view.type, destinationType: view.destination.type }).toEqual({ kind, type: kind, destinationType: kind });
      const secrets = Object.keys(validSettings[kind]).filter((key) => JSON.stringify(validSettings[kind][key]).includes('S3cret'));
      expect({ kind, secretsSet: [...view.secretsSet].sort() }).toEqual({ kind, secretsSet: [...secrets].sort() });
      for (const secret of secrets) {
        expect(view.destination).not.toHaveProperty(secret);
      }
      const row = (await t.database.db('message_destinations').where('id', idOf(view.hashId)).first()) as { settings: Json; type: string };
      expect(row.type).toBe(kind);
      for (const secret of secrets) {
        expect({ kind, secret, stored: row.settings[secret] }).toEqual({
          kind,
          secret,
          stored: {
            iv: expect.stringMatching(/^[0-9a-f]{24}$/) as string,
            encryptedData: expect.stringMatching(/^[0-9a-f]+$/) as string,
            tag: expect.stringMatching(/^[0-9a-f]{32}$/) as string,
          },
        });
      }
      expect(JSON.stringify(row.settings)).not.toMatch(secretTexts);
    }
  });

  it('answers the view with organisation, outage contacts, monitor settings, health and nominalActivePowerSum, and GET answers the same', async () => {
    const ownUser = await buildUser(t.services, { organizationHashId: ownerHashId, rights: ['customer.read'] });
    const view = await createDestination({
      name: '  Warehouse ',
      outageEmails: ['noc@example.com', 'NOC@example.com'],
      outageUsersHashIds: [ownUser.hashId],
      monitorSettings: { enabled: true, maxLagSeconds: 600 },
    });
    expect(view).toMatchObject({
      name: 'Warehouse',
      type: 'http',
      organizationHashId: ownerHashId,
      organization: { hashId: ownerHashId, name: 'Forwarding Owner BV' },
      outageEmails: ['noc@example.com'],
      outageUsers: [{ hashId: ownUser.hashId, name: ownUser.name, email: ownUser.email }],
      destination: { type: 'http', url: `https://${publicIp}/ingest`, method: 'POST', timeoutMs: 10_000 },
      secretsSet: ['headers'],
      monitorSettings: { enabled: true, maxLagSeconds: 600 },
      nominalActivePowerSum: 0,
      health: { state: 'active', pausedReason: null, lagReports: 0, deliveredCount: 0 },
    });
    expect(view.health.position).toMatch(/^\d+$/);
    const got = await call('GET', `${base}/${view.hashId}`, employee);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(view);
    const delivery = await t.database.db('message_destination_deliveries').where('message_destination_id', idOf(view.hashId));
    expect(delivery).toHaveLength(1);
  });

  it('fills the default ports: mysql 3306, mssql 1433, postgres 5432', async () => {
    for (const [kind, port] of [
      ['mysql', 3306],
      ['mssql', 1433],
      ['postgres', 5432],
    ] as const) {
      const view = await createDestination({ destination: validSettings[kind] });
      expect({ kind, port: view.destination.port, table: view.destination.table }).toEqual({ kind, port, table: 'gridport_reports' });
    }
  });

  it('refuses a missing required setting of every kind with payload_invalid under destination.', async () => {
    for (const kind of Object.keys(validSettings) as DestinationKind[]) {
      const key = requiredSetting[kind];
      const response = await call('POST', base, ops, { name: 'Missing', organizationHashId: ownerHashId, destination: without(validSettings[kind], key) });
      expect({ kind, status: response.statusCode, body: response.json() as unknown }).toEqual({
        kind,
        status: 400,
        body: { key: 'payload_invalid', details: [{ path: `destination.${key}`, message: expect.any(String) as string }] },
      });
    }
  });

  it('refuses an http timeout above 60000, kafka without a broker, an sftp or ftps format other than synaptiq or qos, an unknown kind and an unknown setting', async () => {
    const cases: [Json, string][] = [
      [{ ...validSettings.http, timeoutMs: 60_001 }, 'destination.timeoutMs'],
      [{ ...validSettings.kafka, brokers: [] }, 'destination.brokers'],
      [{ ...validSettings.sftp, format: 'csv' }, 'destination.format'],
      [{ ...validSettings.ftps, format: 'json' }, 'destination.format'],
      [{ ...validSettings.postgres, port: 70_000 }, 'destination.port'],
      [{ ...validSettings.postgres, colour: 'blue' }, 'destination'],
      [{ ...validSettings.http, type: 'carrier-pigeon' }, 'destination.type'],
    ];
    for (const [destination, path] of cases) {
      const response = await call('POST', base, ops, { name: 'Invalid', organizationHashId: ownerHashId, destination });
      expect({ path, status: response.statusCode, body: response.json() as unknown }).toEqual({
        path,
        status: 400,
        body: { key: 'payload_invalid', details: [expect.objectContaining({ path })] },
      });
    }
    const atMost = await call('POST', base, ops, { name: 'Slow', organizationHashId: ownerHashId, destination: { ...validSettings.http, timeoutMs: 60_000 } });
    expect(atMost.statusCode).toBe(201);
    const noDestination = await call('POST', base, ops, { name: 'None', organizationHashId: ownerHashId });
    expect(noDestination.json()).toMatchObject({ key: 'payload_invalid', details: [expect.objectContaining({ path: 'destination.type' })] });
  });

  it('refuses 127.0.0.1, localhost and a private broker with destination_address_not_allowed, on create and on update', async () => {
    const cases: Json[] = [
      { ...validSettings.postgres, host: '127.0.0.1' },
      { ...validSettings.http, url: 'http://localhost:8080/ingest' },
      { ...validSettings.http, url: 'http://169.254.169.254/latest/meta-data' },
      { ...validSettings.kafka, brokers: [`${publicIp}:9092`, '10.0.0.7:9092'] },
      { ...validSettings.sftp, host: '[::1]' },
    ];
    for (const destination of cases) {
      const response = await call('POST', base, ops, { name: 'Inside', organizationHashId: ownerHashId, destination });
      expect({ destination, status: response.statusCode, key: (response.json() as { key: string }).key }).toEqual({
        destination,
        status: 400,
        key: 'destination_address_not_allowed',
      });
    }
    const view = await createDestination({ destination: validSettings.postgres });
    const update = await call('PUT', `${base}/${view.hashId}`, ops, { destination: { ...without(validSettings.postgres, 'password'), host: '127.0.0.1' } });
    expect(update.statusCode).toBe(400);
    expect(update.json()).toMatchObject({ key: 'destination_address_not_allowed', details: [expect.objectContaining({ path: 'destination' })] });
  });

  it('accepts 127.0.0.1 when the install allows private networks', async () => {
    const open = await testApp({}, { forwarding: { ...defaultForwardingSettings, allowPrivateNetworks: true } });
    try {
      const organizationHashId = (await anOrganization(open.services)).hashId;
      const cookie = await open.signIn(['gridport.ops']);
      const response = await open.call('POST', base, cookie, {
        name: 'Local',
        organizationHashId,
        destination: { ...validSettings.postgres, host: '127.0.0.1' },
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ destination: { host: '127.0.0.1', port: 5432 } });
    } finally {
      await open.close();
    }
  });

  it('refuses outage users who cannot see the organisation with user_has_no_access and their hash ids', async () => {
    const staffUser = await buildUser(t.services, { rights: ['gridport.ops'] });
    const foreignUser = (await buildUser(t.services, { organizationHashId: otherHashId, rights: ['customer.read'] })).hashId;
    const unknown = t.hashIds.encode('user', 999_999);
    const response = await call('POST', base, ops, {
      name: 'Contacts',
      organizationHashId: ownerHashId,
      destination: validSettings.http,
      outageUsersHashIds: [staffUser.hashId, foreignUser, unknown],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ key: 'user_has_no_access', details: { hashIds: [foreignUser, unknown] } });
    const view = await createDestination({ outageUsersHashIds: [staffUser.hashId] });
    const update = await call('PUT', `${base}/${view.hashId}`, ops, { outageUsersHashIds: [foreignUser] });
    expect(update.statusCode).toBe(400);
    expect(update.json()).toEqual({ key: 'user_has_no_access', details: { hashIds: [foreignUser] } });
  });

  it('answers not_found for an unknown organisation and an unknown destination or one of another type', async () => {
    const organization = await call('POST', base, ops, {
      name: 'Nowhere',
      organizationHashId: t.hashIds.encode('organization', 999_999),
      destination: validSettings.http,
    });
    expect(organization.statusCode).toBe(404);
    expect(organization.json()).toMatchObject({ key: 'not_found' });
    const view = await createDestination();
    for (const hashId of [t.hashIds.encode('messageDestination', 999_999), t.hashIds.encode('device', idOf(view.hashId))]) {
      for (const [method, url, payload] of [
        ['GET', `${base}/${hashId}`, undefined],
        ['PUT', `${base}/${hashId}`, { name: 'Renamed' }],
        ['PUT', `${base}/${hashId}/resume`, {}],
      ] as const) {
        const response = await call(method, url, admin, payload);
        expect({ method, url, status: response.statusCode, key: (response.json() as { key: string }).key }).toEqual({
          method,
          url,
          status: 404,
          key: 'not_found',
        });
      }
    }
  });

  it('refuses a type change with changing_type; keeps a secret left out, replaces one given, clears one given empty; audits hidden entries only', async () => {
    const view = await createDestination({ destination: validSettings.postgres });
    const change = await call('PUT', `${base}/${view.hashId}`, ops, { destination: validSettings.mysql });
    expect(change.statusCode).toBe(400);
    expect(change.json()).toEqual({ key: 'changing_type', details: { type: 'postgres', requestedType: 'mysql' } });

    const kept = await call('PUT', `${base}/${view.hashId}`, developer, {
      destination: { ...without(validSettings.postgres, 'password'), database: 'archive' },
    });
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({ destination: { database: 'archive', host: publicIp }, secretsSet: ['password'] });
    expect((await t.services.messageDestinations.settingsForDelivery(idOf(view.hashId)))?.settings).toMatchObject({
      database: 'archive',
      password: 'S3cret-postgres',
    });

    const replaced = await call('PUT', `${base}/${view.hashId}`, ops, {
      destination: { ...validSettings.postgres, database: 'archive', password: 'S3cret-rotated' },
    });
    expect(replaced.json()).toMatchObject({ secretsSet: ['password'] });
    expect((await t.services.messageDestinations.settingsForDelivery(idOf(view.hashId)))?.settings.password).toBe('S3cret-rotated');

    const cleared = await call('PUT', `${base}/${view.hashId}`, ops, { destination: { ...validSettings.postgres, database: 'archive', password: '' } });
    expect(cleared.json()).toMatchObject({ secretsSet: [] });
    expect((await t.services.messageDestinations.settingsForDelivery(idOf(view.hashId)))?.settings).not.toHaveProperty('password');

    // A required secret left out is kept, so the update passes the kind's rules.
    const bus = await createDestination({ destination: validSettings['azure-service-bus'] });
    const renamed = await call('PUT', `${base}/${bus.hashId}`, ops, {
      destination: { ...without(validSettings['azure-service-bus'], 'sharedAccessKey'), entityPath: 'other' },
    });
    expect(renamed.json()).toMatchObject({ destination: { entityPath: 'other' }, secretsSet: ['sharedAccessKey'] });

    const audit = await auditRows(view.hashId);
    expect(audit.map((row: { change_type: string }) => row.change_type)).toEqual([
      'controllerCreate',
      'controllerUpdate',
      'controllerUpdate',
      'controllerUpdate',
    ]);
    expect(audit[0].diff).toEqual(
      expect.arrayContaining([
        { type: 'string', name: 'type', oldValue: null, newValue: 'postgres' },
        { type: 'hidden', name: 'destination.password' },
        { type: 'json', name: 'destination', oldValue: null, newValue: expect.objectContaining({ host: publicIp, port: 5432 }) as unknown },
      ]),
    );
    expect(audit[1].diff).toEqual([
      {
        type: 'json',
        name: 'destination',
        oldValue: expect.objectContaining({ database: 'gridport' }) as unknown,
        newValue: expect.objectContaining({ database: 'archive' }) as unknown,
      },
    ]);
    expect(audit[2].diff).toEqual([{ type: 'hidden', name: 'destination.password' }]);
    expect(audit[3].diff).toEqual([{ type: 'hidden', name: 'destination.password' }]);
  });

  it('updates only the fields given, audits the typed diff and nothing when nothing changes', async () => {
    const view = await createDestination({ outageEmails: ['a@example.com'] });
    const renamed = await call('PUT', `${base}/${view.hashId}`, developer, { name: 'Renamed destination' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({
      name: 'Renamed destination',
      outageEmails: ['a@example.com'],
      destination: view.destination,
      secretsSet: ['headers'],
    });
    const monitor = await call('PUT', `${base}/${view.hashId}`, ops, { monitorSettings: { enabled: false, maxLagSeconds: null } });
    expect(monitor.json()).toMatchObject({ monitorSettings: { enabled: false, maxLagSeconds: null } });
    await call('PUT', `${base}/${view.hashId}`, ops, { name: 'Renamed destination' });
    const moved = await call('PUT', `${base}/${view.hashId}`, ops, { organizationHashId: otherHashId });
    expect(moved.json()).toMatchObject({ key: 'payload_invalid' });
    const audit = await auditRows(view.hashId);
    expect(audit.map((row: { diff: unknown }) => row.diff)).toEqual([
      expect.anything(),
      [{ type: 'string', name: 'name', oldValue: view.name, newValue: 'Renamed destination' }],
      [{ type: 'json', name: 'monitorSettings', oldValue: { enabled: true, maxLagSeconds: null }, newValue: { enabled: false, maxLagSeconds: null } }],
    ]);
  });

  it('resumes for a developer (or admin) only: from where it stopped, or from an offset; audits the state and position before and after', async () => {
    const view = await createDestination();
    await t.database
      .db('message_destination_deliveries')
      .where('message_destination_id', idOf(view.hashId))
      .update({ state: 'paused', paused_reason: 'failing', paused_at: new Date(), failing_since: new Date(), failure_count: 9 });
    expect((await call('GET', `${base}/${view.hashId}`, employee)).json()).toMatchObject({ health: { state: 'paused', pausedReason: 'failing' } });

    for (const cookie of [ops, employee]) {
      const refused = await call('PUT', `${base}/${view.hashId}/resume`, cookie, {});
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ key: 'forbidden', details: { required: ['gridport.developer'] } });
    }
    const resumed = await call('PUT', `${base}/${view.hashId}/resume`, developer, {});
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json()).toMatchObject({ hashId: view.hashId, health: { state: 'active', pausedReason: null, position: view.health.position } });

    const replay = await call('PUT', `${base}/${view.hashId}/resume`, admin, { offset: 0 });
    expect(replay.statusCode).toBe(200);
    const badOffset = await call('PUT', `${base}/${view.hashId}/resume`, developer, { offset: -1 });
    expect(badOffset.json()).toMatchObject({ key: 'payload_invalid', details: [expect.objectContaining({ path: 'offset' })] });

    const audit = await auditRows(view.hashId);
    expect(audit.slice(1).map((row: { diff: unknown }) => row.diff)).toEqual([
      [
        { type: 'string', name: 'state', oldValue: 'paused', newValue: 'active' },
        { type: 'string', name: 'position', oldValue: view.health.position, newValue: view.health.position },
      ],
      [
        { type: 'string', name: 'state', oldValue: 'active', newValue: 'active' },
        { type: 'string', name: 'position', oldValue: view.health.position, newValue: expect.stringMatching(/^\d+$/) as string },
      ],
    ]);
  });

  it('lets employees read but not write, and customers only list their own organisation at /console/v1', async () => {
    const own = await createDestination({ name: 'Own of the owner' });
    const foreign = await createDestination({ name: 'Of the other' }, otherHashId);
    for (const response of await Promise.all([
      call('POST', base, employee, { name: 'By an employee', organizationHashId: ownerHashId, destination: validSettings.http }),
      call('PUT', `${base}/${own.hashId}`, employee, { name: 'By an employee' }),
    ])) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ key: 'forbidden', details: { required: ['gridport.ops', 'gridport.developer'] } });
    }
    for (const [method, url] of [
      ['GET', base],
      ['GET', `${base}/${own.hashId}`],
      ['POST', base],
      ['PUT', `${base}/${own.hashId}`],
      ['PUT', `${base}/${own.hashId}/resume`],
    ] as const) {
      const response = await call(method, url, customer, method === 'GET' ? undefined : {});
      expect({ method, url, status: response.statusCode }).toEqual({ method, url, status: 403 });
    }
    expect((await call('GET', base)).statusCode).toBe(401);
    expect((await call('GET', customerBase)).statusCode).toBe(401);
    // The customer route is the customers': staff read at /console-admin.
    expect((await call('GET', customerBase, employee)).statusCode).toBe(403);

    const listed = await call('GET', `${customerBase}?rowsPerPage=500`, customer);
    expect(listed.statusCode).toBe(200);
    const rows = (listed.json() as { rows: DestinationView[] }).rows;
    expect(rows.map((row) => row.hashId)).toContain(own.hashId);
    expect(rows.every((row) => row.organizationHashId === ownerHashId)).toBe(true);
    const otherRows = (await call('GET', `${customerBase}?rowsPerPage=500`, otherCustomer)).json() as { rows: DestinationView[] };
    expect(otherRows.rows.map((row) => row.hashId)).toEqual([foreign.hashId]);
    const naming = await call('GET', `${customerBase}?organizationHashId=${otherHashId}`, customer);
    expect(naming.statusCode).toBe(403);
    expect(naming.json()).toMatchObject({ key: 'forbidden_organization' });
  });

  it('lists newest first by name, organisation, type and state, page by page', async () => {
    const organization = (await anOrganization(t.services, { name: 'Forwarding List BV' })).hashId;
    const made: DestinationView[] = [];
    for (const [name, kind] of [
      ['Alpha', 'http'],
      ['beta', 'postgres'],
      ['ALPHA two', 'kafka'],
      ['Gamma', 'http'],
    ] as const) {
      made.push(await createDestination({ name, destination: validSettings[kind] }, organization));
    }
    const list = async (query: string) => {
      const response = await call('GET', `${base}?organizationHashId=${organization}&${query}`, employee);
      expect(response.statusCode).toBe(200);
      return response.json() as { rows: DestinationView[]; nextPageOffset: string | null };
    };
    expect((await list('')).rows.map((row) => row.name)).toEqual(['Gamma', 'ALPHA two', 'beta', 'Alpha']);
    expect((await list('filter=alpha')).rows.map((row) => row.name)).toEqual(['ALPHA two', 'Alpha']);
    expect((await list('type=http')).rows.map((row) => row.name)).toEqual(['Gamma', 'Alpha']);
    await t.database
      .db('message_destination_deliveries')
      .where('message_destination_id', idOf(made[1]?.hashId ?? ''))
      .update({ state: 'paused', paused_reason: 'failing', paused_at: new Date() });
    expect((await list('state=paused')).rows.map((row) => row.name)).toEqual(['beta']);
    expect((await list('state=active')).rows.map((row) => row.name)).toEqual(['Gamma', 'ALPHA two', 'Alpha']);
    const first = await list('rowsPerPage=3');
    expect(first.rows).toHaveLength(3);
    const second = await list(`rowsPerPage=3&offset=${first.nextPageOffset ?? ''}`);
    expect(second.rows.map((row) => row.name)).toEqual(['Alpha']);
    expect(second.nextPageOffset).toBeNull();
    expect((await call('GET', `${base}?type=fax`, employee)).json()).toMatchObject({ key: 'query_invalid' });
    expect((await call('GET', `${base}?offset=nonsense`, employee)).json()).toMatchObject({ key: 'invalid_offset' });
  });

  it('sums the nominal active power of the devices in production of the groups forwarding to it', async () => {
    const view = await createDestination();
    const group = await buildDeviceGroup(t.services, { organizationHashId: ownerHashId });
    const inProduction = await buildDevice(t.services, { organizationHashId: ownerHashId, deviceGroupHashId: group.hashId });
    const notYet = await buildDevice(t.services, { organizationHashId: ownerHashId, deviceGroupHashId: group.hashId });
    await t.database.db('devices').where('id', inProduction.id).update({ in_production: true, nominal_active_power_sum: 12_500 });
    await t.database.db('devices').where('id', notYet.id).update({ in_production: false, nominal_active_power_sum: 9_000 });
    expect((await call('GET', `${base}/${view.hashId}`, employee)).json()).toMatchObject({ nominalActivePowerSum: 0 });
    const added = await call('POST', '/console-admin/v1/device-group/message-destination', ops, {
      deviceGroupHashId: group.hashId,
      messageDestinationHashId: view.hashId,
      messageTypes: ['solarPower'],
    });
    expect(added.statusCode).toBe(201);
    expect((await call('GET', `${base}/${view.hashId}`, employee)).json()).toMatchObject({ nominalActivePowerSum: 12_500 });
  });

  it('never answers a secret, nor writes one to the audit log', async () => {
    const audit = (await t.database.db('audit_log').where('object_type', 'message_destinations').select('diff')) as { diff: unknown }[];
    expect(audit.length).toBeGreaterThan(10);
    expect(JSON.stringify(audit)).not.toMatch(secretTexts);
    expect(answers.length).toBeGreaterThan(50);
    expect(answers.filter((body) => secretTexts.test(body))).toEqual([]);
    const entries = await call('GET', '/console-admin/v1/audit-log?objectType=message_destinations&rowsPerPage=500', employee);
    expect(entries.statusCode).toBe(200);
    expect(entries.body).not.toMatch(secretTexts);
  });

  it('are described in the OpenAPI document from the same schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    const paths = (response.json() as { paths: Record<string, Record<string, unknown>> }).paths;
    expect(Object.keys(paths[base] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths[`${base}/{hashId}`] ?? {}).sort()).toEqual(['get', 'put']);
    expect(Object.keys(paths[`${base}/{hashId}/resume`] ?? {}).sort()).toEqual(['put']);
    expect(Object.keys(paths[customerBase] ?? {}).sort()).toEqual(['get']);
  });
});
