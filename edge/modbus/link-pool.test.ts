import { readFileSync } from 'node:fs';
import net from 'node:net';
import { ModbusLinkPool, planBlocks } from './link-pool';
import { ModbusRequestError } from './link';
import { startRegisterServer, startSerialLine, type RegisterServer } from '../../test-support/modbus-peers/register-server';
import { describeWithPeers } from '../../test-support/services';

const fast = { timeoutMs: 1000, retries: 0 };

function zero() {
  return { success: 0, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 0, responseError: 0 };
}

async function failureOf(promise: Promise<unknown>): Promise<ModbusRequestError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ModbusRequestError) {
      return error;
    }
    throw error;
  }
  throw new Error('the request succeeded');
}

/**
 * Waits until no TCP connection of this machine to `port` is established or half closed, that
 * is until a client whose peer went away has closed its side too (Linux's /proc/net/tcp and
 * tcp6: state 01 ESTABLISHED, 08 CLOSE_WAIT).
 */
async function untilNoConnectionTo(port: number): Promise<void> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const deadline = Date.now() + 5000;
  for (;;) {
    const open = ['/proc/net/tcp', '/proc/net/tcp6'].some((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .slice(1)
        .some((line) => {
          const [, , remote, state] = line.trim().split(/\s+/);
          return remote?.endsWith(`:${hexPort}`) === true && (state === '01' || state === '08');
        }),
    );
    if (!open) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(`a connection to port ${port} stayed open for 5 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describeWithPeers(['pymodbus', 'socat'], __filename)('ModbusLinkPool against pymodbus', () => {
  let peer: RegisterServer;
  let other: RegisterServer;
  let pool: ModbusLinkPool;

  beforeAll(async () => {
    [peer, other] = await Promise.all([
      startRegisterServer({
        units: {
          '1': {
            holding: { '100': [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], '120': [20, 21], '300': Array.from({ length: 200 }, (_, i) => i) },
            input: { '0': [11, 12, 13] },
            coils: { '0': [true, false, true, true, false, false, false, false, true] },
            discrete: { '10': [false, true] },
          },
          '2': { holding: { '0': [222] } },
        },
        silent: [7],
      }),
      startRegisterServer({ units: { '1': { holding: { '0': [42] } } } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([peer.stop(), other.stop()]);
  });
  beforeEach(() => {
    pool = new ModbusLinkPool();
  });
  afterEach(async () => {
    await pool.close();
  });

  it('reads every table and writes registers and coils', async () => {
    const unit = pool.unit(peer.connection, 1, fast);
    expect(await unit.readHoldingRegisters(100, 3)).toEqual([1, 2, 3]);
    expect(await unit.readInputRegisters(1, 2)).toEqual([12, 13]);
    expect(await unit.readCoils(0, 9)).toEqual([true, false, true, true, false, false, false, false, true]);
    expect(await unit.readDiscreteInputs(10, 2)).toEqual([false, true]);
    await unit.writeRegister(101, 65535);
    await unit.writeRegisters(103, [400, 500]);
    await unit.writeCoil(1, true);
    await unit.writeCoils(4, [true, true]);
    expect(await unit.readHoldingRegisters(100, 5)).toEqual([1, 65535, 3, 400, 500]);
    expect(await unit.readCoils(0, 6)).toEqual([true, true, true, true, true, true]);
    expect(unit.takeStatistics()).toEqual({ ...zero(), success: 10 });
    expect(unit.statistics).toEqual(zero());
    // Put back what other tests read.
    await unit.writeRegisters(100, [1, 2, 3, 4, 5]);
    await unit.writeCoils(0, [true, false, true, true, false, false]);
  });

  it('keeps the counters of each unit apart on a shared link', async () => {
    const one = pool.unit(peer.connection, 1, fast);
    const two = pool.unit(peer.connection, 2, fast);
    expect(await two.readHoldingRegisters(0, 1)).toEqual([222]);
    expect(await one.readHoldingRegisters(120, 2)).toEqual([20, 21]);
    await one.readHoldingRegisters(120, 1);
    expect(one.statistics.success).toBe(2);
    expect(two.statistics.success).toBe(1);
  });

  it('reads blocks in as few requests as the ranges allow', async () => {
    const unit = pool.unit(peer.connection, 1, fast);
    const block = await unit.readBlocks('holding', [
      { address: 104, length: 2 },
      { address: 100, length: 2 },
      // 2-register gap from 106 to 108: read across.
      { address: 108, length: 2 },
      // 10 registers from 110 to 120 lie beyond the gap of 8: a second request.
      { address: 120, length: 2 },
    ]);
    expect(unit.takeStatistics()).toEqual({ ...zero(), success: 2 });
    expect(block.slice(100, 2)).toEqual([1, 2]);
    expect(block.slice(104, 2)).toEqual([5, 6]);
    expect(block.get(107)).toBe(8);
    expect(block.slice(108, 2)).toEqual([9, 10]);
    expect(block.slice(120, 2)).toEqual([20, 21]);
    expect(block.get(110)).toBeUndefined();
    expect(block.slice(119, 2)).toBeUndefined();
  });

  it('splits a block longer than 125 registers', async () => {
    const unit = pool.unit(peer.connection, 1, fast);
    const block = await unit.readBlocks('holding', [{ address: 300, length: 200 }]);
    expect(unit.takeStatistics().success).toBe(2);
    expect(block.slice(300, 200)).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });

  it('reads the ranges of a merged block one by one when the unit refuses the gap', async () => {
    const unit = pool.unit(peer.connection, 1, { ...fast, blockGap: 10 });
    // 110-119 hold nothing: the merged read 100-121 is refused (exception 2), then each range is read.
    const block = await unit.readBlocks('holding', [
      { address: 100, length: 10 },
      { address: 120, length: 2 },
    ]);
    expect(block.get(100)).toBe(1);
    expect(block.slice(120, 2)).toEqual([20, 21]);
    expect(unit.takeStatistics()).toEqual({ ...zero(), responseError: 1, success: 2 });
  });

  it('answers a Modbus exception as responseError with its code', async () => {
    const unit = pool.unit(peer.connection, 1, fast);
    const failure = await failureOf(unit.readHoldingRegisters(5000, 2));
    expect(failure.failure).toBe('responseError');
    expect(failure.exceptionCode).toBe(2);
    expect(unit.takeStatistics()).toEqual({ ...zero(), responseError: 1 });
  });

  it.each([
    ['an address past 65535', (u: ReturnType<ModbusLinkPool['unit']>) => u.readHoldingRegisters(65536, 1)],
    ['a negative address', (u: ReturnType<ModbusLinkPool['unit']>) => u.readInputRegisters(-1, 1)],
    ['126 registers', (u: ReturnType<ModbusLinkPool['unit']>) => u.readHoldingRegisters(0, 126)],
    ['0 registers', (u: ReturnType<ModbusLinkPool['unit']>) => u.readHoldingRegisters(0, 0)],
    ['2001 coils', (u: ReturnType<ModbusLinkPool['unit']>) => u.readCoils(0, 2001)],
    ['a read past 65535', (u: ReturnType<ModbusLinkPool['unit']>) => u.readDiscreteInputs(65535, 2)],
    ['a register value of 65536', (u: ReturnType<ModbusLinkPool['unit']>) => u.writeRegister(0, 65536)],
    ['no values', (u: ReturnType<ModbusLinkPool['unit']>) => u.writeRegisters(0, [])],
    ['1969 coils', (u: ReturnType<ModbusLinkPool['unit']>) => u.writeCoils(0, new Array<boolean>(1969).fill(true))],
  ])('refuses %s as invalidRequest without asking the unit', async (_name, request) => {
    // A dead endpoint: had the wire been touched, the failure would be a connection error.
    const unit = pool.unit({ type: 'tcp', ip: '127.0.0.1', port: 1 }, 1, fast);
    expect((await failureOf(request(unit))).failure).toBe('invalidRequest');
    expect(unit.takeStatistics()).toEqual({ ...zero(), invalidRequest: 1 });
  });

  it('gives a connection without Modbus a unit that refuses every request', async () => {
    const unit = pool.unit({ type: 'url', url: 'http://10.0.0.1' }, 1, fast);
    const failure = await failureOf(unit.readHoldingRegisters(0, 1));
    expect(failure.failure).toBe('invalidRequest');
    expect(failure.message).toBe('a connection of type url carries no Modbus');
  });

  it('counts a silent unit’s timeouts and retries while other units and endpoints keep answering', async () => {
    const silent = pool.unit(peer.connection, 7, { timeoutMs: 300, retries: 1 });
    const neighbour = pool.unit(peer.connection, 1, fast);
    const elsewhere = pool.unit(other.connection, 1, fast);
    const done: string[] = [];
    const silentRead = failureOf(silent.readHoldingRegisters(0, 1)).then((failure) => {
      done.push('silent');
      return failure;
    });
    const elsewhereReads = (async () => {
      for (let i = 0; i < 5; i += 1) {
        expect(await elsewhere.readHoldingRegisters(0, 1)).toEqual([42]);
      }
      done.push('elsewhere');
    })();
    // Queued behind the silent unit's first attempt, before its retry.
    const neighbourRead = neighbour.readHoldingRegisters(120, 1).then((values) => {
      done.push('neighbour');
      return values;
    });
    const [failure, values] = await Promise.all([silentRead, neighbourRead, elsewhereReads]);
    expect(failure.failure).toBe('timeout');
    expect(values).toEqual([20]);
    expect(done).toEqual(['elsewhere', 'neighbour', 'silent']);
    expect(silent.takeStatistics()).toEqual({ ...zero(), timeout: 2 });
    expect(neighbour.takeStatistics()).toEqual({ ...zero(), success: 1 });
    // The link stays up after the timeouts.
    expect(await neighbour.readHoldingRegisters(120, 1)).toEqual([20]);
  });

  it('connects anew after three timeouts in a row on a TCP link, and keeps answering', async () => {
    const logged: string[] = [];
    const logging = new ModbusLinkPool({ log: (_level, message) => logged.push(message) });
    try {
      const silent = logging.unit(peer.connection, 7, { timeoutMs: 100, retries: 0 });
      const neighbour = logging.unit(peer.connection, 1, fast);
      for (let i = 0; i < 2; i += 1) {
        expect((await failureOf(silent.readHoldingRegisters(0, 1))).failure).toBe('timeout');
      }
      // An answer between timeouts: the link is fine.
      expect(await neighbour.readHoldingRegisters(120, 1)).toEqual([20]);
      for (let i = 0; i < 3; i += 1) {
        expect((await failureOf(silent.readHoldingRegisters(0, 1))).failure).toBe('timeout');
      }
      expect(logged).toEqual([`Modbus link tcp://127.0.0.1:${peer.port}: 3 timeouts in a row, connecting anew`]);
      expect(await neighbour.readHoldingRegisters(120, 1)).toEqual([20]);
      expect(silent.takeStatistics()).toEqual({ ...zero(), timeout: 5 });
    } finally {
      await logging.close();
    }
  });

  it('refuses requests beyond the queue bound as queueFull', async () => {
    const bounded = new ModbusLinkPool({ queueLimit: 2 });
    try {
      const silent = bounded.unit(peer.connection, 7, { timeoutMs: 200, retries: 0 });
      const requests = [0, 1, 2, 3].map(() => failureOf(silent.readHoldingRegisters(0, 1)));
      const failures = await Promise.all(requests);
      expect(failures.map((failure) => failure.failure)).toEqual(['timeout', 'timeout', 'timeout', 'queueFull']);
      expect(silent.takeStatistics()).toEqual({ ...zero(), timeout: 3, queueFull: 1 });
    } finally {
      await bounded.close();
    }
  });

  it('fails fast as notReady while a dead endpoint backs off, and reconnects after the peer restarts', async () => {
    let now = 1_000_000;
    const clocked = new ModbusLinkPool({ now: () => now, backoffFirstMs: 1000 });
    const restartable = await startRegisterServer({ units: { '3': { holding: { '0': [7, 8] } } } });
    let restarted: RegisterServer | undefined;
    try {
      const unit = clocked.unit(restartable.connection, 3, { timeoutMs: 1000, retries: 1 });
      expect(await unit.readHoldingRegisters(0, 2)).toEqual([7, 8]);
      await restartable.stop();
      // The link noticed the peer go (its socket closed; under load that takes a moment): the
      // next request reconnects at once, is refused, and is not retried while the link backs off.
      await untilNoConnectionTo(restartable.port);
      expect((await failureOf(unit.readHoldingRegisters(0, 2))).failure).toBe('connectionError');
      expect(unit.takeStatistics()).toEqual({ ...zero(), success: 1, connectionError: 1 });
      expect((await failureOf(unit.readHoldingRegisters(0, 2))).failure).toBe('notReady');
      restarted = await startRegisterServer({ port: restartable.port, units: { '3': { holding: { '0': [9, 10] } } } });
      expect((await failureOf(unit.readHoldingRegisters(0, 2))).failure).toBe('notReady');
      now += 1000;
      expect(await unit.readHoldingRegisters(0, 2)).toEqual([9, 10]);
      expect(unit.takeStatistics()).toEqual({ ...zero(), success: 1, notReady: 2 });
    } finally {
      await clocked.close();
      await restarted?.stop();
    }
  });

  it('backs off longer after each failed connect', async () => {
    let now = 0;
    const clocked = new ModbusLinkPool({ now: () => now, backoffFirstMs: 1000, backoffMostMs: 3000 });
    try {
      const unit = clocked.unit({ type: 'tcp', ip: '127.0.0.1', port: 1 }, 1, fast);
      const outcomes: string[] = [];
      for (const step of [0, 999, 1, 1999, 1, 2999, 1, 2999, 1]) {
        now += step;
        outcomes.push((await failureOf(unit.readHoldingRegisters(0, 1))).failure);
      }
      expect(outcomes).toEqual([
        'connectionError',
        'notReady',
        'connectionError',
        'notReady',
        'connectionError',
        'notReady',
        'connectionError',
        'notReady',
        'connectionError',
      ]);
    } finally {
      await clocked.close();
    }
  });

  it('speaks Modbus over UDP', async () => {
    const udp = await startRegisterServer({ transport: 'udp', units: { '4': { holding: { '0': [11, 22] }, coils: { '0': [false, true] } } } });
    try {
      const unit = pool.unit(udp.connection, 4, fast);
      expect(await unit.readHoldingRegisters(0, 2)).toEqual([11, 22]);
      await unit.writeCoil(0, true);
      expect(await unit.readCoils(0, 2)).toEqual([true, true]);
      expect(unit.takeStatistics()).toEqual({ ...zero(), success: 3 });
    } finally {
      await udp.stop();
    }
  });

  // Pseudo-terminals refuse parity settings (pyserial's asyncio port: EINVAL), so the line runs 19200 8N1.
  it('speaks RTU on an rs485 serial line with its line settings', async () => {
    const line = await startSerialLine();
    const serial = await startRegisterServer({
      transport: 'serial',
      serial: { device: line.ends[1], baudRate: 19200, parity: 'none' },
      units: { '8': { holding: { '100': [500, 600] }, discrete: { '0': [true] } }, '9': { input: { '0': [9] } } },
    });
    try {
      const connection = { type: 'rs485', path: line.ends[0], baudRate: 19200, dataBits: 8, stopBits: 1, parity: 'none' };
      const unit = pool.unit(connection, 8, fast);
      const neighbour = pool.unit(connection, 9, fast);
      expect(await unit.readHoldingRegisters(100, 2)).toEqual([500, 600]);
      expect(await neighbour.readInputRegisters(0, 1)).toEqual([9]);
      await unit.writeRegisters(100, [501, 601]);
      expect(await unit.readHoldingRegisters(100, 2)).toEqual([501, 601]);
      expect(await unit.readDiscreteInputs(0, 1)).toEqual([true]);
      expect(unit.takeStatistics()).toEqual({ ...zero(), success: 4 });
    } finally {
      await pool.close();
      await serial.stop();
      await line.stop();
    }
  });

  it('counts a serial port that cannot be opened as a connection error', async () => {
    const unit = pool.unit({ type: 'rs485', path: '/dev/gridport-no-such-port' }, 1, fast);
    const failure = await failureOf(unit.readHoldingRegisters(0, 1));
    expect(failure.failure).toBe('connectionError');
    expect(failure.message).toBe('/dev/gridport-no-such-port: Error: No such file or directory, cannot open /dev/gridport-no-such-port');
  });

  it('speaks RTU frames over TCP when the connection says rtuOverTcp', async () => {
    const rtu = await startRegisterServer({ framer: 'rtu', units: { '5': { holding: { '10': [1234, 5678] } } } });
    try {
      const unit = pool.unit(rtu.connection, 5, fast);
      expect(await unit.readHoldingRegisters(10, 2)).toEqual([1234, 5678]);
      await unit.writeRegister(11, 99);
      expect(await unit.readHoldingRegisters(10, 2)).toEqual([1234, 99]);
    } finally {
      await rtu.stop();
    }
  });
});

