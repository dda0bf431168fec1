import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exampleDeviceConfig } from '../contracts/device';
import { GatewayClient } from '../edge/gateway-client/client';
import { provision } from '../edge/gateway-client/provision';
import { testApp, type TestApp } from '../test-support/app';
import { anOrganization, buildDevice } from '../test-support/factories';
import { meterPowerReport } from '../test-support/fleet';
import { freePort } from '../test-support/server-process';
import { programPasses, requireServices } from '../test-support/services';

const prometheusBinary = '/usr/bin/prometheus';
const installed = programPasses(prometheusBinary, ['--version']);
if (!installed && !requireServices) {
  process.stderr.write(
    'server/metrics-prometheus.test.ts: skipped, Prometheus is not installed (apt-get install prometheus; REQUIRE_SERVICES=1 makes this a failure)\n',
  );
}
const describeWithPrometheus = installed || requireServices ? describe : describe.skip;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reports dated an hour ago and on: within the window the hub takes (reportTimeWindow). */
const reportsFrom = Date.now() - 60 * 60 * 1000;
const reportCount = 20;
const token = 'prometheus-scrape-token-0123456789abcdef';

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

/** Debian's Prometheus scraping a real Gridport app every second, read back through its HTTP API. */
describeWithPrometheus('Prometheus scraping /metrics', () => {
  // Each expectation waits for the next scrapes (every second); a busy machine slows both sides.
  jest.setTimeout(120_000);

  let t: TestApp;
  let folder: string;
  let prometheus: ChildProcess | null = null;
  let prometheusUrl: string;
  let client: GatewayClient | null = null;
  let prometheusOutput = '';

  /** One instant query through Prometheus's HTTP API: the samples it answers. */
  async function query(expression: string): Promise<Sample[]> {
    const answer = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expression)}`);
    const body = (await answer.json()) as { status: string; data?: { result: Sample[] }; error?: string };
    if (body.status !== 'success' || !body.data) {
      throw new Error(`Prometheus refused ${expression}: ${body.error ?? answer.status}`);
    }
    return body.data.result;
  }

  /** The single value of `expression` once Prometheus has scraped it as `expected` (15 s at most); what it last read otherwise. */
  async function scraped(expression: string, expected: number): Promise<number | null> {
    const deadline = Date.now() + 15_000;
    let last: number | null = null;
    while (Date.now() < deadline) {
      const samples = await query(expression);
      last = samples.length === 1 && samples[0] ? Number(samples[0].value[1]) : null;
      if (last === expected) {
        return last;
      }
      await sleep(250);
    }
    return last;
  }

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-prometheus-'));
    t = await testApp({}, { graphql: true, hub: true, metrics: { token, queryIntervalMs: 0 } });
    const baseUrl = await t.listen();
    const prometheusPort = await freePort();
    prometheusUrl = `http://127.0.0.1:${prometheusPort}`;
    const config = path.join(folder, 'prometheus.yml');
    writeFileSync(
      config,
      [
        'global:',
        '  scrape_interval: 1s',
        '  evaluation_interval: 1s',
        'scrape_configs:',
        '  - job_name: gridport',
        '    scrape_interval: 1s',
        '    scrape_timeout: 1s',
        '    authorization:',
        `      credentials: ${token}`,
        '    static_configs:',
        `      - targets: ['${new URL(baseUrl).host}']`,
        '',
      ].join('\n'),
    );
    prometheus = spawn(
      prometheusBinary,
      [`--config.file=${config}`, `--storage.tsdb.path=${path.join(folder, 'data')}`, `--web.listen-address=127.0.0.1:${prometheusPort}`],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // A binary that cannot start (missing while REQUIRE_SERVICES=1) fails the setup with its reason rather than crash the run.
    prometheus.on('error', (error) => (prometheusOutput += `${error.message}\n`));
    prometheus.stdout?.on('data', (chunk: Buffer) => (prometheusOutput += chunk.toString()));
    prometheus.stderr?.on('data', (chunk: Buffer) => (prometheusOutput += chunk.toString()));
    const deadline = Date.now() + 30_000;
    for (;;) {
      const ready = await fetch(`${prometheusUrl}/-/ready`).then(
        (answer) => answer.ok,
        () => false,
      );
      if (ready) {
        break;
      }
      if (Date.now() > deadline || prometheus.exitCode !== null || prometheus.pid === undefined) {
        throw new Error(`Prometheus did not start:\n${prometheusOutput}`);
      }
      await sleep(200);
    }

    // Traffic: REST, GraphQL, and a real gateway sending reports over its websocket.
    for (let call = 0; call < 3; call += 1) {
      expect((await t.call('GET', '/v1/health')).statusCode).toBe(204);
    }
    const staff = await t.signIn(['gridport.ops']);
    for (let call = 0; call < 2; call += 1) {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { cookie: staff, 'content-type': 'application/json' },
        payload: { query: 'query Me { me { name } }', operationName: 'Me' },
      });
      expect(answer.statusCode).toBe(200);
    }
    const organizationHashId = (await anOrganization(t.services, { name: 'Scraped BV' })).hashId;
    const configure = async (name: string) => {
      const device = await buildDevice(t.services, { organizationHashId, name });
      expect((await t.call('PUT', `/console-admin/v1/device/${device.hashId}`, staff, { config: exampleDeviceConfig })).statusCode).toBe(200);
      return device;
    };
    // One device never connects, so its config waits in the outbox; the other takes its own.
    await configure('Never connected');
    const gateway = await configure('Scraped gateway');
    const identity = await provision({ baseUrl, token: gateway.provisioningToken, identifier: 'gw-scraped-1', directory: path.join(folder, 'identity') });
    client = new GatewayClient({
      baseUrl,
      identity,
      storeDirectory: path.join(folder, 'reports'),
      networkInterface: 'eth0',
      version: '1.2.3',
      minBackoffMs: 50,
      maxBackoffMs: 200,
    });
    await client.start();
    await client.connected();
    for (let index = 0; index < reportCount; index += 1) {
      await client.report(meterPowerReport(reportsFrom, index));
    }
    await client.drained();
  });

  afterAll(async () => {
    await client?.stop();
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((resolve) => prometheus?.once('exit', resolve));
      prometheus.kill('SIGTERM');
      await exited;
    }
    await t?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('scrapes the target with METRICS_TOKEN as its bearer token', async () => {
    expect(await scraped('up{job="gridport"}', 1)).toBe(1);
  });

  it('reads requests per route and per GraphQL operation', async () => {
    expect(await scraped('gridport_http_request_duration_seconds_count{method="GET",route="/v1/health",status="204"}', 3)).toBe(3);
    expect(await scraped('gridport_graphql_operation_duration_seconds_count{operation="Me",type="query",status="200"}', 2)).toBe(2);
    // Every scrape was let in: no /metrics request answered other than 200.
    expect(await scraped('absent(gridport_http_request_duration_seconds_count{route="/metrics",status!="200"})', 1)).toBe(1);
    expect(await scraped('count(gridport_http_request_duration_seconds_count{route="/metrics",status="200"})', 1)).toBe(1);
  });

  it('reads the ingest, the connected gateway and the monitors', async () => {
    expect(await scraped('gridport_ingest_reports_total{outcome="stored"}', reportCount)).toBe(reportCount);
    expect(await scraped('gridport_ingest_batch_size_sum', reportCount)).toBe(reportCount);
    // Present from the start; the gateway's few reports never made the ingest push back.
    expect(await scraped('gridport_ingest_pauses_total', 0)).toBe(0);
    expect(await scraped('gridport_gateways_connected', 1)).toBe(1);
    expect(await scraped('gridport_monitor_reports_evaluated_total', reportCount)).toBe(reportCount);
  });

  it('reads the outbox, open alarms, the database pool and the process', async () => {
    expect(await scraped('gridport_outbox_pending_messages', 1)).toBe(1);
    const open = (await t.database.db('alarms').whereNull('closed_at').count('* as count')) as { count: string | number }[];
    expect(await scraped('sum(gridport_alarms_open)', Number(open[0]?.count))).toBe(Number(open[0]?.count));
    expect(await scraped('count(gridport_database_pool_connections)', 3)).toBe(3);
    expect(await scraped('count(nodejs_eventloop_lag_seconds)', 1)).toBe(1);
    expect(await scraped('count(process_resident_memory_bytes)', 1)).toBe(1);
  });
});
