import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { reachable } from '../services';
import type { ForwardingPeer, PeerStarter } from './peer';
import { receivedOfRow, uniqueName } from './sql-peer-support';

/** The machine's PostgreSQL as its superuser (FORWARDING_TEST_POSTGRES_URL to use another). */
const adminUrl = process.env.FORWARDING_TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

function clientOf(database?: string): Client {
  const url = new URL(adminUrl);
  if (database) {
    url.pathname = `/${database}`;
  }
  return new Client({ connectionString: url.toString(), connectionTimeoutMillis: 10_000 });
}

/**
 * A fresh database on the machine's PostgreSQL for one test file, owned by a fresh login role
 * with a password that the deliverer uses. `break` takes the role's LOGIN away and ends its
 * sessions; `heal` gives it back. `stop` drops both.
 */
export const postgresPeer: PeerStarter = {
  kind: 'postgres',
  missing: () => (reachable(adminUrl, 5432) ? null : `no PostgreSQL answers at ${new URL(adminUrl).host}`),
  async start(): Promise<ForwardingPeer> {
    const name = uniqueName('gridport_fwd');
    const password = randomBytes(12).toString('hex');
    const admin = clientOf();
    await admin.connect();
    await admin.query(`CREATE ROLE "${name}" LOGIN PASSWORD '${password}'`);
    await admin.query(`CREATE DATABASE "${name}" OWNER "${name}"`);
    const { hostname, port } = new URL(adminUrl);
    return {
      kind: 'postgres',
      settings: { host: hostname, port: Number(port || 5432), database: name, username: name, password, table: 'gridport_reports', tls: false },
      async received() {
        const reader = clientOf(name);
        await reader.connect();
        try {
          const result = await reader.query<{ position: string; message_type: string; device_hash_id: string; at: Date; message_id: string; payload: never }>(
            'SELECT position::text AS position, message_type, device_hash_id, at, message_id, payload FROM gridport_reports ORDER BY position, message_id',
          );
          return result.rows.map((row) =>
            receivedOfRow({
              position: row.position,
              messageType: row.message_type,
              deviceHashId: row.device_hash_id,
              at: row.at.toISOString(),
              messageId: row.message_id,
              payload: row.payload,
            }),
          );
        } finally {
          await reader.end();
        }
      },
      async break() {
        await admin.query(`ALTER ROLE "${name}" NOLOGIN`);
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [name]);
        // Ending a session is asynchronous: wait until none of the role's is left.
        for (let tries = 0; tries < 50; tries += 1) {
          const left = await admin.query('SELECT 1 FROM pg_stat_activity WHERE usename = $1', [name]);
          if (left.rowCount === 0) {
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      },
      async heal() {
        await admin.query(`ALTER ROLE "${name}" LOGIN`);
      },
      async stop() {
        try {
          await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
          await admin.query(`DROP ROLE IF EXISTS "${name}"`);
        } finally {
          await admin.end();
        }
      },
    };
  },
};
