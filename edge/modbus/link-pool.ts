/**
 * The Modbus link pool (edge/modbus/link.ts) over modbus-serial: one link per endpoint (a TCP or
 * UDP address, a serial port), shared by every unit on it. Requests on a link run one at a time
 * from a bounded FIFO; each attempt carries the unit's own timeout. A link that breaks is
 * reconnected lazily by the next request: the first time at once, after a failed connect only
 * once the backoff has passed; until then requests fail at once as notReady, so a dead endpoint
 * holds up nobody and a dead unit on a live link costs only its own timeouts.
 */
import type { EventEmitter } from 'node:events';
import ModbusRTU from 'modbus-serial';
import type { ConnectionStatistics } from '../../contracts/hub/reports';
import { commandLimits } from '../../contracts/device/commands';
import { ModbusRequestError, type ModbusFailure, type ModbusLinks, type ModbusUnit, type RegisterBlock, type RegisterRange, type UnitOptions } from './link';

/** Modbus protocol limits per request (Modbus application protocol 1.1b3, section 6). */
export const modbusRequestLimits = {
  readRegisters: commandLimits.modbusReadRegisters,
  readBits: commandLimits.modbusReadBits,
  /** FC16 carries at most 123 registers, FC15 at most 1968 coils; longer writes are split. */
  writeRegisters: 123,
  writeCoils: 1968,
} as const;

/** Our defaults: further attempts after a timeout or connection error, and the waiting requests a link holds. */
export const linkDefaults = {
  retries: 1,
  queueLimit: 64,
  /** Registers readBlocks reads across between two ranges rather than asking twice. */
  blockGap: 8,
  /** Reconnect backoff after a failed connect: doubling from the first to the most. */
  backoffFirstMs: 500,
  backoffMostMs: 30_000,
  /** Timeouts in a row, with no answer between them, after which a TCP connection is taken for half-open and made anew. */
  timeoutsBeforeReconnect: 3,
} as const;

export interface LinkPoolOptions {
  /** The clock of the reconnect backoff, ms (tests step it). */
  now?: () => number;
  /** Requests a link holds waiting beyond the one running; more are refused as queueFull. */
  queueLimit?: number;
  backoffFirstMs?: number;
  backoffMostMs?: number;
  log?: (level: 'info' | 'warn' | 'error', message: string, details?: Record<string, unknown>) => void;
}

/** Where a link goes, as the pool knows it after reading the connection of the config. */
export type ModbusEndpoint =
  | { type: 'tcp'; ip: string; port: number; rtuOverTcp: boolean }
  | { type: 'udp'; ip: string; port: number }
  | {
      type: 'rs485';
      path: string;
      baudRate: number;
      dataBits: number;
      stopBits: number;
      parity: 'none' | 'even' | 'mark' | 'odd' | 'space';
      /** Modbus ASCII framing (the unit's map asks for it) instead of RTU. */
      ascii?: boolean;
    };

/** A device identification read with function 43/14: the objects by id, and the conformity level. */
export interface DeviceIdentification {
  conformityLevel: number;
  objects: Record<number, string>;
}

/** The pool's units can also read the device identification (executeModbusCommand). */
export interface IdentifiableUnit extends ModbusUnit {
  readDeviceIdentification(deviceIdCode: number, objectId: number): Promise<DeviceIdentification>;
}

const modbusPort = 502;

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}

