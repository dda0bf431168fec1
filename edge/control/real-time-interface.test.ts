import { createServer } from 'node:net';
import ModbusRTU from 'modbus-serial';
import type { AssetState } from '../drivers/driver';
import { createControlLoop } from './index';
import { RealTimeInterface, realTimeInterfaceRegisters as map } from './real-time-interface';
import { deviceConfig, readable, snapshot, unreadable } from './test-support';

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

// 0 meter, 1 solar 60 kW (fallback 25 %), 2 battery 50 kW
const assets = [
  { type: 'demo-meter' },
  { type: 'demo-solar', nominalActivePower: 60_000, fallbackLimit: { activePowerPercentage: 25 } },
  { type: 'demo-battery', nominalActivePower: 50_000 },
];

describe('realTimeInterface', () => {
  let loop: RealTimeInterface | undefined;
  const client = new ModbusRTU();

  afterEach(async () => {
    if (client.isOpen) {
      await new Promise<void>((resolve) => client.close(() => resolve()));
    }
    await loop?.close();
    loop = undefined;
  });

  async function start(): Promise<{ loop: RealTimeInterface; config: ReturnType<typeof deviceConfig> }> {
    const port = await freePort();
    const config = deviceConfig(assets, [{ type: 'realTimeInterface', meterAssetIndex: 0, assetIndices: [1, 2], port, unitId: 7 }]);
    const [loopConfig] = config.activeControl;
    const made = loopConfig === undefined ? null : createControlLoop(0, loopConfig, config);
    if (!(made instanceof RealTimeInterface)) {
      throw new Error('createControlLoop made no realTimeInterface');
    }
    loop = made;
    await made.ready();
    await client.connectTCP('127.0.0.1', { port });
    client.setID(7);
    return { loop: made, config };
  }

  const states = (meter: AssetState): (AssetState | undefined)[] => [
    meter,
    readable({ activePower: 40_000, availablePower: 40_000, controllableRange: { min: 0, max: 40_000 } }),
    readable({ activePower: 0, stateOfCharge: 50, controllableRange: { min: -50_000, max: 50_000 } }),
  ];

  it('keeps the limit with its assets in proportion, then their fallback when the meter is blind for a second', async () => {
    const { loop: rti, config } = await start();
    // Feed-in limit 5 kW, enabled, in one write; the site exports 25 kW.
    await client.writeRegisters(map.feedInLimit, [0, 5_000, 1]);
    const step = rti.step(snapshot(config, 0, states(readable({ activePower: -25_000 }))));
    expect(step.layer).toBe('gridOperator');
    // 20 kW less: the PV can give 40 kW down, the battery 50 kW (charging): 40/90 and 50/90.
    expect([...step.setpoints.entries()].map(([index, value]) => [index, value === null ? null : Math.round(value)])).toEqual([
      [1, 31_111],
      [2, -11_111],
    ]);
    expect(rti.statusReport(new Date(0))).toMatchObject({
      type: 'rtiStatus',
      observations: { state: 'active', connected: true, gridOperatorSetpoint: 5_000, maxActivePower: 90_000, minActivePower: -50_000 },
    });
    const blind = states(unreadable);
    expect(rti.step(snapshot(config, 100, blind)).setpoints.size).toBe(0);
    const fallback = rti.step(snapshot(config, 1_100, blind));
    // The PV at 25 % of 60 kW; the battery without a fallback idles.
    expect([...fallback.setpoints.entries()]).toEqual([
      [1, 15_000],
      [2, 0],
    ]);
    expect(rti.statusReport(new Date(1_100))).toMatchObject({ observations: { state: 'fallback', unreadableAssets: [0], activePower: null } });
    const { data } = await client.readInputRegisters(map.limitActive, 2);
    expect(data).toEqual([0, 0]);
  });

  it('refuses a write that spans a read-only register, whole', async () => {
    const { loop: rti, config } = await start();
    await expect(client.writeRegisters(map.feedInLimit, [0, 5_000, 1, 1])).rejects.toMatchObject({ modbusCode: 2 });
    expect(rti.step(snapshot(config, 0, states(readable({ activePower: -25_000 })))).setpoints).toEqual(
      new Map([
        [1, null],
        [2, null],
      ]),
    );
    const { data } = await client.readHoldingRegisters(map.feedInLimit, 3);
    expect(data).toEqual([0, 0, 0]);
  });
});
