import { exampleDeviceConfig } from '../contracts/device';
import { metricsLimits } from '../contracts/metrics';
import { testApp, type TestApp } from '../test-support/app';
import { buildDevice, anOrganization, insertDeviceRow } from '../test-support/factories';
import { isLoopback, Metrics, operationOf } from './metrics';

/** The value of one series of a metric of `metrics` (its `_count` with suffix '_count'), by its exact labels; undefined when absent. */
async function valueOf(metrics: Metrics, name: string, labels: Record<string, string> = {}, suffix = ''): Promise<number | undefined> {
  const metric = metrics.registry.getSingleMetric(name);
  if (!metric) {
    throw new Error(`no metric ${name}`);
  }
  const { values } = await metric.get();
  const wanted = Object.entries(labels);
  const series = values.find(
    (value) =>
      ((value as { metricName?: string }).metricName ?? name) === `${name}${suffix}` &&
      Object.keys(value.labels).length === wanted.length &&
      wanted.every(([key, expected]) => value.labels[key] === expected),
  );
  return series?.value;
}

describe('the operation label of a GraphQL request', () => {
  it('is the operation name the document defines, with its type', () => {
    expect(operationOf('query Me { me { name } }', 'Me')).toEqual({ name: 'Me', type: 'query' });
    expect(operationOf('query A { me { name } }\nmutation Login($e: String!) { login(email: $e) { name } }', 'Login')).toEqual({
      name: 'Login',
      type: 'mutation',
    });
    expect(operationOf('# the console\nsubscription Live { deviceReports { at } }', undefined)).toEqual({ name: 'Live', type: 'subscription' });
  });

  it('is null for an absent name, a name the document does not define, a name that is no GraphQL name or is too long', () => {
    expect(operationOf('{ me { name } }', undefined)).toBeNull();
    expect(operationOf('query Me { me { name } }', 'Other')).toBeNull();
    expect(operationOf('query Me { me { name } }', 'M')).toBeNull();
    expect(operationOf('query Me { me { name } }', 'Me" } x')).toBeNull();
    const long = `Q${'x'.repeat(metricsLimits.graphqlOperationNameLength)}`;
    expect(operationOf(`query ${long} { me { name } }`, long)).toBeNull();
    expect(operationOf(`query ${long} { me { name } }`, undefined)).toBeNull();
    expect(operationOf(42, 'Me')).toBeNull();
  });

  it('folds names past the first metricsLimits.graphqlOperationNames, and unknown ones, into _other', () => {
    const metrics = new Metrics();
    for (let index = 0; index < metricsLimits.graphqlOperationNames; index += 1) {
      expect(metrics.operationLabel(`query Op${index} { me { name } }`, `Op${index}`)).toEqual({ operation: `Op${index}`, type: 'query' });
    }
    expect(metrics.operationLabel('mutation OneTooMany { logout }', 'OneTooMany')).toEqual({ operation: '_other', type: 'mutation' });
    expect(metrics.operationLabel('query Op7 { me { name } }', 'Op7')).toEqual({ operation: 'Op7', type: 'query' });
    expect(metrics.operationLabel('{ me { name } }', undefined)).toEqual({ operation: '_other', type: 'unknown' });
  });
});

describe('loopback addresses', () => {
  it('are 127.0.0.0/8, ::1 and IPv4 loopback mapped into IPv6; nothing else', () => {
    expect(['127.0.0.1', '127.8.9.1', '::1', '::ffff:127.0.0.1'].map(isLoopback)).toEqual([true, true, true, true]);
    expect(['10.0.0.1', '203.0.113.9', '::ffff:10.0.0.1', 'fe80::1', 'localhost', ''].map(isLoopback)).toEqual([false, false, false, false, false, false]);
  });
});

