import net from 'node:net';

/**
 * A fake SQL Server for the mssql deliverer's tests (no SQL Server runs here): it speaks as
 * much of MS-TDS 7.4 as the deliverer uses. PRELOGIN is answered without encryption
 * (ENCRYPT_NOT_SUP); LOGIN7 is checked against one user, password and database and answered
 * with ENVCHANGE (database), LOGINACK and DONE, or error 18456; a SQL batch is one of the
 * session's SET options or an expected statement (`batches`); an RPC must be sp_executesql
 * with an expected statement (`calls`), whose handler gets the NVARCHAR parameters and returns
 * a row count or throws to answer an error. An ATTENTION is acknowledged.
 */
export interface TdsServerOptions {
  user: string;
  password: string;
  database: string;
  /** Statement texts accepted as SQL batches, besides the session's SET options. */
  batches: Record<string, () => number>;
  /** sp_executesql statements accepted as RPCs: the handler gets @params and the other parameters by name (without '@'). */
  calls: Record<string, (parameters: Record<string, string | null>) => number>;
}

export interface TdsServer {
  port: number;
  /** Refuse every connection (the open ones are cut) until `refuse(false)`. */
  refuse(refusing: boolean): void;
  /** Cuts every connection now. */
  cut(): void;
  /** How many connections the server has accepted. */
  connections(): number;
  close(): Promise<void>;
}

const packetType = { sqlBatch: 0x01, rpc: 0x03, reply: 0x04, attention: 0x06, login7: 0x10, prelogin: 0x12 } as const;
const token = { envChange: 0xe3, loginAck: 0xad, done: 0xfd, doneProc: 0xfe, doneInProc: 0xff, error: 0xaa, returnStatus: 0x79 } as const;
const doneStatus = { more: 0x01, error: 0x02, count: 0x10, attention: 0x20 } as const;
const spExecuteSql = 10;
const tds74 = 0x74000004;

/** Thrown by a handler: answered as an ERROR token with this number and text. */
export class TdsError extends Error {
  constructor(
    readonly number: number,
    message: string,
  ) {
    super(message);
  }
}

function ucs2(text: string): Buffer {
  return Buffer.from(text, 'utf16le');
}

function bVarChar(text: string): Buffer {
  return Buffer.concat([Buffer.from([text.length]), ucs2(text)]);
}

function usVarChar(text: string): Buffer {
  const length = Buffer.alloc(2);
  length.writeUInt16LE(text.length);
  return Buffer.concat([length, ucs2(text)]);
}

function withLength(tokenType: number, body: Buffer): Buffer {
  const head = Buffer.alloc(3);
  head.writeUInt8(tokenType, 0);
  head.writeUInt16LE(body.length, 1);
  return Buffer.concat([head, body]);
}

function done(tokenType: number, status: number, rowCount = 0): Buffer {
  const buffer = Buffer.alloc(13);
  buffer.writeUInt8(tokenType, 0);
  buffer.writeUInt16LE(status, 1);
  buffer.writeUInt16LE(0, 3);
  buffer.writeBigUInt64LE(BigInt(rowCount), 5);
  return buffer;
}

function errorToken(number: number, message: string): Buffer {
  const fixed = Buffer.alloc(6);
  fixed.writeUInt32LE(number, 0);
  fixed.writeUInt8(1, 4);
  fixed.writeUInt8(16, 5);
  const line = Buffer.alloc(4);
  line.writeUInt32LE(1);
  return withLength(token.error, Buffer.concat([fixed, usVarChar(message), bVarChar('gridport-fake-tds'), bVarChar(''), line]));
}

function loginAck(): Buffer {
  const version = Buffer.alloc(5);
  version.writeUInt8(1, 0);
  version.writeUInt32BE(tds74, 1);
  return withLength(token.loginAck, Buffer.concat([version, bVarChar('Microsoft SQL Server'), Buffer.from([16, 0, 0x03, 0xe8])]));
}

function databaseChange(database: string): Buffer {
  return withLength(token.envChange, Buffer.concat([Buffer.from([1]), bVarChar(database), bVarChar('master')]));
}

