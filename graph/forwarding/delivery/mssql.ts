import net from 'node:net';
import { Connection, Request, TYPES } from 'tedious';
import { GridportError } from '../../../contracts/errors';
import { resolveTarget, type AddressPolicy } from './address-guard';
import type { DelivererFactory } from './deliverer';
import { createTableStatement, endWithin, quoteIdentifier, quoteTable, sqlColumns, sqlDeliverer, sqlKeyColumns, sqlTimeouts, type SqlRow } from './sql-table';

const q = (name: string) => quoteIdentifier('mssql', name);

/** How OPENJSON reads each column of a row sent in @messages (see `messagesJson`). */
const openJsonColumns: Record<(typeof sqlColumns)[number], string> = {
  position: "BIGINT '$.position'",
  message_type: "VARCHAR(64) '$.messageType'",
  version: "INT '$.version'",
  device_hash_id: "VARCHAR(64) '$.deviceHashId'",
  asset_index: "INT '$.assetIndex'",
  at: "DATETIME2(3) '$.at'",
  received_at: "DATETIME2(3) '$.receivedAt'",
  message_id: "NVARCHAR(255) '$.id'",
  payload: "NVARCHAR(MAX) '$.payload' AS JSON",
};

/**
 * The two statements the mssql deliverer sends (the test peer expects exactly these): the
 * table created when missing, and one batch as a MERGE over OPENJSON(@messages) inserting the
 * rows whose key is not there yet, in a transaction that any error aborts.
 */
export function mssqlStatements(table: string): { createTable: string; merge: string } {
  const quoted = quoteTable('mssql', table);
  const objectName = quoted.replace(/'/g, "''");
  const columns = sqlColumns.map(q).join(', ');
  const source = sqlColumns.map((column) => `[source].${q(column)}`).join(', ');
  const on = sqlKeyColumns.map((column) => `[target].${q(column)} = [source].${q(column)}`).join(' AND ');
  const shape = sqlColumns.map((column) => `${q(column)} ${openJsonColumns[column]}`).join(', ');
  return {
    createTable: `IF OBJECT_ID(N'${objectName}', N'U') IS NULL\n${createTableStatement('mssql', table)}`,
    merge: [
      'SET XACT_ABORT ON;',
      'BEGIN TRANSACTION;',
      `MERGE INTO ${quoted} WITH (HOLDLOCK) AS [target]`,
      `USING (SELECT * FROM OPENJSON(@messages) WITH (${shape})) AS [source]`,
      `ON ${on}`,
      `WHEN NOT MATCHED BY TARGET THEN INSERT (${columns}) VALUES (${source});`,
      'COMMIT TRANSACTION;',
    ].join('\n'),
  };
}

/** DATETIME2 reads ISO 8601 without a zone as is; every time is UTC. */
const withoutZone = (iso: string) => iso.replace(/Z$/, '');

/**
 * The rows as one JSON array for @messages, each payload embedded as the message's JSON
 * object. A key twice in one batch is sent once (MERGE may not insert a key twice).
 */
export function messagesJson(rows: readonly SqlRow[]): string {
  const seen = new Set<string>();
  const items: string[] = [];
  for (const row of rows) {
    const key = JSON.stringify([row.device_hash_id, row.message_type, row.at, row.message_id]);
    if (seen.has(key)) {
      continue;
    }
    seen.add(key);
    const fields = JSON.stringify({
      position: row.position,
      messageType: row.message_type,
      version: row.version,
      deviceHashId: row.device_hash_id,
      assetIndex: row.asset_index,
      at: withoutZone(row.at),
      receivedAt: withoutZone(row.received_at),
      id: row.message_id,
    });
    items.push(`${fields.slice(0, -1)},"payload":${row.payload}}`);
  }
  return `[${items.join(',')}]`;
}

/** A socket to `host` (the configured one, or one the server redirects to) through the address guard, honouring tedious's abort signal. */
async function guardedSocket(host: string, port: number, policy: AddressPolicy, signal?: AbortSignal): Promise<net.Socket> {
  const target = await resolveTarget(host, policy);
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: target.address, port, family: target.family });
    const settle = () => {
      signal?.removeEventListener('abort', onAbort);
      socket.removeListener('error', onError);
      socket.removeListener('connect', onConnect);
    };
    const onAbort = () => {
      settle();
      socket.destroy();
      reject(signal?.reason);
    };
    const onError = (error: Error) => {
      settle();
      reject(error);
    };
    const onConnect = () => {
      settle();
      resolve(socket);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('error', onError);
    socket.once('connect', onConnect);
  });
}