/** The endpoint of a tcp, udp or rs485 connection (a multiple connection: its default one); a string says why there is none. */
export function endpointOf(connection: unknown): ModbusEndpoint | string {
  const type = field(connection, 'type');
  if (type === 'multiple') {
    return endpointOf(field(connection, 'default'));
  }
  if (type === 'tcp' || type === 'udp') {
    const ip = field(connection, 'ip');
    if (typeof ip !== 'string') {
      return `a ${type} connection without an ip`;
    }
    const port = numberOr(field(connection, 'port'), modbusPort);
    return type === 'tcp' ? { type, ip, port, rtuOverTcp: field(connection, 'rtuOverTcp') === true } : { type, ip, port };
  }
  if (type === 'rs485') {
    const path = field(connection, 'path');
    if (typeof path !== 'string') {
      return 'an rs485 connection without a path';
    }
    const parity = field(connection, 'parity');
    return {
      type,
      path,
      baudRate: numberOr(field(connection, 'baudRate'), 9600),
      dataBits: numberOr(field(connection, 'dataBits'), 8),
      stopBits: numberOr(field(connection, 'stopBits'), 1),
      parity: parity === 'even' || parity === 'mark' || parity === 'odd' || parity === 'space' ? parity : 'none',
    };
  }
  return `a connection of type ${String(type)} carries no Modbus`;
}

function endpointKey(endpoint: ModbusEndpoint): string {
  if (endpoint.type === 'rs485') {
    return `rs485:${endpoint.path}${endpoint.ascii === true ? ':ascii' : ''}`;
  }
  if (endpoint.type === 'tcp') {
    return `tcp:${endpoint.ip}:${endpoint.port}${endpoint.rtuOverTcp ? ':rtu' : ''}`;
  }
  return `udp:${endpoint.ip}:${endpoint.port}`;
}

function describe(endpoint: ModbusEndpoint): string {
  return endpoint.type === 'rs485' ? endpoint.path : `${endpoint.type}://${endpoint.ip}:${endpoint.port}`;
}

/** The outcome counter and message of an error modbus-serial gave. */
function classify(error: unknown, linkOpen: boolean): ModbusRequestError {
  if (error instanceof ModbusRequestError) {
    return error;
  }
  const modbusCode = field(error, 'modbusCode');
  const errno = field(error, 'errno') ?? field(error, 'code');
  const message = String(field(error, 'message') ?? error);
  if (typeof modbusCode === 'number') {
    return new ModbusRequestError('responseError', message, modbusCode);
  }
  if (errno === 'ETIMEDOUT' && linkOpen) {
    return new ModbusRequestError('timeout', 'The unit did not answer in time');
  }
  if (!linkOpen || typeof errno === 'string') {
    return new ModbusRequestError('connectionError', message);
  }
  // A CRC, length or framing error: the unit answered, but nonsense.
  return new ModbusRequestError('responseError', message);
}

interface Job<T> {
  run: (client: ModbusRTU) => Promise<T>;
  slaveId: number;
  timeoutMs: number;
  resolve: (value: T) => void;
  reject: (error: ModbusRequestError) => void;
}

/** One endpoint: its client, its queue, its reconnect state. */
class Link {
  private client: ModbusRTU | undefined;
  private readonly queue: Job<unknown>[] = [];
  private running = false;
  private closed = false;
  /** Connects that failed in a row, for the backoff. */
  private failedConnects = 0;
  /** Before this time (options.now) a closed link refuses requests as notReady. */
  private retryAt = 0;
  /** Requests that timed out since the last answer on this link. */
  private timeoutsInRow = 0;

  constructor(
    readonly endpoint: ModbusEndpoint,
    private readonly options: Required<Omit<LinkPoolOptions, 'log'>> & Pick<LinkPoolOptions, 'log'>,
  ) {}