function preloginReply(): Buffer {
  const options: Array<[number, Buffer]> = [
    [0x00, Buffer.from([16, 0, 0x03, 0xe8, 0, 0])],
    [0x01, Buffer.from([0x02])],
    [0x02, Buffer.from([0])],
    [0x03, Buffer.alloc(4)],
    [0x04, Buffer.from([0])],
  ];
  const table = Buffer.alloc(options.length * 5 + 1);
  let offset = table.length;
  options.forEach(([option, data], index) => {
    table.writeUInt8(option, index * 5);
    table.writeUInt16BE(offset, index * 5 + 1);
    table.writeUInt16BE(data.length, index * 5 + 3);
    offset += data.length;
  });
  table.writeUInt8(0xff, options.length * 5);
  return Buffer.concat([table, ...options.map(([, data]) => data)]);
}

/** Reads what a LOGIN7 carries (offsets and lengths in UCS-2 characters; the password scrambled, MS-TDS 2.2.6.4). */
function readLogin7(payload: Buffer): { user: string; password: string; database: string } {
  const field = (at: number) => {
    const offset = payload.readUInt16LE(at);
    const length = payload.readUInt16LE(at + 2);
    return payload.subarray(offset, offset + length * 2);
  };
  const scrambled = Buffer.from(field(44));
  for (let index = 0; index < scrambled.length; index += 1) {
    const byte = (scrambled[index] ?? 0) ^ 0xa5;
    scrambled[index] = ((byte & 0x0f) << 4) | (byte >> 4);
  }
  return { user: field(40).toString('utf16le'), password: scrambled.toString('utf16le'), database: field(68).toString('utf16le') };
}

function afterAllHeaders(payload: Buffer): number {
  return payload.readUInt32LE(0);
}

/** The parameters of an RPC; only NVARCHAR (with and without MAX) is read, as the deliverer sends nothing else. */
function readRpc(payload: Buffer): { procId: number | null; parameters: Record<string, string | null> } {
  let offset = afterAllHeaders(payload);
  const nameLength = payload.readUInt16LE(offset);
  offset += 2;
  let procId: number | null = null;
  if (nameLength === 0xffff) {
    procId = payload.readUInt16LE(offset);
    offset += 2;
  } else {
    offset += nameLength * 2;
  }
  offset += 2;
  const parameters: Record<string, string | null> = {};
  while (offset < payload.length) {
    const nameChars = payload.readUInt8(offset);
    const name = payload
      .subarray(offset + 1, offset + 1 + nameChars * 2)
      .toString('utf16le')
      .replace(/^@/, '');
    offset += 1 + nameChars * 2 + 1;
    const type = payload.readUInt8(offset);
    if (type !== 0xe7) {
      throw new TdsError(8016, `the fake TDS server reads only NVARCHAR parameters (type 0x${type.toString(16)} for @${name})`);
    }
    const maxLength = payload.readUInt16LE(offset + 1);
    offset += 1 + 2 + 5;
    if (maxLength !== 0xffff) {
      const length = payload.readUInt16LE(offset);
      offset += 2;
      parameters[name] = length === 0xffff ? null : payload.subarray(offset, offset + length).toString('utf16le');
      offset += length === 0xffff ? 0 : length;
      continue;
    }
    const total = payload.readBigUInt64LE(offset);
    offset += 8;
    if (total === 0xffffffffffffffffn) {
      parameters[name] = null;
      continue;
    }
    const chunks: Buffer[] = [];
    for (;;) {
      const chunkLength = payload.readUInt32LE(offset);
      offset += 4;
      if (chunkLength === 0) {
        break;
      }
      chunks.push(payload.subarray(offset, offset + chunkLength));
      offset += chunkLength;
    }
    parameters[name] = Buffer.concat(chunks).toString('utf16le');
  }
  return { procId, parameters };
}

