import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import type { ForwardingPeer, PeerStarter, ReceivedMessage } from './peer';
import { freePort, programMissing, startServer, type CaSignedCertificate } from './http-and-files-support';

const influxd = '/usr/bin/influxd';

export interface InfluxPeer extends ForwardingPeer {
  /** Runs an InfluxQL statement as the admin (GET for SELECT and SHOW, POST otherwise); the parsed JSON answer. */
  query(statement: string): Promise<InfluxAnswer>;
}

export interface InfluxAnswer {
  results: { error?: string; series?: { name: string; tags?: Record<string, string>; columns: string[]; values: unknown[][] }[] }[];
}

/**
 * The influxdb peer: Debian's influxd (1.x) started on free ports with its own config and data
 * in a temp dir, authentication on: an admin, and a writer `gridport` with all rights on the
 * database `gridport_test` whose retention policy `gridport` the settings name. While broken,
 * the writer's rights are revoked (writes answer 403). With `tls`, influxd serves https with
 * that certificate, and the settings name `https://localhost:<port>` and the CA to trust.
 */
export interface InfluxPeerStarter extends PeerStarter {
  start(options?: { tls?: CaSignedCertificate }): Promise<InfluxPeer>;
}

export const influxdbPeer: InfluxPeerStarter = {
  kind: 'influxdb',
  missing: () => programMissing(influxd, 'influxdb'),
  async start(options = {}) {
    const { tls } = options;
    const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'gridport-influxd-'));
    const [httpPort, rpcPort] = [await freePort(), await freePort()];
    const config = path.join(directory, 'influxdb.conf');
    await fs.writeFile(
      config,
      [
        'reporting-disabled = true',
        `bind-address = "127.0.0.1:${rpcPort}"`,
        '[meta]',
        `  dir = "${directory}/meta"`,
        '[data]',
        `  dir = "${directory}/data"`,
        `  wal-dir = "${directory}/wal"`,
        '  query-log-enabled = false',
        '[retention]',
        '  enabled = false',
        '[monitor]',
        '  store-enabled = false',
        '[continuous_queries]',
        '  enabled = false',
        '[subscriber]',
        '  enabled = false',
        '[logging]',
        '  level = "warn"',
        '[http]',
        '  enabled = true',
        `  bind-address = "127.0.0.1:${httpPort}"`,
        '  auth-enabled = true',
        '  log-enabled = false',
        ...(tls ? ['  https-enabled = true', `  https-certificate = "${tls.certFile}"`, `  https-private-key = "${tls.keyFile}"`] : []),
        '',
      ].join('\n'),
    );
    const server = await startServer(influxd, ['run', '-config', config], httpPort);
    const base = tls ? `https://localhost:${httpPort}` : `http://127.0.0.1:${httpPort}`;
    const dispatcher = new Agent(tls ? { connect: { ca: tls.caCertificate } } : {});
    const admin = { u: 'admin', p: 'admin-pass-8c1' };
    const database = 'gridport_test';
    const writer = { username: 'gridport', password: 'writer-pass-52e' };

    const query = async (statement: string, as: { u: string; p: string } | null = admin): Promise<InfluxAnswer> => {
      const read = /^\s*(SELECT|SHOW)/i.test(statement);
      const parameters = new URLSearchParams({ q: statement, db: database, epoch: 'ms' });
      const headers: Record<string, string> = as ? { authorization: `Basic ${Buffer.from(`${as.u}:${as.p}`).toString('base64')}` } : {};
      const answer = await request(read ? `${base}/query?${parameters}` : `${base}/query`, {
        method: read ? 'GET' : 'POST',
        headers: read ? headers : { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        ...(read ? {} : { body: parameters.toString() }),
        dispatcher,
      });
      const body = (await answer.body.json()) as InfluxAnswer & { error?: string };
      const error = body.error ?? body.results?.find((result) => result.error)?.error;
      if (answer.statusCode >= 300 || error) {
        throw new Error(`influxd: ${statement}: ${error ?? answer.statusCode}`);
      }
      return body;
    };

    try {
      // With authentication on and no user yet, influxd takes only the first admin's creation.
      await query(`CREATE USER "${admin.u}" WITH PASSWORD '${admin.p}' WITH ALL PRIVILEGES`, null);
      await query(`CREATE DATABASE "${database}"`);
      await query(`CREATE RETENTION POLICY "gridport" ON "${database}" DURATION 30d REPLICATION 1`);
      await query(`CREATE USER "${writer.username}" WITH PASSWORD '${writer.password}'`);
      await query(`GRANT ALL ON "${database}" TO "${writer.username}"`);
    } catch (error) {
      await server.stop();
      await dispatcher.close();
      await fs.rm(directory, { recursive: true, force: true });
      throw error;
    }

    return {
      kind: 'influxdb',
      settings: { url: base, apiVersion: 1, database, retentionPolicy: 'gridport', ...writer, ...(tls ? { tlsCaCertificate: tls.caCertificate } : {}) },
      query,
      async received(): Promise<ReceivedMessage[]> {
        const answer = await query(`SELECT * FROM "${database}"."gridport"./.*/`);
        const received: ReceivedMessage[] = [];
        for (const series of answer.results[0]?.series ?? []) {
          for (const row of series.values) {
            const column = (name: string) => row[series.columns.indexOf(name)];
            received.push({
              messageType: series.name,
              id: String(column('id')),
              position: String(column('position')),
              deviceHashId: String(column('device')),
              at: new Date(Number(column('time'))).toISOString(),
            });
          }
        }
        return received.sort((a, b) => Number(BigInt(a.position) - BigInt(b.position)));
      },
      break: () => query(`REVOKE ALL ON "${database}" FROM "${writer.username}"`).then(() => undefined),
      heal: () => query(`GRANT ALL ON "${database}" TO "${writer.username}"`).then(() => undefined),
      async stop() {
        await server.stop();
        await dispatcher.close();
        await fs.rm(directory, { recursive: true, force: true });
      },
    };
  },
};
