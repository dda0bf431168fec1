import { spawn } from 'node:child_process';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assetSchema, type AssetConfig } from '../../../contracts/device/assets';
import { validateReport } from '../../../contracts/hub/reports';
import { describeWithPeers } from '../../../test-support/services';
import { until } from '../../../test-support/until';
import { ModbusLinkPool } from '../../modbus/link-pool';
import { asciiFrame, asciiLrc, startMapAsciiSimulator, type MapSimulator } from '../../simulators/map-simulator';
import { createDriver } from '../index';
import type { AssetDriver } from '../driver';
import { MapDriver } from './driver';
import { builtInMap } from './registry';

const at = new Date('2026-11-28T08:00:00.000Z');
const zero = { success: 0, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 0, responseError: 0 };

interface Line {
  /** The serial port the gateway opens. */
  device: string;
  stop(): Promise<void>;
}

/** A pseudo-terminal joined by socat to the simulator's TCP port: the gateway's side is a real serial port. */
async function serialLineTo(port: number): Promise<Line> {
  const directory = await mkdtemp(path.join(tmpdir(), 'gridport-ascii-'));
  const device = path.join(directory, 'abl');
  const child = spawn('socat', [`pty,raw,echo=0,link=${device}`, `tcp:127.0.0.1:${port}`], { stdio: 'ignore' });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(directory, { recursive: true, force: true });
  };
  const present = () =>
    access(device).then(
      () => true,
      () => false,
    );
  await until('socat to make the pseudo-terminal', present, 5000);
  return { device, stop };
}

describeWithPeers(['socat'], __filename)('the ABL EVCC map over Modbus ASCII on a serial line', () => {
  let simulator: MapSimulator;
  let line: Line;
  let pool: ModbusLinkPool;
  const driverOf = (extra: Record<string, unknown> = {}): AssetDriver => {
    // The config takes the gateway's own ports only; the pseudo-terminal stands in for /dev/ttymxc1.
    const config = assetSchema.validateSync({
      type: 'abl',
      communication: { type: 'rs485', path: '/dev/ttymxc1', baudRate: 38400, parity: 'none' },
      nominalActivePower: 22_080,
      // A loaded machine passes frames through socat slowly; the default 500 ms is for a quiet line.
      timeout: 3000,
      ...extra,
    }) as AssetConfig;
    const driver = createDriver(0, { ...config, communication: { ...config.communication, path: line.device } } as AssetConfig, {
      links: pool,
      log: () => undefined,
    });
    if (driver === null) {
      throw new Error('no driver for abl');
    }
    return driver;
  };

  beforeAll(async () => {
    simulator = await startMapAsciiSimulator({
      units: [{ slaveId: 1, map: builtInMap('abl'), values: { outletState: 0x2ec2, currentL1: -15.9, currentL2: -16, currentL3: -15.8 } }],
    });
    line = await serialLineTo(simulator.port);
  });
  afterAll(async () => {
    await line.stop();
    await simulator.close();
  });
  beforeEach(() => {
    pool = new ModbusLinkPool();
  });
  afterEach(async () => {
    await pool.close();
  });

  it('frames requests as ASCII with their LRC, as the serial line spec gives them', () => {
    // Read 5 holding registers from 0x002E of unit 1: 01 03 00 2E 00 05, LRC 0xC9.
    expect(asciiLrc([0x01, 0x03, 0x00, 0x2e, 0x00, 0x05])).toBe(0xc9);
    expect(asciiFrame([0x01, 0x03, 0x00, 0x2e, 0x00, 0x05])).toBe(':0103002E0005C9\r\n');
  });

  it('reads the outlet state and the phase currents, and reports evPower', async () => {
    const driver = driverOf();
    expect(driver).toBeInstanceOf(MapDriver);
    expect(await driver.poll()).toMatchObject({ readable: true, phaseCurrent: { l1: -15.9, l2: -16, l3: -15.8 } });
    const report = driver.buildReport(at, undefined, false);
    expect(validateReport(report)).toEqual({ ok: true, report });
    expect(report).toMatchObject({
      type: 'evPower',
      observations: { phaseCurrent: { l1: -15.9, l2: -16, l3: -15.8 }, points: [{ point: 0, status: 'charging' }] },
    });
    simulator.set(1, 'outletState', 0x2ea1);
    await driver.poll();
    expect(driver.buildReport(at, undefined, false)).toMatchObject({ observations: { points: [{ status: 'available' }] } });
    simulator.set(1, 'outletState', 0x2ef9);
    await driver.poll();
    expect(driver.buildReport(at, undefined, false)).toMatchObject({ observations: { points: [{ status: 'faulted' }] } });
    simulator.set(1, 'outletState', 0x2ec2);
  });

  it('writes a charge current as the duty cycle in ‰ with function 16 (the EVCC takes no function 6), and under 6 A disables the outlet', async () => {
    const driver = driverOf();
    await driver.poll();
    const writes = simulator.writes(1);
    // 11,040 W on three phases at 230 V is 16 A: 266.67 ‰ of duty cycle, written as 267.
    expect(await driver.writeSetpoint(-11_040)).toBe(true);
    expect(simulator.register(1, 'holding', 0x14)).toBe(267);
    expect(await driver.writeSetpoint(-4140)).toBe(true);
    expect(simulator.register(1, 'holding', 0x14)).toBe(100);
    // Under 6 A the outlet is disabled: 1000 ‰ (0x03E8), not a duty cycle the vehicle cannot take.
    expect(await driver.writeSetpoint(-1000)).toBe(true);
    expect(simulator.register(1, 'holding', 0x14)).toBe(1000);
    expect(await driver.writeSetpoint(0)).toBe(true);
    expect(simulator.register(1, 'holding', 0x14)).toBe(1000);
    expect(simulator.writes(1)).toBe(writes + 4);
    expect(driver.statistics).toEqual({ ...zero, success: 5 });
  });

  it('a map that asks for ASCII on a TCP connection is answered invalidRequest with the reason', async () => {
    const config = assetSchema.validateSync({ type: 'abl', communication: simulator.connection() }) as AssetConfig;
    const driver = createDriver(0, config, { links: pool, log: () => undefined });
    const state = await driver?.poll();
    expect(state?.readable).toBe(false);
    expect(driver?.statistics).toEqual({ ...zero, invalidRequest: 1 });
    await expect(pool.unit(simulator.connection(), 1, { timeoutMs: 1000, framing: 'ascii' }).readHoldingRegisters(0x2e, 1)).rejects.toMatchObject({
      failure: 'invalidRequest',
      message: 'Modbus ASCII needs an rs485 connection, not tcp',
    });
  });
});

