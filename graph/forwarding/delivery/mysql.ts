import net from 'node:net';
import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import { resolveTarget } from './address-guard';
import type { DelivererFactory } from './deliverer';
import { createTableStatement, endWithin, quoteIdentifier, quoteTable, sqlColumns, sqlDeliverer, sqlTimeouts, type SqlRow } from './sql-table';

/** MySQL's DATETIME(3) literal for a UTC ISO time (DATETIME holds no zone: every time in the table is UTC). */
function datetime(iso: string): string {
  return iso.replace('T', ' ').replace(/Z$/, '');
}

/**
 * MySQL and MariaDB (docs/forwarding-kinds/mysql.md) through mysql2: the host is resolved by the
 * address guard and the socket opened to the checked address, while mysql2 keeps the name for
 * TLS's server name. Each batch is one multi-row INSERT in a transaction; a row whose key is
 * already there is left as it was (ON DUPLICATE KEY UPDATE of nothing rather than INSERT
 * IGNORE, which would also turn real errors such as an over-long value into warnings).
 */
export const mysqlDeliverer: DelivererFactory<'mysql'> = (settings, context) => {
  const table = quoteTable('mysql', settings.table);
  const columns = sqlColumns.map((column) => quoteIdentifier('mysql', column)).join(', ');
  const noChange = `${quoteIdentifier('mysql', 'message_id')} = ${quoteIdentifier('mysql', 'message_id')}`;

  return sqlDeliverer<Connection>({
    kind: 'mysql',
    where: `${settings.host}:${settings.port}`,
    table: settings.table,
    async open(lost) {
      const target = await resolveTarget(settings.host, context.policy);
      const connection = await createConnection({
        host: settings.host,
        port: settings.port,
        user: settings.username,
        password: settings.password ?? '',
        database: settings.database,
        stream: () => net.connect({ host: target.address, port: settings.port, family: target.family }),
        ssl: settings.tls ? { ca: settings.tlsCaCertificate, rejectUnauthorized: true, verifyIdentity: true } : undefined,
        connectTimeout: sqlTimeouts.connectMs,
        timezone: 'Z',
        multipleStatements: false,
      });
      connection.on('error', lost);
      connection.on('end', lost);
      try {
        const [found] = await connection.query<RowDataPacket[]>({
          sql: 'SELECT 1 FROM information_schema.tables WHERE table_schema = COALESCE(?, DATABASE()) AND table_name = ?',
          values: settings.table.includes('.') ? settings.table.split('.') : [null, settings.table],
          timeout: sqlTimeouts.queryMs,
        });
        if (found.length === 0) {
          const create = createTableStatement('mysql', settings.table).replace(/^CREATE TABLE/, 'CREATE TABLE IF NOT EXISTS');
          await connection.query({ sql: create, timeout: sqlTimeouts.queryMs });
        }
      } catch (error) {
        await endWithin(
          () => connection.end(),
          () => connection.destroy(),
        );
        throw error;
      }
      return connection;
    },
    async write(connection, rows: readonly SqlRow[]) {
      const values = rows.map((row) => [
        row.position,
        row.message_type,
        row.version,
        row.device_hash_id,
        row.asset_index,
        datetime(row.at),
        datetime(row.received_at),
        row.message_id,
        row.payload,
      ]);
      // No rollback on failure: the connection is dropped, which rolls the transaction back.
      await connection.query({ sql: 'START TRANSACTION', timeout: sqlTimeouts.queryMs });
      await connection.query({
        sql: `INSERT INTO ${table} (${columns}) VALUES ? ON DUPLICATE KEY UPDATE ${noChange}`,
        values: [values],
        timeout: sqlTimeouts.queryMs,
      });
      await connection.query({ sql: 'COMMIT', timeout: sqlTimeouts.queryMs });
    },
    close: (connection) =>
      endWithin(
        () => connection.end(),
        () => connection.destroy(),
      ),
  });
};