  /** Runs one attempt of a request in turn. */
  request<T>(slaveId: number, timeoutMs: number, run: (client: ModbusRTU) => Promise<T>): Promise<T> {
    if (this.closed) {
      return Promise.reject(new ModbusRequestError('notReady', 'The link pool is closed'));
    }
    if (this.backingOff()) {
      return Promise.reject(this.notReady());
    }
    if (this.queue.length >= this.options.queueLimit) {
      return Promise.reject(new ModbusRequestError('queueFull', `${this.queue.length} requests already wait on ${describe(this.endpoint)}`));
    }
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run, slaveId, timeoutMs, resolve, reject } as Job<unknown>);
      void this.drain();
    });
  }

  /** True while a closed link waits out its reconnect backoff. */
  backingOff(): boolean {
    return this.client === undefined && this.options.now() < this.retryAt;
  }

  private notReady(): ModbusRequestError {
    return new ModbusRequestError('notReady', `${describe(this.endpoint)} is reconnecting`);
  }

  private async drain(): Promise<void> {
    if (this.running) {
      return;
    }
    this.running = true;
    for (let job = this.queue.shift(); job !== undefined; job = this.queue.shift()) {
      try {
        job.resolve(await this.attempt(job));
      } catch (error) {
        job.reject(classify(error, this.client?.isOpen === true));
      }
    }
    this.running = false;
  }

  private async attempt(job: Job<unknown>): Promise<unknown> {
    if (this.closed) {
      throw new ModbusRequestError('notReady', 'The link pool is closed');
    }
    const client = await this.connected(job.timeoutMs);
    client.setID(job.slaveId);
    client.setTimeout(job.timeoutMs);
    try {
      const result = await settled(job.run(client), client, job.timeoutMs);
      this.timeoutsInRow = 0;
      return result;
    } catch (error) {
      const failure = classify(error, client.isOpen);
      this.timeoutsInRow = failure.failure === 'timeout' ? this.timeoutsInRow + 1 : 0;
      if (failure.failure === 'connectionError') {
        this.drop(client, 0);
      } else if (this.endpoint.type === 'tcp' && this.timeoutsInRow >= linkDefaults.timeoutsBeforeReconnect) {
        // A peer that vanished without closing (a rebooted gateway) leaves a socket that only times out.
        this.options.log?.('warn', `Modbus link ${describe(this.endpoint)}: ${this.timeoutsInRow} timeouts in a row, connecting anew`);
        this.timeoutsInRow = 0;
        this.drop(client, 0);
      }
      throw failure;
    }
  }

  /** The open client, connecting first when there is none. */
  private async connected(timeoutMs: number): Promise<ModbusRTU> {
    if (this.client !== undefined && this.client.isOpen) {
      return this.client;
    }
    if (this.client !== undefined) {
      this.drop(this.client, 0);
    }
    if (this.options.now() < this.retryAt) {
      throw this.notReady();
    }
    const client = new ModbusRTU();
    guardIdentificationFollowUps(client);
    // modbus-serial re-emits port errors; the request in flight sees them as its own failure.
    client.on('error', () => undefined);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.open(client),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(
            () => reject(new ModbusRequestError('connectionError', `No connection to ${describe(this.endpoint)} within ${timeoutMs} ms`)),
            timeoutMs,
          );
        }),
      ]);
    } catch (error) {
      closeQuietly(client);
      this.failedConnects += 1;
      const backoff = Math.min(this.options.backoffMostMs, this.options.backoffFirstMs * 2 ** (this.failedConnects - 1));
      this.retryAt = this.options.now() + backoff;
      this.options.log?.('warn', `Modbus link ${describe(this.endpoint)} did not connect; next try in ${backoff} ms`, {
        error: String(field(error, 'message') ?? error),
      });
      throw error instanceof ModbusRequestError
        ? error
        : new ModbusRequestError('connectionError', `${describe(this.endpoint)}: ${String(field(error, 'message') ?? error)}`);
    } finally {
      clearTimeout(timer);
    }
    if (this.closed) {
      closeQuietly(client);
      throw new ModbusRequestError('notReady', 'The link pool is closed');
    }
    this.failedConnects = 0;
    this.client = client;
    client.on('close', () => {
      if (this.client === client) {
        this.drop(client, 0);
      }
    });
    return client;
  }

  private open(client: ModbusRTU): Promise<void> {
    const endpoint = this.endpoint;
    if (endpoint.type === 'rs485') {
      const { baudRate, dataBits, stopBits, parity } = endpoint;
      if (endpoint.ascii === true) {
        return client.connectAsciiSerial(endpoint.path, { baudRate, dataBits, stopBits, parity });
      }
      return client.connectRTUBuffered(endpoint.path, { baudRate, dataBits, stopBits, parity });
    }
    if (endpoint.type === 'udp') {
      return this.openUdp(client, endpoint);
    }
    if (endpoint.rtuOverTcp) {
      // RTU frames (with CRC, no MBAP header) over the socket: modbus-serial's telnet port. Its
      // "TcpRTUBuffered" port sends MBAP headers, which a serial-to-Ethernet converter passes on as garbage.
      return client.connectTelnet(endpoint.ip, { port: endpoint.port });
    }
    return client.connectTCP(endpoint.ip, { port: endpoint.port });
  }

  /** modbus-serial's UDP port says it is open before its socket is bound; requests before then fail as Port Not Open. */
  private async openUdp(client: ModbusRTU, endpoint: { ip: string; port: number }): Promise<void> {
    await client.connectUDP(endpoint.ip, { port: endpoint.port });
    // Binding takes a tick or two; the connect timeout bounds the wait from outside, this bound from inside.
    for (let waited = 0; !client.isOpen && !this.closed && waited < 1000; waited += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }

  /** Forgets a broken client; the next request reconnects once `delayMs` has passed. */
  private drop(client: ModbusRTU, delayMs: number): void {
    if (this.client === client) {
      this.client = undefined;
      this.retryAt = this.options.now() + delayMs;
    }
    closeQuietly(client);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (let job = this.queue.shift(); job !== undefined; job = this.queue.shift()) {
      job.reject(new ModbusRequestError('notReady', 'The link pool is closed'));
    }
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) {
      closeQuietly(client);
    }
  }
}

