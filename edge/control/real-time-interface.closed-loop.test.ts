import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import ModbusRTU from 'modbus-serial';
import { validateReport } from '../../contracts/hub/reports';
import { describeWithPeers } from '../../test-support/services';
import { realTimeInterfaceScenario } from './grid-scenarios';
import { RealTimeInterface, realTimeInterfaceRegisters as map } from './real-time-interface';
import { LimitTally, summerDay } from './simulated-gateway';
import { deviceConfig, readable, snapshot } from './test-support';

const run = promisify(execFile);
const stepSeconds = 0.1;
const hourMs = 3_600_000;

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

function int32(high: number | undefined, low: number | undefined): number {
  return (((high ?? 0) << 16) | (low ?? 0)) >> 0;
}

/** The grid operator's feed-in limits of the day by hour, W: 50 kW, 35 kW and 45 kW in turn, released at night. */
function operatorLimitAt(now: number): number | null {
  const hour = Math.floor((now - summerDay) / hourMs);
  return hour < 5 || hour >= 20 ? null : ([50_000, 35_000, 45_000][hour % 3] ?? 50_000);
}

describe('realTimeInterface over a simulated day with a Modbus client as the grid operator', () => {
  it("keeps feed-in under the operator's limits in at least 99.9 % of steps; the operator reads the site over Modbus", async () => {
    const port = await freePort();
    const { gateway } = realTimeInterfaceScenario(61, port);
    const [loop] = gateway.loops;
    if (!(loop instanceof RealTimeInterface)) {
      throw new Error('no realTimeInterface');
    }
    await loop.ready();
    const client = new ModbusRTU();
    await client.connectTCP('127.0.0.1', { port });
    client.setID(1);
    const tally = new LimitTally();
    const afterStep = new LimitTally();
    let worstShare = 0;
    let limit: number | null = null;
    let changedAt = -Infinity;
    let readMismatches = 0;
    let limitedSteps = 0;
    const steps = (24 * 3600) / stepSeconds;
    for (let step = 0; step < steps; step += 1) {
      const wanted = operatorLimitAt(gateway.site.now);
      if (wanted !== limit) {
        // The operator writes the limit and its enable in one request (or clears the enable).
        if (wanted === null) {
          await client.writeRegisters(map.limitEnabled, [0]);
        } else {
          await client.writeRegisters(map.feedInLimit, [(wanted >>> 16) & 0xffff, wanted & 0xffff, 1]);
        }
        limit = wanted;
        changedAt = gateway.site.now;
      }
      await gateway.step(stepSeconds);
      if (step % 6_000 === 0) {
        // Every 10 minutes the operator reads what the site reports: the meter's power of the last step.
        const { data } = await client.readHoldingRegisters(0, map.size);
        if (int32(data[map.activePower], data[map.activePower + 1]) !== Math.round(gateway.drivers[0]?.state.activePower ?? NaN)) {
          readMismatches += 1;
        }
      }
      if (limit === null) {
        continue;
      }
      if (gateway.arbiter.desired(1).gridOperator !== undefined) {
        limitedSteps += 1;
      }
      const excess = -gateway.site.meter.activePower - limit;
      if (gateway.site.now - changedAt <= 1_000) {
        afterStep.record(excess);
        continue;
      }
      tally.record(excess);
      worstShare = Math.max(worstShare, excess / limit);
    }
    const report = loop.statusReport(new Date(gateway.site.now));
    client.close(() => undefined);
    await gateway.close();
    expect(readMismatches).toBe(0);
    expect(limitedSteps).toBeGreaterThan(steps / 6);
    expect(tally.share).toBeGreaterThanOrEqual(0.999);
    // Under the 5 % target (issue 20 item 7) with ramp-aware setpoints: 2.3 % at worst, the step a 5 kW load switches off in (6.8 % without the lead).
    expect(tally.steps - tally.within).toBeLessThanOrEqual(5);
    expect(worstShare).toBeLessThan(0.03);
    expect(validateReport(report)).toMatchObject({ ok: true });
    expect(report).toMatchObject({ type: 'rtiStatus', controller: 0, observations: { gridOperatorSetpoint: null, state: 'idle' } });
  }, 600_000);
});

/** Runs Debian's mbpoll once against the interface (0-based references); its exit code and output. */
async function mbpoll(port: number, args: readonly string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run('mbpoll', ['-m', 'tcp', '-a', '1', '-0', '-1', '-o', '2', '-p', String(port), ...args], { timeout: 10_000 });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? -1, output: failed.stdout ?? '' };
  }
}