export function startTdsServer(options: TdsServerOptions): Promise<TdsServer> {
  const sockets = new Set<net.Socket>();
  let refusing = false;
  let accepted = 0;

  const serve = (socket: net.Socket) => {
    accepted += 1;
    if (refusing) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let pending = Buffer.alloc(0);
    let message: Buffer[] = [];
    let loggedIn = false;

    const reply = (payload: Buffer) => {
      const room = 4096 - 8;
      let offset = 0;
      let id = 1;
      do {
        const part = payload.subarray(offset, offset + room);
        offset += part.length;
        const header = Buffer.alloc(8);
        header.writeUInt8(packetType.reply, 0);
        header.writeUInt8(offset >= payload.length ? 0x01 : 0x00, 1);
        header.writeUInt16BE(part.length + 8, 2);
        header.writeUInt8(id % 256, 6);
        socket.write(Buffer.concat([header, part]));
        id += 1;
      } while (offset < payload.length);
    };
    const failed = (error: unknown, final: number) => {
      const number = error instanceof TdsError ? error.number : 50000;
      const text = error instanceof Error ? error.message : String(error);
      return Buffer.concat([errorToken(number, text), done(final, doneStatus.error)]);
    };

    const handle = (type: number, payload: Buffer) => {
      if (type === packetType.prelogin) {
        reply(preloginReply());
        return;
      }
      if (type === packetType.login7) {
        const login = readLogin7(payload);
        if (login.user !== options.user || login.password !== options.password || login.database !== options.database) {
          reply(failed(new TdsError(18456, `Login failed for user '${login.user}'.`), token.done));
          return;
        }
        loggedIn = true;
        reply(Buffer.concat([databaseChange(options.database), loginAck(), done(token.done, 0)]));
        return;
      }
      if (type === packetType.attention) {
        reply(done(token.done, doneStatus.attention));
        return;
      }
      if (!loggedIn) {
        socket.destroy();
        return;
      }
      if (type === packetType.sqlBatch) {
        const text = payload.subarray(afterAllHeaders(payload)).toString('utf16le');
        try {
          const statement = options.batches[text];
          if (statement) {
            reply(done(token.done, doneStatus.count, statement()));
          } else if (/^set /i.test(text)) {
            reply(done(token.done, 0));
          } else {
            throw new TdsError(102, `the fake TDS server does not expect this batch: ${text.slice(0, 80)}`);
          }
        } catch (error) {
          reply(failed(error, token.done));
        }
        return;
      }
      if (type === packetType.rpc) {
        try {
          const { procId, parameters } = readRpc(payload);
          const statement = parameters.statement ?? '';
          const call = options.calls[statement];
          if (procId !== spExecuteSql || !call) {
            throw new TdsError(102, `the fake TDS server expects sp_executesql with a known statement: ${statement.slice(0, 80)}`);
          }
          const count = call(parameters);
          const status = Buffer.from([token.returnStatus, 0, 0, 0, 0]);
          reply(Buffer.concat([done(token.doneInProc, doneStatus.count | doneStatus.more, count), status, done(token.doneProc, 0)]));
        } catch (error) {
          reply(failed(error, token.doneProc));
        }
        return;
      }
      reply(failed(new TdsError(8009, `the fake TDS server does not take packets of type ${type}`), token.done));
    };

    socket.on('data', (data: Buffer) => {
      pending = Buffer.concat([pending, data]);
      while (pending.length >= 8) {
        const length = pending.readUInt16BE(2);
        if (pending.length < length) {
          return;
        }
        const type = pending.readUInt8(0);
        const endOfMessage = (pending.readUInt8(1) & 0x01) === 0x01;
        message.push(pending.subarray(8, length));
        pending = pending.subarray(length);
        if (endOfMessage) {
          const payload = Buffer.concat(message);
          message = [];
          handle(type, payload);
        }
      }
    });
  };

  const server = net.createServer(serve);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        reject(new Error('the fake TDS server has no port'));
        return;
      }
      const cut = () => {
        for (const socket of sockets) {
          socket.destroy();
        }
      };
      resolve({
        port: address.port,
        refuse(value) {
          refusing = value;
          if (value) {
            cut();
          }
        },
        cut,
        connections: () => accepted,
        close: () =>
          new Promise<void>((closed) => {
            cut();
            server.close(() => closed());
          }),
      });
    });
  });
}