describe('the ASCII map simulator on the wire', () => {
  let simulator: MapSimulator;
  let socket: Socket;
  let received = '';

  /** Sends one frame's text and waits for `frames` answers (CR LF each); for 0, for the answer to a read sent after it. */
  const exchange = async (text: string, frames: number): Promise<string> => {
    received = '';
    socket.write(text, 'latin1');
    if (frames === 0) {
      // Silence cannot be awaited as a condition: a frame well after the silent one must come back first.
      socket.write(asciiFrame([0x01, 0x03, 0x00, 0x30, 0x00, 0x01]), 'latin1');
      await until('the answer after the silent frame', () => received.split('\r\n').length > 1, 5000);
      return received;
    }
    await until(`${frames} answers`, () => received.split('\r\n').length > frames, 5000);
    return received;
  };

  beforeAll(async () => {
    simulator = await startMapAsciiSimulator({ units: [{ slaveId: 1, map: builtInMap('abl'), values: { outletState: 0x2ea1, currentL1: -6.5 } }] });
    socket = connect(simulator.port, '127.0.0.1');
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  });
  afterAll(async () => {
    socket.destroy();
    await simulator.close();
  });

  it('answers a read with the registers and their LRC', async () => {
    // 0x2E = 0x2EA1 (A1, waiting for EV), 0x2F = 0, 0x30 = 65 (6.5 A).
    expect(await exchange(asciiFrame([0x01, 0x03, 0x00, 0x2e, 0x00, 0x03]), 1)).toBe(asciiFrame([0x01, 0x03, 0x06, 0x2e, 0xa1, 0x00, 0x00, 0x00, 0x41]));
  });

  it('drops a frame with a wrong LRC and stays silent for a unit not on the bus', async () => {
    const answerAfter = asciiFrame([0x01, 0x03, 0x02, 0x00, 0x41]);
    expect(await exchange(':0103002E000500\r\n', 0)).toBe(answerAfter);
    expect(await exchange(asciiFrame([0x07, 0x03, 0x00, 0x2e, 0x00, 0x01]), 0)).toBe(answerAfter);
  });

  it('refuses function 6 for a map that takes function 16 only, and unmapped registers with exception 2', async () => {
    expect(await exchange(asciiFrame([0x01, 0x06, 0x00, 0x14, 0x01, 0x0b]), 1)).toBe(asciiFrame([0x01, 0x86, 0x01]));
    expect(await exchange(asciiFrame([0x01, 0x03, 0x10, 0x00, 0x00, 0x01]), 1)).toBe(asciiFrame([0x01, 0x83, 0x02]));
    expect(await exchange(asciiFrame([0x01, 0x10, 0x00, 0x14, 0x00, 0x01, 0x02, 0x01, 0x0b]), 1)).toBe(asciiFrame([0x01, 0x10, 0x00, 0x14, 0x00, 0x01]));
    expect(simulator.register(1, 'holding', 0x14)).toBe(0x10b);
  });
});
