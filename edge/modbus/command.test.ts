import { validateReport } from '../../contracts/hub/reports';
import { executeModbusCommand, executedModbusCommandReport } from './command';
import { ModbusLinkPool } from './link-pool';
import { startRegisterServer, type RegisterServer } from '../../test-support/modbus-peers/register-server';
import { describeWithPeers } from '../../test-support/services';

const at = new Date('2026-11-22T05:00:00.000Z');

describeWithPeers(['pymodbus'], __filename)('executeModbusCommand against pymodbus', () => {
  let peer: RegisterServer;
  let pool: ModbusLinkPool;
  const device = (extra: Record<string, unknown> = {}) => ({ slaveId: 1, timeout: 1000, communication: peer.connection, ...extra });

  beforeAll(async () => {
    peer = await startRegisterServer({
      units: {
        '1': {
          holding: { '0': Array.from({ length: 300 }, () => 0), '1000': [10, 20, 30] },
          input: { '30': [300, 301] },
          coils: { '0': Array.from({ length: 16 }, () => false) },
          discrete: { '5': [true, false, true] },
        },
      },
      silent: [7],
      identity: { VendorName: 'Gridport Labs', ProductCode: 'GP-1', MajorMinorRevision: '2.4' },
    });
  });
  afterAll(async () => {
    await peer.stop();
  });
  beforeEach(() => {
    pool = new ModbusLinkPool();
  });
  afterEach(async () => {
    await pool.close();
  });

  it.each([
    ['readHoldingRegisters', { type: 'readHoldingRegisters', addr: 1000, length: 3 }, { registers: [10, 20, 30] }],
    ['readInputRegisters', { type: 'readInputRegisters', addr: 30, length: 2 }, { registers: [300, 301] }],
    ['readDiscreteInputs', { type: 'readDiscreteInputs', addr: 5, length: 3 }, { bits: [true, false, true] }],
  ])('%s answers what the unit holds', async (_name, command, outcome) => {
    expect(await executeModbusCommand(pool, device() as never, command as never)).toEqual(outcome);
  });

  it('writes a coil and coils, then reads them back', async () => {
    expect(await executeModbusCommand(pool, device() as never, { type: 'writeCoil', addr: 3, binary: true } as never)).toEqual({});
    expect(await executeModbusCommand(pool, device() as never, { type: 'writeCoils', addr: 8, valueAry: [true, false, true] } as never)).toEqual({});
    expect(await executeModbusCommand(pool, device() as never, { type: 'readCoils', addr: 0, length: 12 } as never)).toEqual({
      bits: [false, false, false, true, false, false, false, false, true, false, true, false],
    });
  });

  it('writes a register and registers (200 of them, in two requests), then reads them back', async () => {
    expect(await executeModbusCommand(pool, device() as never, { type: 'writeRegister', addr: 0, value: 65535 } as never)).toEqual({});
    const values = Array.from({ length: 200 }, (_, i) => i * 7);
    expect(await executeModbusCommand(pool, device() as never, { type: 'writeRegisters', addr: 1, valueAry: values } as never)).toEqual({});
    const first = await executeModbusCommand(pool, device() as never, { type: 'readHoldingRegisters', addr: 0, length: 125 } as never);
    const second = await executeModbusCommand(pool, device() as never, { type: 'readHoldingRegisters', addr: 125, length: 76 } as never);
    expect([...(first.registers ?? []), ...(second.registers ?? [])]).toEqual([65535, ...values]);
  });

  it('reads the device identification', async () => {
    expect(await executeModbusCommand(pool, device() as never, { type: 'readDeviceIdentification', deviceIdCode: 1, objectId: 0 } as never)).toEqual({
      identification: { conformityLevel: 0x83, objects: { vendorName: 'Gridport Labs', productCode: 'GP-1', majorMinorRevision: '2.4' } },
    });
  });

  it('gives the exception code of a refused request', async () => {
    expect(await executeModbusCommand(pool, device() as never, { type: 'readHoldingRegisters', addr: 5000, length: 2 } as never)).toEqual({
      error: 'responseError (exception 2) from unit 1: Modbus exception 2: Illegal data address (register not supported by device)',
    });
    expect(await executeModbusCommand(pool, device() as never, { type: 'writeRegister', addr: 5000, value: 1 } as never)).toEqual({
      error: 'responseError (exception 2) from unit 1: Modbus exception 2: Illegal data address (register not supported by device)',
    });
  });

  it('times out on a unit that never answers, after its retries', async () => {
    expect(
      await executeModbusCommand(pool, device({ slaveId: 7, timeout: 150, retries: 1 }) as never, { type: 'readCoils', addr: 0, length: 1 } as never),
    ).toEqual({
      error: 'timeout from unit 7: The unit did not answer in time',
    });
  });

  it('tries a list of slave ids in order, waiting the delays', async () => {
    const waits: number[] = [];
    const sleep = (ms: number): Promise<void> => {
      waits.push(ms);
      return Promise.resolve();
    };
    const outcome = await executeModbusCommand(
      pool,
      device({ slaveId: [7, 1], timeout: 150, pollDelay: 40, turnaroundDelay: 25 }) as never,
      { type: 'readHoldingRegisters', addr: 1001, length: 1 } as never,
      { sleep },
    );
    expect(outcome).toEqual({ registers: [20] });
    expect(waits).toEqual([40, 25]);
  });

  it('answers a connection error when nothing listens', async () => {
    const outcome = await executeModbusCommand(
      pool,
      { slaveId: 1, communication: { type: 'tcp', ip: '127.0.0.1', port: 1 } } as never,
      { type: 'readCoils', addr: 0, length: 1 } as never,
    );
    expect(outcome.error).toMatch(/^connectionError from unit 1: tcp:\/\/127\.0\.0\.1:1: connect ECONNREFUSED 127\.0\.0\.1:1$/);
  });

  it.each([
    ['126 registers', { type: 'readHoldingRegisters', addr: 0, length: 126 }, 'invalid command: length must be less than or equal to 125'],
    ['2001 coils', { type: 'readCoils', addr: 0, length: 2001 }, 'invalid command: length must be less than or equal to 2000'],
    ['a read past 65535', { type: 'readInputRegisters', addr: 65535, length: 2 }, 'invalid command: length reads past address 65535'],
    ['a value of 65536', { type: 'writeRegister', addr: 0, value: 65536 }, 'invalid command: value must be less than or equal to 65535'],
    [
      '1969 coils',
      { type: 'writeCoils', addr: 0, valueAry: new Array<boolean>(1969).fill(false) },
      'invalid command: valueAry field must have less than or equal to 1968 items',
    ],
    [
      'device identification code 5',
      { type: 'readDeviceIdentification', deviceIdCode: 5 },
      'invalid command: deviceIdCode must be one of the following values: 1, 2, 3, 4',
    ],
    ['an unknown command', { type: 'readFifo', addr: 0 }, expect.stringMatching(/^invalid command: type must be one of the following values: writeCoil, /)],
  ])('refuses %s before the wire', async (_name, command, error) => {
    expect(await executeModbusCommand(pool, device() as never, command as never)).toEqual({ error });
  });
});