describe('ModbusLinkPool when the peer hangs up mid-request', () => {
  it('fails the request in flight as connectionError and reconnects for the next, never leaving the queue waiting', async () => {
    // A TCP peer that reads the first request and closes the socket without answering; later connections answer nothing either.
    const sockets = new Set<net.Socket>();
    let connections = 0;
    const server = net.createServer((socket) => {
      connections += 1;
      sockets.add(socket);
      socket.once('data', () => socket.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const pool = new ModbusLinkPool({ backoffFirstMs: 0 });
    try {
      const unit = pool.unit({ type: 'tcp', ip: '127.0.0.1', port }, 1, { timeoutMs: 60_000, retries: 0 });
      const first = failureOf(unit.readHoldingRegisters(0, 2));
      const queued = failureOf(unit.readHoldingRegisters(10, 2));
      expect((await first).failure).toBe('connectionError');
      expect((await queued).failure).toBe('connectionError');
      expect(connections).toBe(2);
      expect(unit.statistics).toMatchObject({ connectionError: 2, timeout: 0 });
    } finally {
      await pool.close();
      for (const socket of sockets) {
        socket.destroy();
      }
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('ModbusLinkPool reading device identification', () => {
  it('fails as a timeout, without crashing the process, when a unit announces more objects and then never sends them', async () => {
    // A raw Modbus TCP peer: the first 43/14 request is answered with one object and "more follows"; the follow-up never.
    let requests = 0;
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('data', (frame) => {
        requests += 1;
        if (requests > 1) {
          return;
        }
        const pdu = Buffer.from([0x2b, 0x0e, 0x01, 0x01, 0xff, 0x01, 0x01, 0x00, 0x04, ...Buffer.from('Acme')]);
        const header = Buffer.alloc(7);
        frame.copy(header, 0, 0, 2);
        header.writeUInt16BE(0, 2);
        header.writeUInt16BE(pdu.length + 1, 4);
        header.writeUInt8(frame.readUInt8(6), 6);
        socket.write(Buffer.concat([header, pdu]));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const pool = new ModbusLinkPool();
    try {
      const unit = pool.unit({ type: 'tcp', ip: '127.0.0.1', port }, 1, { timeoutMs: 300, retries: 0 }) as ReturnType<ModbusLinkPool['unit']> & {
        readDeviceIdentification(code: number, objectId: number): Promise<unknown>;
      };
      expect((await failureOf(unit.readDeviceIdentification(1, 0))).failure).toBe('timeout');
      expect(requests).toBe(2);
    } finally {
      await pool.close();
      for (const socket of sockets) {
        socket.destroy();
      }
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('planBlocks', () => {
  it('keeps requests within a shorter length a unit asks for', () => {
    expect(
      planBlocks(
        [
          { address: 0, length: 76 },
          { address: 200, length: 6 },
        ],
        40,
        40,
      ).map(({ block }) => block),
    ).toEqual([
      { address: 0, length: 40 },
      { address: 40, length: 36 },
      { address: 200, length: 6 },
    ]);
  });

  it('merges across small gaps, keeps requests within 125 registers', () => {
    expect(
      planBlocks(
        [
          { address: 0, length: 100 },
          { address: 104, length: 21 },
          { address: 126, length: 1 },
          { address: 40000, length: 2 },
        ],
        8,
      ).map(({ block }) => block),
    ).toEqual([
      { address: 0, length: 125 },
      { address: 126, length: 1 },
      { address: 40000, length: 2 },
    ]);
  });
});