function values(output: string): Record<number, number> {
  const result: Record<number, number> = {};
  for (const match of output.matchAll(/^\[(\d+)\]:\s+(-?\d+)/gm)) {
    result[Number(match[1])] = Number(match[2]);
  }
  return result;
}

describeWithPeers(['mbpoll'], __filename)('realTimeInterface with mbpoll as the grid operator', () => {
  it('publishes the site, takes a feed-in limit with its enable, and refuses read-only registers and a negative limit', async () => {
    const port = await freePort();
    const config = deviceConfig(
      [{ type: 'demo-meter' }, { type: 'demo-solar', nominalActivePower: 60_000 }],
      [{ type: 'realTimeInterface', meterAssetIndex: 0, assetIndices: [1], port, reportingInterval: 30 }],
    );
    const [loopConfig] = config.activeControl;
    const loop = loopConfig?.type === 'realTimeInterface' ? new RealTimeInterface(0, loopConfig, config) : undefined;
    if (loop === undefined) {
      throw new Error('no loop');
    }
    await loop.ready();
    try {
      // Exporting 30 kW with 50 kW of PV (the site uses 20 kW).
      const states = [
        readable({ activePower: -30_000, reactivePower: 1_200 }),
        readable({ activePower: 50_000, availablePower: 50_000, controllableRange: { min: 0, max: 50_000 } }),
      ];
      expect(loop.step(snapshot(config, 0, states))).toEqual({ setpoints: new Map([[1, null]]), layer: 'gridOperator' });
      expect(values((await mbpoll(port, ['-t', '4:int', '-B', '-r', '0', '-c', '4', '127.0.0.1'])).output)).toEqual({ 0: -30_000, 2: 1_200, 4: 50_000, 6: 0 });
      expect(values((await mbpoll(port, ['-t', '3', '-r', '12', '-c', '3', '127.0.0.1'])).output)).toEqual({ 12: 1, 13: 30, 14: 1 });

      // The operator limits feed-in to 10 kW: the PV is capped at 30 kW, in the gridOperator layer.
      expect((await mbpoll(port, ['-t', '4:int', '-B', '-r', '8', '127.0.0.1', '10000'])).code).toBe(0);
      expect((await mbpoll(port, ['-t', '4', '-r', '10', '127.0.0.1', '1'])).code).toBe(0);
      expect(loop.step(snapshot(config, 100, states))).toEqual({ setpoints: new Map([[1, 30_000]]), layer: 'gridOperator' });
      expect(values((await mbpoll(port, ['-t', '4', '-r', '10', '-c', '2', '127.0.0.1'])).output)).toEqual({ 10: 1, 11: 1 });
      const report = loop.statusReport(new Date(100));
      expect(validateReport(report)).toMatchObject({ ok: true });
      expect(report).toEqual({
        type: 'rtiStatus',
        at: new Date(100).toISOString(),
        controller: 0,
        observations: {
          state: 'active',
          monitoredPower: -30_000,
          consumptionLimit: null,
          feedInLimit: 10_000,
          iterationMs: expect.any(Number) as unknown as number,
          unlimitableAssets: [],
          unreadableAssets: [],
          connected: false,
          lastExchangeAt: new Date(100).toISOString(),
          activePower: -30_000,
          reactivePower: 1_200,
          maxActivePower: 50_000,
          minActivePower: 0,
          gridOperatorSetpoint: 10_000,
        },
      });

      // Read-only registers and a negative limit are refused; the limit stays.
      expect((await mbpoll(port, ['-t', '4', '-r', '0', '127.0.0.1', '1'])).code).not.toBe(0);
      expect((await mbpoll(port, ['-t', '4:int', '-B', '-r', '8', '127.0.0.1', '--', '-5000'])).code).not.toBe(0);
      expect((await mbpoll(port, ['-t', '4', '-r', '10', '127.0.0.1', '2'])).code).not.toBe(0);
      expect(values((await mbpoll(port, ['-t', '4:int', '-B', '-r', '8', '127.0.0.1'])).output)).toEqual({ 8: 10_000 });

      // Disabled: the layer is released.
      expect((await mbpoll(port, ['-t', '4', '-r', '10', '127.0.0.1', '0'])).code).toBe(0);
      expect(loop.step(snapshot(config, 200, states))).toEqual({ setpoints: new Map([[1, null]]), layer: 'gridOperator' });
    } finally {
      await loop.close();
    }
  });
});
