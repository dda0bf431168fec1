import { GridportError } from '../../../contracts/errors';
import type { ForwardedMessage } from '../../../contracts/forwarding';
import type { Deliverer } from './deliverer';

/**
 * The one table shape the SQL kinds (mysql, postgres, mssql) write, and the connection keeping
 * they share (docs/forwarding-kinds/mysql.md, postgres.md, mssql.md). A message is a row keyed by (device_hash_id,
 * message_type, at, message_id), so a batch delivered again inserts nothing new.
 */
export type SqlDialect = 'mysql' | 'postgres' | 'mssql';

/** The columns in the order every statement names them. */
export const sqlColumns = ['position', 'message_type', 'version', 'device_hash_id', 'asset_index', 'at', 'received_at', 'message_id', 'payload'] as const;
export const sqlKeyColumns = ['device_hash_id', 'message_type', 'at', 'message_id'] as const;

/** A message as a row; `at` and `receivedAt` as UTC ISO 8601 with milliseconds, `payload` the message's JSON. */
export interface SqlRow {
  position: string;
  message_type: string;
  version: number;
  device_hash_id: string;
  asset_index: number | null;
  at: string;
  received_at: string;
  message_id: string;
  payload: string;
}

/** Connect, query and close timeouts of every SQL deliverer: no call waits forever. */
export const sqlTimeouts = { connectMs: 10_000, queryMs: 30_000, closeMs: 2_000 } as const;

function utcMilliseconds(value: string, field: string): string {
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) {
    throw new Error(`a message's ${field} is not a time: ${JSON.stringify(value)}`);
  }
  return time.toISOString();
}

export function sqlRowOf(message: ForwardedMessage): SqlRow {
  return {
    position: message.position,
    message_type: message.messageType,
    version: message.version,
    device_hash_id: message.device.hashId,
    asset_index: message.asset?.index ?? null,
    at: utcMilliseconds(message.at, 'at'),
    received_at: utcMilliseconds(message.receivedAt, 'receivedAt'),
    message_id: message.id,
    payload: JSON.stringify(message),
  };
}

/** An identifier quoted for the dialect; the settings' schema allows only letters, digits and underscores, so nothing needs escaping. */
export function quoteIdentifier(dialect: SqlDialect, name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new Error(`${name} is not a plain SQL identifier`);
  }
  switch (dialect) {
    case 'mysql':
      return `\`${name}\``;
    case 'postgres':
      return `"${name}"`;
    case 'mssql':
      return `[${name}]`;
  }
}

/** The settings' `table` (name or schema.name), each part quoted: the name is used as written, case included. */
export function quoteTable(dialect: SqlDialect, table: string): string {
  return table
    .split('.')
    .map((part) => quoteIdentifier(dialect, part))
    .join('.');
}

const columnTypes: Record<SqlDialect, Record<(typeof sqlColumns)[number], string>> = {
  mysql: {
    position: 'BIGINT NOT NULL',
    message_type: 'VARCHAR(64) NOT NULL',
    version: 'INT NOT NULL',
    device_hash_id: 'VARCHAR(64) NOT NULL',
    asset_index: 'INT NULL',
    at: 'DATETIME(3) NOT NULL',
    received_at: 'DATETIME(3) NOT NULL',
    message_id: 'VARCHAR(255) NOT NULL',
    payload: 'JSON NOT NULL',
  },
  postgres: {
    position: 'bigint NOT NULL',
    message_type: 'varchar(64) NOT NULL',
    version: 'integer NOT NULL',
    device_hash_id: 'varchar(64) NOT NULL',
    asset_index: 'integer',
    at: 'timestamptz(3) NOT NULL',
    received_at: 'timestamptz(3) NOT NULL',
    message_id: 'varchar(255) NOT NULL',
    payload: 'jsonb NOT NULL',
  },
  mssql: {
    position: 'BIGINT NOT NULL',
    message_type: 'VARCHAR(64) NOT NULL',
    version: 'INT NOT NULL',
    device_hash_id: 'VARCHAR(64) NOT NULL',
    asset_index: 'INT NULL',
    at: 'DATETIME2(3) NOT NULL',
    received_at: 'DATETIME2(3) NOT NULL',
    message_id: 'NVARCHAR(255) NOT NULL',
    payload: 'NVARCHAR(MAX) NOT NULL CHECK (ISJSON([payload]) = 1)',
  },
};

