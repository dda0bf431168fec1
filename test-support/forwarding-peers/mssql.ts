import { randomBytes } from 'node:crypto';
import type { ForwardedMessage } from '../../contracts/forwarding';
import { mssqlStatements } from '../../graph/forwarding/delivery/mssql';
import type { ForwardingPeer, PeerStarter } from './peer';
import { startTdsServer, TdsError } from './mssql-tds-server';
import { receivedOfRow, type SqlReadRow } from './sql-peer-support';

const table = 'gridport_reports';
const datetime2 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/;

/** One element of @messages as the deliverer sends it (see messagesJson in the deliverer). */
interface SentRow {
  position: string;
  messageType: string;
  version: number;
  deviceHashId: string;
  assetIndex: number | null;
  at: string;
  receivedAt: string;
  id: string;
  payload: ForwardedMessage;
}

function checkedRows(json: string | null): SentRow[] {
  const rows: unknown = JSON.parse(json ?? 'null');
  if (!Array.isArray(rows)) {
    throw new TdsError(13609, 'JSON text is not properly formatted (@messages is not an array).');
  }
  return rows.map((row: SentRow) => {
    if (!/^\d+$/.test(String(row.position)) || typeof row.payload !== 'object' || row.payload === null) {
      throw new TdsError(8114, 'Error converting data type nvarchar to bigint (or a payload that is not JSON).');
    }
    if (!datetime2.test(row.at) || !datetime2.test(row.receivedAt)) {
      throw new TdsError(241, 'Conversion failed when converting date and/or time from character string.');
    }
    return row;
  });
}

/**
 * No SQL Server can run here, so the mssql peer is the fake TDS server of mssql-tds-server.ts
 * on a free port of 127.0.0.1: it takes only the deliverer's own two statements (the table
 * created if missing, the MERGE over OPENJSON(@messages)) and keeps the rows by the table's
 * key as MERGE would. `break` cuts every connection and refuses new ones until `heal`.
 */
export const mssqlPeer: PeerStarter = {
  kind: 'mssql',
  missing: () => null,
  async start(): Promise<ForwardingPeer> {
    const statements = mssqlStatements(table);
    const password = randomBytes(12).toString('hex');
    const stored = new Map<string, SentRow>();
    let created = false;
    const server = await startTdsServer({
      user: 'gridport',
      password,
      database: 'gridport_forwarding',
      batches: {
        [statements.createTable]: () => {
          created = true;
          return 0;
        },
      },
      calls: {
        [statements.merge]: (parameters) => {
          if (parameters.params !== '@messages nvarchar(max)') {
            throw new TdsError(8178, `The parameterized query expects '@messages nvarchar(max)', not ${parameters.params}.`);
          }
          if (!created) {
            throw new TdsError(208, `Invalid object name '${table}'.`);
          }
          let inserted = 0;
          for (const row of checkedRows(parameters.messages ?? null)) {
            const key = JSON.stringify([row.deviceHashId, row.messageType, row.at, row.id]);
            if (!stored.has(key)) {
              stored.set(key, row);
              inserted += 1;
            }
          }
          return inserted;
        },
      },
    });
    return {
      kind: 'mssql',
      settings: { host: '127.0.0.1', port: server.port, database: 'gridport_forwarding', username: 'gridport', password, table, tls: false },
      received: () => {
        const rows = [...stored.values()].map((row): SqlReadRow => ({
          position: row.position,
          messageType: row.messageType,
          deviceHashId: row.deviceHashId,
          at: `${row.at}Z`,
          messageId: row.id,
          payload: row.payload,
        }));
        rows.sort((a, b) =>
          BigInt(a.position) < BigInt(b.position) ? -1 : BigInt(a.position) > BigInt(b.position) ? 1 : a.messageId.localeCompare(b.messageId),
        );
        return Promise.resolve(rows.map(receivedOfRow));
      },
      break: () => {
        server.refuse(true);
        return Promise.resolve();
      },
      heal: () => {
        server.refuse(false);
        return Promise.resolve();
      },
      stop: () => server.close(),
    };
  },
};
