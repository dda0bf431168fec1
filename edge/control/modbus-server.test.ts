import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { validateReport } from '../../contracts/hub/reports';
import { createControlLoop } from './index';
import { ModbusServerLoop, modbusServerRegisters } from './modbus-server';
import { deviceConfig, readable, snapshot } from './test-support';
import { describeWithPeers } from '../../test-support/services';

const run = promisify(execFile);

/** A port nobody listens on now (ServerTCP takes no port 0). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') {
    throw new Error('no port');
  }
  return address.port;
}

/** Runs Debian's mbpoll once against the server (0-based references); its exit code and output. */
async function mbpoll(port: number, args: readonly string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run('mbpoll', ['-m', 'tcp', '-a', '1', '-0', '-1', '-o', '2', '-p', String(port), ...args], { timeout: 10_000 });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? -1, output: failed.stdout ?? '' };
  }
}

/** The values mbpoll printed, by reference: lines such as "[100]: 	12345". */
function values(output: string): Record<number, number> {
  const result: Record<number, number> = {};
  for (const match of output.matchAll(/^\[(\d+)\]:\s+(-?\d+)/gm)) {
    result[Number(match[1])] = Number(match[2]);
  }
  return result;
}

describeWithPeers(['mbpoll'], __filename)('modbusServer with mbpoll as the controller', () => {
  let loop: ModbusServerLoop | undefined;

  afterEach(async () => {
    await loop?.close();
    loop = undefined;
  });

  it('exposes the assets, takes a setpoint and a heartbeat, and releases the layer when the heartbeat stops', async () => {
    const port = await freePort();
    // 0 meter, 1 battery
    const config = deviceConfig(
      [{ type: 'demo-meter' }, { type: 'demo-battery', nominalActivePower: 50_000 }],
      [{ type: 'modbusServer', port, heartbeatTimeout: 1, assetIndices: [0, 1] }],
    );
    const [loopConfig] = config.activeControl;
    const made = loopConfig === undefined ? null : createControlLoop(0, loopConfig, config);
    expect(made).toBeInstanceOf(ModbusServerLoop);
    loop = made as ModbusServerLoop;
    await loop.ready();
    const states = [
      readable({ activePower: 12_345 }),
      readable({ activePower: -2_000, stateOfCharge: 55.5, confirmedSetpoint: -2_000, controllableRange: { min: -50_000, max: 50_000 } }),
    ];
    const t0 = 1_000_000;
    expect(loop.step(snapshot(config, t0, states))).toEqual({
      setpoints: new Map([
        [0, null],
        [1, null],
      ]),
      layer: 'modbusServer',
    });

    const battery = modbusServerRegisters.assetBase + modbusServerRegisters.assetBlockSize;
    const { asset } = modbusServerRegisters;
    // The site block, the meter's power, and the battery's block (int32 high word first: mbpoll -B).
    expect(values((await mbpoll(port, ['-t', '4', '-r', '0', '-c', '3', '127.0.0.1'])).output)).toEqual({ 0: 0, 1: 0, 2: 2 });
    expect(values((await mbpoll(port, ['-t', '4:int', '-B', '-r', String(modbusServerRegisters.assetBase), '127.0.0.1'])).output)).toEqual({ 100: 12_345 });
    expect(values((await mbpoll(port, ['-t', '4:int', '-B', '-r', String(battery + asset.activePower), '127.0.0.1'])).output)).toEqual({ 120: -2_000 });
    expect(values((await mbpoll(port, ['-t', '3', '-r', String(battery + asset.stateOfCharge), '-c', '1', '127.0.0.1'])).output)).toEqual({ 127: 555 });
    expect(values((await mbpoll(port, ['-t', '4', '-r', String(battery + asset.readable), '-c', '2', '127.0.0.1'])).output)).toEqual({ 130: 1, 131: 1 });

    // The controller writes a setpoint of -5000 W, enables it, and beats.
    expect((await mbpoll(port, ['-t', '4:int', '-B', '-r', String(battery + asset.setpoint), '127.0.0.1', '--', '-5000'])).code).toBe(0);
    expect((await mbpoll(port, ['-t', '4', '-r', String(battery + asset.setpointEnabled), '127.0.0.1', '1'])).code).toBe(0);
    expect((await mbpoll(port, ['-t', '4', '-r', '0', '127.0.0.1', '7'])).code).toBe(0);
    expect(loop.step(snapshot(config, t0 + 100, states))).toEqual({
      setpoints: new Map([
        [0, null],
        [1, -5_000],
      ]),
      layer: 'modbusServer',
    });
    const active = loop.statusReport(new Date(t0 + 100));
    expect(validateReport(active)).toMatchObject({ ok: true });
    expect(active).toMatchObject({
      type: 'modbusServerStatus',
      controller: 0,
      observations: { state: 'active', lastHeartbeatAt: new Date(t0 + 100).toISOString(), clientConnected: false },
    });
    expect(values((await mbpoll(port, ['-t', '4', '-r', '1', '-c', '1', '127.0.0.1'])).output)).toEqual({ 1: 1 });

    // No heartbeat change for heartbeatTimeout (1 s): the layer is released and the status says so.
    expect(loop.step(snapshot(config, t0 + 1_000, states))).toEqual({
      setpoints: new Map([
        [0, null],
        [1, -5_000],
      ]),
      layer: 'modbusServer',
    });
    expect(loop.step(snapshot(config, t0 + 1_100, states))).toEqual({
      setpoints: new Map([
        [0, null],
        [1, null],
      ]),
      layer: 'modbusServer',
    });
    expect(loop.statusReport(new Date(t0 + 1_100))).toMatchObject({ observations: { state: 'fallback', lastHeartbeatAt: new Date(t0 + 100).toISOString() } });
    expect(loop.drainReports(new Date(t0 + 1_100))).toEqual([
      {
        type: 'alarm',
        at: new Date(t0 + 1_100).toISOString(),
        observations: {
          code: 'activeControl.modbusServerHeartbeatLost',
          level: 'warning',
          active: true,
          description: 'control loop 0: no heartbeat change for 1 s',
        },
      },
    ]);
    // The controller sees it lost control, and its enable was cleared.
    expect(values((await mbpoll(port, ['-t', '4', '-r', '1', '-c', '1', '127.0.0.1'])).output)).toEqual({ 1: 0 });
    expect(values((await mbpoll(port, ['-t', '4', '-r', String(battery + asset.setpointEnabled), '-c', '1', '127.0.0.1'])).output)).toEqual({ 124: 0 });

    // A new heartbeat and enable bring the setpoint back.
    await mbpoll(port, ['-t', '4', '-r', '0', '127.0.0.1', '8']);
    await mbpoll(port, ['-t', '4', '-r', String(battery + asset.setpointEnabled), '127.0.0.1', '1']);
    expect(loop.step(snapshot(config, t0 + 1_200, states))).toEqual({
      setpoints: new Map([
        [0, null],
        [1, -5_000],
      ]),
      layer: 'modbusServer',
    });
    expect(loop.drainReports(new Date(t0 + 1_200))).toMatchObject([{ observations: { code: 'activeControl.modbusServerHeartbeatLost', active: false } }]);
  });

  it('refuses writes to the registers it only reads out, with an exception', async () => {
    const port = await freePort();
    const config = deviceConfig([{ type: 'demo-meter' }], [{ type: 'modbusServer', port, assetIndices: [0] }]);
    const [loopConfig] = config.activeControl;
    loop = loopConfig?.type === 'modbusServer' ? new ModbusServerLoop(0, loopConfig, config) : undefined;
    await loop?.ready();
    loop?.step(snapshot(config, 0, [readable({ activePower: 500 })]));
    const refused = await mbpoll(port, ['-t', '4', '-r', String(modbusServerRegisters.assetBase), '127.0.0.1', '1']);
    expect(refused.code).not.toBe(0);
    expect(values((await mbpoll(port, ['-t', '4:int', '-B', '-r', String(modbusServerRegisters.assetBase), '127.0.0.1'])).output)).toEqual({ 100: 500 });
  });
});
