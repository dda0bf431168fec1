import net from 'node:net';
import { Client } from 'pg';
import { resolveTarget } from './address-guard';
import type { DelivererFactory } from './deliverer';
import { createTableStatement, endWithin, quoteIdentifier, quoteTable, sqlColumns, sqlDeliverer, sqlKeyColumns, sqlTimeouts } from './sql-table';

/**
 * PostgreSQL (docs/forwarding-kinds/postgres.md) through pg: the host is resolved by the address
 * guard and pg connects to the checked address; with TLS, the certificate is checked against
 * the configured name (SNI and identity), not the address. Each batch is one multi-row INSERT
 * ... ON CONFLICT DO NOTHING in a transaction.
 */
export const postgresDeliverer: DelivererFactory<'postgres'> = (settings, context) => {
  const table = quoteTable('postgres', settings.table);
  const columns = sqlColumns.map((column) => quoteIdentifier('postgres', column)).join(', ');
  const key = sqlKeyColumns.map((column) => quoteIdentifier('postgres', column)).join(', ');
  const hostIsName = net.isIP(settings.host.replace(/^\[(.*)\]$/, '$1')) === 0;

  return sqlDeliverer<Client>({
    kind: 'postgres',
    where: `${settings.host}:${settings.port}`,
    table: settings.table,
    async open(lost) {
      const target = await resolveTarget(settings.host, context.policy);
      const client = new Client({
        host: target.address,
        port: settings.port,
        user: settings.username,
        password: settings.password ?? '',
        database: settings.database,
        ssl: settings.tls
          ? {
              ca: settings.tlsCaCertificate,
              rejectUnauthorized: true,
              // Identity and SNI are the configured host's, not the address connected to.
              host: settings.host,
              ...(hostIsName ? { servername: settings.host } : {}),
            }
          : false,
        connectionTimeoutMillis: sqlTimeouts.connectMs,
        query_timeout: sqlTimeouts.queryMs,
        statement_timeout: sqlTimeouts.queryMs,
        keepAlive: true,
        application_name: 'gridport-forwarding',
      });
      client.on('error', lost);
      client.on('end', lost);
      try {
        await client.connect();
        const found = await client.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [table]);
        if (!found.rows[0]?.found) {
          await client.query(createTableStatement('postgres', settings.table).replace(/^CREATE TABLE/, 'CREATE TABLE IF NOT EXISTS'));
        }
      } catch (error) {
        await endWithin(
          () => client.end(),
          () => undefined,
        );
        throw error;
      }
      return client;
    },
    async write(client, rows) {
      const values: unknown[] = [];
      const tuples = rows.map((row) => {
        const start = values.length;
        values.push(row.position, row.message_type, row.version, row.device_hash_id, row.asset_index, row.at, row.received_at, row.message_id, row.payload);
        return `(${sqlColumns.map((_, index) => `$${start + index + 1}`).join(', ')})`;
      });
      // No rollback on failure: the connection is dropped, which rolls the transaction back.
      await client.query('BEGIN');
      await client.query(`INSERT INTO ${table} (${columns}) VALUES ${tuples.join(', ')} ON CONFLICT (${key}) DO NOTHING`, values);
      await client.query('COMMIT');
    },
    close: (client) =>
      endWithin(
        () => client.end(),
        () => undefined,
      ),
  });
};