/** The table's DDL (without "if missing": each dialect says that its own way). */
export function createTableStatement(dialect: SqlDialect, table: string): string {
  const columns = sqlColumns.map((column) => `  ${quoteIdentifier(dialect, column)} ${columnTypes[dialect][column]}`);
  const key = sqlKeyColumns.map((column) => quoteIdentifier(dialect, column)).join(', ');
  const suffix = dialect === 'mysql' ? ' ENGINE=InnoDB DEFAULT CHARSET=utf8mb4' : '';
  return `CREATE TABLE ${quoteTable(dialect, table)} (\n${columns.join(',\n')},\n  PRIMARY KEY (${key})\n)${suffix}`;
}

/** What one SQL kind's driver does; `sqlDeliverer` keeps the connection and words the failures. */
export interface SqlDriver<C> {
  kind: SqlDialect;
  /** host:port as staff know it, for error messages. */
  where: string;
  table: string;
  /** Connects through the address guard and makes sure the table exists; `lost` is called when the connection dies while idle. */
  open(lost: () => void): Promise<C>;
  /** Writes the rows in one statement inside a transaction, resolving once committed. */
  write(connection: C, rows: readonly SqlRow[]): Promise<void>;
  /** Ends the connection (within sqlTimeouts.closeMs, else destroys it); never rejects. */
  close(connection: C): Promise<void>;
}

function reason(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return error.errors.map(reason).join('; ');
  }
  if (error instanceof Error) {
    return error.message || error.name;
  }
  return String(error);
}

/**
 * A deliverer over one kept connection: opened on the first batch, kept between batches,
 * dropped after any failure (or when the server closes it) and opened again on the next batch.
 * The address guard's refusal leaves as is; every other failure says what failed and where.
 */
export function sqlDeliverer<C>(driver: SqlDriver<C>): Deliverer {
  let current: C | null = null;
  let closed = false;

  const drop = async () => {
    const connection = current;
    current = null;
    if (connection !== null) {
      await driver.close(connection);
    }
  };

  return {
    async deliver(messages) {
      if (closed) {
        throw new Error(`${driver.kind}: the deliverer is closed`);
      }
      if (messages.length === 0) {
        return;
      }
      let rows: SqlRow[];
      try {
        rows = messages.map(sqlRowOf);
      } catch (error) {
        throw new Error(`${driver.kind}: ${reason(error)}`, { cause: error });
      }
      let connection = current;
      if (connection === null) {
        // `lost` may fire while opening (a refused login ends the socket): only a kept connection is dropped.
        let opened: C | null = null;
        try {
          opened = await driver.open(() => {
            if (opened !== null && current === opened) {
              current = null;
              void driver.close(opened);
            }
          });
          connection = opened;
          current = opened;
        } catch (error) {
          if (error instanceof GridportError) {
            throw error;
          }
          throw new Error(`${driver.kind}: could not connect to ${driver.where}: ${reason(error)}`, { cause: error });
        }
      }
      try {
        await driver.write(connection, rows);
      } catch (error) {
        await drop();
        throw new Error(`${driver.kind}: writing ${rows.length} reports into ${driver.table} at ${driver.where} failed: ${reason(error)}`, { cause: error });
      }
    },
    async close() {
      closed = true;
      await drop().catch(() => undefined);
    },
  };
}

/** Waits for `ending` at most sqlTimeouts.closeMs, then calls `destroy`; never rejects. */
export async function endWithin(ending: () => Promise<unknown>, destroy: () => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ending(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('close timed out')), sqlTimeouts.closeMs);
      }),
    ]);
  } catch {
    try {
      destroy();
    } catch {
      // Already gone.
    }
  } finally {
    clearTimeout(timer);
  }
}