type Fc43Callback = (error: unknown, answer?: { data: Record<number, string> }) => void;

/**
 * modbus-serial reads device identification objects that "follow" with further 43/14 requests
 * through the client's own writeFC43, and its callback reads the answer's data even when the
 * follow-up failed (a timeout): a TypeError thrown from a timer, which would end the process.
 * The client's writeFC43 hands that callback an empty answer with the error, so the request
 * fails as the error says.
 */
function guardIdentificationFollowUps(client: ModbusRTU): void {
  const instance = client as unknown as { writeFC43: (address: number, code: number, objectId: number, next: Fc43Callback) => void };
  const writeFC43 = instance.writeFC43.bind(client);
  instance.writeFC43 = (address, code, objectId, next) => writeFC43(address, code, objectId, (error, answer) => next(error, answer ?? { data: {} }));
}

/**
 * A request that always settles. modbus-serial never answers a request whose socket closes under
 * it (closing stops the request's timer), which would hold up every request queued on the link:
 * the close fails it as a connection error, and a bound well past the unit's own timeout (which
 * modbus-serial enforces in the normal case) fails it as a timeout.
 */
function settled<T>(request: Promise<T>, client: ModbusRTU, timeoutMs: number): Promise<T> {
  // The client is an EventEmitter at run time; its typings declare only `on`.
  const events = client as unknown as EventEmitter;
  let onClose: () => void = () => undefined;
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_resolve, reject) => {
    onClose = () => reject(new ModbusRequestError('connectionError', 'The connection closed during the request'));
    events.once('close', onClose);
    timer = setTimeout(() => reject(new ModbusRequestError('timeout', 'The unit did not answer in time')), timeoutMs * 2 + 1000);
  });
  return Promise.race([request, guard]).finally(() => {
    clearTimeout(timer);
    events.off('close', onClose);
  });
}

/** Releases a client's socket: destroy for TCP and serial ports; UDP ports have no destroy, only close. */
function closeQuietly(client: ModbusRTU): void {
  for (const release of [(): void => client.destroy(() => undefined), (): void => client.close(() => undefined)]) {
    try {
      release();
    } catch {
      // Already closed or never opened: nothing to release.
    }
  }
}

type Counters = { -readonly [K in keyof ConnectionStatistics]: number };