function run(connection: Connection, request: (done: (error: Error | null | undefined) => void) => Request, batch: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const made = request((error) => (error ? reject(error) : resolve()));
    if (batch) {
      connection.execSqlBatch(made);
    } else {
      connection.execSql(made);
    }
  });
}

function closeConnection(connection: Connection): Promise<void> {
  return endWithin(
    () =>
      new Promise<void>((resolve) => {
        if (connection.closed) {
          resolve();
          return;
        }
        connection.once('end', () => resolve());
        connection.close();
      }),
    () => undefined,
  );
}

/**
 * Microsoft SQL Server and Azure SQL (docs/forwarding-kinds/mssql.md) through tedious, whose
 * connector opens every socket (a redirect's too) through the address guard. Each batch is
 * one sp_executesql call with one NVARCHAR(MAX) parameter, the batch as JSON, merged into the
 * table. With `tls` the connection must be encrypted: a server that declines is refused.
 */
export const mssqlDeliverer: DelivererFactory<'mssql'> = (settings, context) => {
  const statements = mssqlStatements(settings.table);

  return sqlDeliverer<Connection>({
    kind: 'mssql',
    where: `${settings.host}:${settings.port}`,
    table: settings.table,
    async open(lost) {
      let refused: GridportError | null = null;
      let encrypted = false;
      const connection = new Connection({
        server: settings.host,
        authentication: { type: 'default', options: { userName: settings.username, password: settings.password ?? '' } },
        options: {
          port: settings.port,
          database: settings.database,
          encrypt: settings.tls,
          trustServerCertificate: false,
          ...(settings.tlsCaCertificate ? { cryptoCredentialsDetails: { ca: settings.tlsCaCertificate } } : {}),
          connectTimeout: sqlTimeouts.connectMs,
          requestTimeout: sqlTimeouts.queryMs,
          cancelTimeout: sqlTimeouts.closeMs,
          appName: 'gridport-forwarding',
          connector: (options?: { host: string; port: number }, _lookup?: unknown, signal?: AbortSignal) =>
            guardedSocket(options?.host ?? settings.host, options?.port ?? settings.port, context.policy, signal).catch((error: unknown) => {
              if (error instanceof GridportError) {
                refused = error;
              }
              throw error;
            }),
        },
      });
      connection.on('secure', () => {
        encrypted = true;
      });
      try {
        await new Promise<void>((resolve, reject) => {
          connection.connect((error) => (error ? reject(error) : resolve()));
        });
      } catch (error) {
        await closeConnection(connection);
        throw refused ?? error;
      }
      connection.on('error', lost);
      connection.on('end', lost);
      try {
        if (settings.tls && !encrypted) {
          throw new Error('the server did not agree to TLS (tls is set, so an unencrypted connection is refused)');
        }
        await run(connection, (done) => new Request(statements.createTable, done), true);
      } catch (error) {
        await closeConnection(connection);
        throw error;
      }
      return connection;
    },
    async write(connection, rows) {
      await run(
        connection,
        (done) => {
          const request = new Request(statements.merge, done);
          // A length over 4000 declares NVARCHAR(MAX), whatever the batch's size.
          request.addParameter('messages', TYPES.NVarChar, messagesJson(rows), { length: Number.MAX_SAFE_INTEGER });
          return request;
        },
        false,
      );
    },
    close: closeConnection,
  });
};