describe('/metrics', () => {
  let t: TestApp;
  let metrics: Metrics;

  beforeAll(async () => {
    t = await testApp({}, { graphql: true, metrics: { queryIntervalMs: 0 } });
    metrics = t.metrics as Metrics;
  }, 120_000);

  afterAll(async () => {
    await t.close();
  });

  it('labels requests by route pattern, never the raw URL', async () => {
    const ops = await t.signIn(['gridport.ops']);
    expect((await t.call('GET', '/v1/api-key/aaaa1111', ops)).statusCode).toBe(404);
    expect((await t.call('GET', '/v1/api-key/bbbb2222', ops)).statusCode).toBe(404);
    expect((await t.call('GET', '/v1/no-such-route/ccc')).statusCode).toBe(404);
    expect(await valueOf(metrics, 'gridport_http_request_duration_seconds', { method: 'GET', route: '/v1/api-key/:hashId', status: '404' }, '_count')).toBe(2);
    // No route matches it: '_unmatched', or the console's catch-all '/*' where the console is built (dist/console-ui).
    const unmatched = await Promise.all(
      ['_unmatched', '/*'].map((route) => valueOf(metrics, 'gridport_http_request_duration_seconds', { method: 'GET', route, status: '404' }, '_count')),
    );
    expect(unmatched.reduce<number>((sum, count) => sum + (count ?? 0), 0)).toBe(1);
    const text = (await t.call('GET', '/metrics')).body;
    expect(text).not.toContain('aaaa1111');
    expect(text).not.toContain('no-such-route');
  });

  it('labels GraphQL operations by the name their document defines, and the rest as _other', async () => {
    const staff = await t.signIn(['gridport.ops']);
    const post = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/graphql', headers: { cookie: staff, 'content-type': 'application/json' }, payload });
    expect((await post({ query: 'query Me { me { name } }', operationName: 'Me' })).statusCode).toBe(200);
    expect((await post({ query: 'query Me { me { name } }', operationName: 'Me' })).statusCode).toBe(200);
    expect((await post({ query: '{ me { name } }' })).statusCode).toBe(200);
    expect((await post({ query: 'query Me { me { name } }', operationName: 'Forged' })).statusCode).toBe(400);
    const count = (labels: Record<string, string>) => valueOf(metrics, 'gridport_graphql_operation_duration_seconds', labels, '_count');
    expect(await count({ operation: 'Me', type: 'query', status: '200' })).toBe(2);
    expect(await count({ operation: '_other', type: 'unknown', status: '200' })).toBe(1);
    expect(await count({ operation: '_other', type: 'unknown', status: '400' })).toBe(1);
    expect(await valueOf(metrics, 'gridport_http_request_duration_seconds', { method: 'POST', route: '/graphql', status: '200' }, '_count')).toBe(3);
  });

  it('counts the outbox waiting for devices and open alarms by kind, read from the database at scrape time', async () => {
    const ops = await t.signIn(['gridport.ops']);
    const organizationHashId = (await anOrganization(t.services, { name: 'Metrics BV' })).hashId;
    const { hashId } = await buildDevice(t.services, { organizationHashId, name: 'Never connected' });
    const deviceId = t.hashIds.decode('device', hashId) ?? 0;
    const before = await valueOf(metrics, 'gridport_outbox_pending_messages');
    expect((await t.call('PUT', `/console-admin/v1/device/${hashId}`, ops, { config: exampleDeviceConfig })).statusCode).toBe(200);
    expect(await valueOf(metrics, 'gridport_outbox_pending_messages')).toBe((before ?? 0) + 1);

    await t.database.db('alarms').insert([
      { monitor: 'device.restart', device_id: deviceId },
      { monitor: 'asset.connectivity', device_id: deviceId, asset_identifier: 'meter-1' },
      { monitor: 'asset.connectivity', device_id: deviceId, asset_identifier: 'meter-2' },
      { monitor: 'device.cloud.cellular', device_id: deviceId, closed_at: new Date() },
    ]);
    expect(await valueOf(metrics, 'gridport_alarms_open', { monitor: 'device.restart' })).toBe(1);
    expect(await valueOf(metrics, 'gridport_alarms_open', { monitor: 'asset.connectivity' })).toBe(2);
    expect(await valueOf(metrics, 'gridport_alarms_open', { monitor: 'device.cloud.cellular' })).toBe(0);
  });

  it("shows each message destination's forwarding lag by hash id: the age of the oldest report after its cursor", async () => {
    const organization = await anOrganization(t.services, { name: 'Forwarding BV' });
    const organizationId = t.services.organizations.idOf(organization.hashId);
    const deviceId = await insertDeviceRow(t.database.db, { organization_id: organizationId });
    const report = (reportId: string, receivedAt: Date) => ({
      device_id: deviceId,
      report_id: reportId,
      type: 'meterPower',
      at: new Date('2026-11-20T10:00:00.000Z'),
      asset_index: 0,
      body: JSON.stringify({ type: 'meterPower' }),
      received_at: receivedAt,
    });
    // Delivered before the destination existed: not its lag.
    await t.database.db('device_reports').insert(report('before', new Date(Date.now() - 3600_000)));
    const [row] = (await t.database
      .db('message_destinations')
      .insert({
        organization_id: organizationId,
        name: 'Lagging',
        type: 'http',
        settings: JSON.stringify({ type: 'http', url: 'http://127.0.0.1:9/in', method: 'POST', headers: [], timeoutMs: 1000 }),
        outage_emails: JSON.stringify([]),
        monitor_settings: JSON.stringify({ enabled: true, maxLagSeconds: null }),
      })
      .returning('id')) as { id: string | number }[];
    const destinationId = Number(row?.id);
    await t.database.db.transaction((trx) => t.services.forwardingDeliveries.start(trx, destinationId));
    const destination = t.hashIds.encode('messageDestination', destinationId);
    expect(await valueOf(metrics, 'gridport_forwarding_lag_seconds', { destination })).toBe(0);

    const receivedAt = new Date(Date.now() - 600_000);
    await t.database.db('device_reports').insert([report('waiting-1', receivedAt), report('waiting-2', new Date())]);
    const lag = (await valueOf(metrics, 'gridport_forwarding_lag_seconds', { destination })) ?? 0;
    // The age of the first report waiting, as the database's clock reads it at the scrape (not the second, newer one).
    const expected = (Date.now() - receivedAt.getTime()) / 1000;
    expect(Math.abs(lag - expected)).toBeLessThan(30);
    const text = (await t.call('GET', '/metrics')).body;
    expect(text).toContain(`gridport_forwarding_lag_seconds{destination="${destination}"}`);
    expect(text).not.toContain('Lagging');
  });

  it('shows the database pool and the process defaults, event-loop lag among them', async () => {
    const text = (await t.call('GET', '/metrics')).body;
    expect(text).toMatch(/^gridport_database_pool_connections\{state="used"\} \d+$/m);
    expect(text).toMatch(/^gridport_database_pool_connections\{state="pending"\} 0$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
  });

  it('is served to loopback clients only while METRICS_TOKEN is not set', async () => {
    const local = await t.call('GET', '/metrics');
    expect(local.statusCode).toBe(200);
    expect(local.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const remote = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
    expect(remote.statusCode).toBe(403);
    expect(remote.json()).toEqual({ key: 'forbidden', details: { reason: 'metrics are served to loopback clients only unless METRICS_TOKEN is set' } });
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  const token = 'metrics-token-0123456789abcdef0123456789';
  let t: TestApp;

  beforeAll(async () => {
    t = await testApp({}, { metrics: { token } });
  }, 120_000);

  afterAll(async () => {
    await t.close();
  });

  it('answers the bearer of the token from anywhere, and refuses anyone else with 401 unauthorized', async () => {
    const remote = (authorization?: string) =>
      t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9', headers: authorization ? { authorization } : {} });
    const answered = await remote(`Bearer ${token}`);
    expect(answered.statusCode).toBe(200);
    expect(answered.body).toContain('# TYPE gridport_http_request_duration_seconds histogram');
    for (const refused of [await remote(), await remote(`Bearer ${token}x`), await remote(`Basic ${token}`), await t.call('GET', '/metrics')]) {
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({ key: 'unauthorized' });
    }
  });
});