function zeroStatistics(): Counters {
  return { success: 0, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 0, responseError: 0 };
}

function checkRange(address: number, length: number, most: number, what: string): void {
  if (!Number.isInteger(address) || address < 0 || address > commandLimits.modbusAddressMax) {
    throw new ModbusRequestError('invalidRequest', `Address ${address} is not 0-${commandLimits.modbusAddressMax}`);
  }
  if (!Number.isInteger(length) || length < 1 || length > most) {
    throw new ModbusRequestError('invalidRequest', `${length} ${what} is not 1-${most}`);
  }
  if (address + length - 1 > commandLimits.modbusAddressMax) {
    throw new ModbusRequestError('invalidRequest', `${length} ${what} from ${address} run past address ${commandLimits.modbusAddressMax}`);
  }
}

function checkRegisterValues(values: readonly number[]): void {
  const bad = values.find((value) => !Number.isInteger(value) || value < 0 || value > commandLimits.modbusRegisterValueMax);
  if (bad !== undefined) {
    throw new ModbusRequestError('invalidRequest', `Register value ${bad} is not 0-${commandLimits.modbusRegisterValueMax}`);
  }
}

/** Splits `length` items from `address` into pieces of at most `most`. */
function pieces(address: number, length: number, most: number): RegisterRange[] {
  const result: RegisterRange[] = [];
  for (let offset = 0; offset < length; offset += most) {
    result.push({ address: address + offset, length: Math.min(most, length - offset) });
  }
  return result;
}

/** The requests readBlocks makes: ranges sorted and merged across gaps of at most `gap`, none longer than `most` (at most 125) registers; each with the ranges it covers. */
export function planBlocks(
  ranges: readonly RegisterRange[],
  gap: number = linkDefaults.blockGap,
  longest: number = modbusRequestLimits.readRegisters,
): { block: RegisterRange; parts: RegisterRange[] }[] {
  const most = Math.max(1, Math.min(longest, modbusRequestLimits.readRegisters));
  const split = ranges.flatMap((range) => pieces(range.address, range.length, most)).sort((a, b) => a.address - b.address);
  const plan: { block: RegisterRange; parts: RegisterRange[] }[] = [];
  let current: { block: RegisterRange; parts: RegisterRange[] } | undefined;
  for (const range of split) {
    if (current !== undefined) {
      const start = current.block.address;
      const end = start + current.block.length;
      const newEnd = Math.max(end, range.address + range.length);
      if (range.address <= end + gap && newEnd - start <= most) {
        current.block.length = newEnd - start;
        current.parts.push(range);
        continue;
      }
    }
    current = { block: { ...range }, parts: [range] };
    plan.push(current);
  }
  return plan;
}

class Registers implements RegisterBlock {
  readonly values = new Map<number, number>();

  set(address: number, values: readonly number[]): void {
    values.forEach((value, offset) => this.values.set(address + offset, value));
  }

  get(address: number): number | undefined {
    return this.values.get(address);
  }

  slice(address: number, length: number): number[] | undefined {
    const result: number[] = [];
    for (let offset = 0; offset < length; offset += 1) {
      const value = this.values.get(address + offset);
      if (value === undefined) {
        return undefined;
      }
      result.push(value);
    }
    return result;
  }
}

class PooledUnit implements IdentifiableUnit {
  private counts = zeroStatistics();
  private readonly retries: number;

  constructor(
    private readonly link: Link | string,
    readonly slaveId: number,
    private readonly options: UnitOptions,
  ) {
    this.retries = options.retries ?? linkDefaults.retries;
  }

  get statistics(): ConnectionStatistics {
    return { ...this.counts };
  }

  takeStatistics(): ConnectionStatistics {
    const taken = { ...this.counts };
    this.counts = zeroStatistics();
    return taken;
  }