describeWithPeers(['pymodbus'], __filename)('executedModbusCommandReport', () => {
  let peer: RegisterServer;
  let pool: ModbusLinkPool;

  beforeAll(async () => {
    peer = await startRegisterServer({ units: { '3': { holding: { '40000': [21365, 28243] } } }, identity: { VendorName: 'Acme' } });
    pool = new ModbusLinkPool();
  });
  afterAll(async () => {
    await pool.close();
    await peer.stop();
  });

  it('reports the command as carried out (defaults filled in) and the answer', async () => {
    const report = await executedModbusCommandReport(
      pool,
      { type: 'executeModbusCommand', device: { slaveId: 3, communication: peer.connection }, command: { type: 'readDeviceIdentification' } },
      'outbox-7',
      at,
    );
    expect(report).toEqual({
      type: 'executedModbusCommand',
      at: '2026-11-22T05:00:00.000Z',
      observations: {
        messageId: 'outbox-7',
        command: { type: 'readDeviceIdentification', deviceIdCode: 1, objectId: 0 },
        identification: { conformityLevel: 0x83, objects: { vendorName: 'Acme' } },
      },
    });
    expect(validateReport(report).ok).toBe(true);
  });

  it('reports registers read', async () => {
    const report = await executedModbusCommandReport(
      pool,
      {
        type: 'executeModbusCommand',
        device: { slaveId: [3], communication: peer.connection },
        command: { type: 'readHoldingRegisters', addr: 40000, length: 2 },
      },
      undefined,
      at,
    );
    expect(report.observations).toEqual({ command: { type: 'readHoldingRegisters', addr: 40000, length: 2 }, registers: [21365, 28243] });
    expect(validateReport(report).ok).toBe(true);
  });

  it('reports an invalid message with the command as sent', async () => {
    const report = await executedModbusCommandReport(
      pool,
      { type: 'executeModbusCommand', device: { slaveId: 300, communication: peer.connection }, command: { type: 'readCoils', addr: 0, length: 1 } },
      'outbox-8',
      at,
    );
    expect(report.observations).toEqual({
      messageId: 'outbox-8',
      command: { type: 'readCoils', addr: 0, length: 1 },
      error: 'invalid command: device.slaveId must be less than or equal to 255',
    });
    expect(validateReport(report).ok).toBe(true);
  });
});
