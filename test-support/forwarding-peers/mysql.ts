import { randomBytes } from 'node:crypto';
import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import type { ForwardedMessage } from '../../contracts/forwarding';
import { reachable } from '../services';
import type { ForwardingPeer, PeerStarter } from './peer';
import { receivedOfRow, uniqueName } from './sql-peer-support';

/** The machine's MariaDB (or MySQL) as root (FORWARDING_TEST_MYSQL_URL to use another). */
const adminUrl = process.env.FORWARDING_TEST_MYSQL_URL || 'mysql://root@127.0.0.1:3306';

function connectionOf(database?: string): Promise<Connection> {
  const url = new URL(adminUrl);
  return createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database,
    timezone: 'Z',
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    connectTimeout: 10_000,
  });
}

interface StoredRow extends RowDataPacket {
  position: string;
  message_type: string;
  device_hash_id: string;
  at: string;
  message_id: string;
  /** MariaDB's JSON is text; MySQL's comes parsed. */
  payload: string | ForwardedMessage;
}

/**
 * A fresh database on the machine's MariaDB for one test file, with a fresh user (password
 * set) granted all on it, which the deliverer uses. `break` locks the account and ends its
 * sessions; `heal` unlocks it. `stop` drops both.
 */
export const mysqlPeer: PeerStarter = {
  kind: 'mysql',
  missing: () => (reachable(adminUrl, 3306) ? null : `no MariaDB or MySQL answers at ${new URL(adminUrl).host}`),
  async start(): Promise<ForwardingPeer> {
    const name = uniqueName('gridport_fwd');
    const password = randomBytes(12).toString('hex');
    const admin = await connectionOf();
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
    await admin.query('CREATE USER ?@? IDENTIFIED BY ?', [name, '%', password]);
    await admin.query(`GRANT ALL ON \`${name}\`.* TO ?@?`, [name, '%']);
    const { hostname, port } = new URL(adminUrl);

    const endSessions = async () => {
      const [sessions] = await admin.query<RowDataPacket[]>('SELECT id FROM information_schema.processlist WHERE user = ?', [name]);
      for (const session of sessions) {
        await admin.query('KILL ?', [session.id]).catch(() => undefined);
      }
    };

    return {
      kind: 'mysql',
      settings: { host: hostname, port: Number(port || 3306), database: name, username: name, password, table: 'gridport_reports', tls: false },
      async received() {
        const reader = await connectionOf(name);
        try {
          const [rows] = await reader.query<StoredRow[]>(
            'SELECT position, message_type, device_hash_id, at, message_id, payload FROM gridport_reports ORDER BY position, message_id',
          );
          return rows.map((row) =>
            receivedOfRow({
              position: row.position,
              messageType: row.message_type,
              deviceHashId: row.device_hash_id,
              at: `${row.at.replace(' ', 'T')}Z`,
              messageId: row.message_id,
              payload: typeof row.payload === 'string' ? (JSON.parse(row.payload) as ForwardedMessage) : row.payload,
            }),
          );
        } finally {
          await reader.end();
        }
      },
      async break() {
        await admin.query('ALTER USER ?@? ACCOUNT LOCK', [name, '%']);
        await endSessions();
      },
      async heal() {
        await admin.query('ALTER USER ?@? ACCOUNT UNLOCK', [name, '%']);
      },
      async stop() {
        try {
          await endSessions();
          await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
          await admin.query('DROP USER IF EXISTS ?@?', [name, '%']);
        } finally {
          await admin.end();
        }
      },
    };
  },
};