  /** Runs a request: checked first, each attempt counted, retried after a timeout or connection error. */
  private async request<T>(check: () => void, run: (client: ModbusRTU) => Promise<T>): Promise<T> {
    try {
      check();
      if (typeof this.link === 'string') {
        throw new ModbusRequestError('invalidRequest', this.link);
      }
    } catch (error) {
      throw this.count(error);
    }
    const link = this.link;
    for (let attempt = 0; ; attempt += 1) {
      try {
        const result = await link.request(this.slaveId, this.options.timeoutMs, run);
        this.counts.success += 1;
        return result;
      } catch (error) {
        const failure = this.count(error);
        // A link that could not connect backs off: a retry now would only be refused as notReady.
        const retry = failure.failure === 'timeout' || (failure.failure === 'connectionError' && !link.backingOff());
        if (!retry || attempt >= this.retries) {
          throw failure;
        }
      }
    }
  }

  private count(error: unknown): ModbusRequestError {
    const failure = classify(error, true);
    const key: ModbusFailure = failure.failure;
    this.counts[key] += 1;
    return failure;
  }

  readHoldingRegisters(address: number, length: number): Promise<number[]> {
    return this.request(
      () => checkRange(address, length, modbusRequestLimits.readRegisters, 'registers'),
      async (client) => (await client.readHoldingRegisters(address, length)).data,
    );
  }

  readInputRegisters(address: number, length: number): Promise<number[]> {
    return this.request(
      () => checkRange(address, length, modbusRequestLimits.readRegisters, 'registers'),
      async (client) => (await client.readInputRegisters(address, length)).data,
    );
  }

  readCoils(address: number, length: number): Promise<boolean[]> {
    return this.request(
      () => checkRange(address, length, modbusRequestLimits.readBits, 'coils'),
      async (client) => (await client.readCoils(address, length)).data.slice(0, length),
    );
  }

  readDiscreteInputs(address: number, length: number): Promise<boolean[]> {
    return this.request(
      () => checkRange(address, length, modbusRequestLimits.readBits, 'discrete inputs'),
      async (client) => (await client.readDiscreteInputs(address, length)).data.slice(0, length),
    );
  }

  async writeRegister(address: number, value: number): Promise<void> {
    await this.request(
      () => {
        checkRange(address, 1, 1, 'register');
        checkRegisterValues([value]);
      },
      (client) => client.writeRegister(address, value),
    );
  }

  async writeRegisters(address: number, values: number[]): Promise<void> {
    const check = (): void => {
      checkRange(address, values.length, commandLimits.modbusWriteItems, 'registers');
      checkRegisterValues(values);
    };
    if (values.length <= modbusRequestLimits.writeRegisters) {
      await this.request(check, (client) => client.writeRegisters(address, values));
      return;
    }
    for (const piece of pieces(address, values.length, modbusRequestLimits.writeRegisters)) {
      const part = values.slice(piece.address - address, piece.address - address + piece.length);
      await this.request(check, (client) => client.writeRegisters(piece.address, part));
    }
  }

  async writeCoil(address: number, value: boolean): Promise<void> {
    await this.request(
      () => checkRange(address, 1, 1, 'coil'),
      (client) => client.writeCoil(address, value),
    );
  }

  async writeCoils(address: number, values: boolean[]): Promise<void> {
    await this.request(
      () => checkRange(address, values.length, modbusRequestLimits.writeCoils, 'coils'),
      (client) => client.writeCoils(address, values),
    );
  }

  readDeviceIdentification(deviceIdCode: number, objectId: number): Promise<DeviceIdentification> {
    return this.request(
      () => {
        if (![1, 2, 3, 4].includes(deviceIdCode) || !Number.isInteger(objectId) || objectId < 0 || objectId > 255) {
          throw new ModbusRequestError('invalidRequest', `Device identification code ${deviceIdCode} object ${objectId} is not code 1-4, object 0-255`);
        }
      },
      async (client) => {
        const answer = await client.readDeviceIdentification(deviceIdCode, objectId);
        const objects: Record<number, string> = {};
        // modbus-serial gives the objects keyed by object id (its typings say an array).
        for (const [id, value] of Object.entries(answer.data as unknown as Record<string, unknown>)) {
          if (typeof value === 'string') {
            objects[Number(id)] = value;
          }
        }
        return { conformityLevel: answer.conformityLevel, objects };
      },
    );
  }

  /**
   * Reads the ranges in as few requests as possible. A merged request the unit refuses with an
   * exception is asked again range by range (a gap it read across may hold no registers). A
   * range the unit refuses stays unread; a timeout or connection error fails the whole read, as
   * does a read where no request succeeded.
   */
  async readBlocks(table: 'holding' | 'input', ranges: readonly RegisterRange[]): Promise<RegisterBlock> {
    for (const range of ranges) {
      try {
        checkRange(range.address, range.length, commandLimits.modbusAddressMax + 1, 'registers');
      } catch (error) {
        throw this.count(error);
      }
    }
    const read = (address: number, length: number): Promise<number[]> =>
      table === 'holding' ? this.readHoldingRegisters(address, length) : this.readInputRegisters(address, length);
    const registers = new Registers();
    let lastRefusal: ModbusRequestError | undefined;
    let anyRead = false;
    const readOne = async (range: RegisterRange): Promise<boolean> => {
      try {
        registers.set(range.address, await read(range.address, range.length));
        anyRead = true;
        return true;
      } catch (error) {
        if (error instanceof ModbusRequestError && error.failure === 'responseError') {
          lastRefusal = error;
          return false;
        }
        throw error;
      }
    };
    for (const { block, parts } of planBlocks(ranges, this.options.blockGap, this.options.blockLength)) {
      if (!(await readOne(block)) && parts.length > 1) {
        for (const part of parts) {
          await readOne(part);
        }
      }
    }
    if (!anyRead && lastRefusal !== undefined) {
      throw lastRefusal;
    }
    return registers;
  }
}

/** One link per endpoint, shared by every unit on it (see the top of this file). */
export class ModbusLinkPool implements ModbusLinks {
  private readonly links = new Map<string, Link>();
  private readonly options: Required<Omit<LinkPoolOptions, 'log'>> & Pick<LinkPoolOptions, 'log'>;

  constructor(options: LinkPoolOptions = {}) {
    this.options = {
      now: options.now ?? Date.now,
      queueLimit: options.queueLimit ?? linkDefaults.queueLimit,
      backoffFirstMs: options.backoffFirstMs ?? linkDefaults.backoffFirstMs,
      backoffMostMs: options.backoffMostMs ?? linkDefaults.backoffMostMs,
      log: options.log,
    };
  }

  /**
   * The unit `slaveId` on a tcp, udp or rs485 connection (a multiple connection: its default).
   * Any other connection gives a unit whose every request fails as invalidRequest. Each call
   * gives a unit with its own counters; units on the same endpoint share one link.
   */
  unit(connection: unknown, slaveId: number, options: UnitOptions): IdentifiableUnit {
    let endpoint = endpointOf(connection);
    if (options.framing === 'ascii' && typeof endpoint !== 'string') {
      // modbus-serial frames ASCII on serial ports only; a serial-to-Ethernet converter carrying ASCII is not reached.
      endpoint = endpoint.type === 'rs485' ? { ...endpoint, ascii: true } : `Modbus ASCII needs an rs485 connection, not ${endpoint.type}`;
    }
    if (typeof endpoint === 'string') {
      return new PooledUnit(endpoint, slaveId, options);
    }
    const key = endpointKey(endpoint);
    let link = this.links.get(key);
    if (link === undefined) {
      link = new Link(endpoint, this.options);
      this.links.set(key, link);
    }
    return new PooledUnit(link, slaveId, options);
  }

  async close(): Promise<void> {
    const links = [...this.links.values()];
    this.links.clear();
    await Promise.all(links.map((link) => link.close()));
  }
}
