import { assetSchema, type AssetConfig } from '../../contracts/device/assets';
import { validateReport } from '../../contracts/hub/reports';
import { createDriver } from '../drivers';
import type { AssetDriver } from '../drivers/driver';
import { builtInMap } from '../drivers/maps/registry';
import { ModbusLinkPool } from '../modbus/link-pool';
import { startMapSimulator, type MapSimulator } from './map-simulator';
import { Battery, Load, Relay, Site } from './plant';

const noon = Date.parse('2026-06-21T11:00:00Z');

describe('the map simulator bound to the plant', () => {
  let site: Site;
  let battery: Battery;
  let relay: Relay;
  let simulator: MapSimulator;
  let pool: ModbusLinkPool;
  const driverOf = (type: string, slaveId: number, extra: Record<string, unknown> = {}): AssetDriver => {
    const config = assetSchema.validateSync({ type, communication: simulator.connection(), slaveId, ...extra }) as AssetConfig;
    const driver = createDriver(slaveId, config, { links: pool, log: () => undefined });
    if (driver === null) {
      throw new Error(`no driver for ${type}`);
    }
    return driver;
  };

  beforeEach(async () => {
    site = new Site({ seed: 11, start: noon });
    site.add(new Load({ base: 9000 }));
    battery = site.add(new Battery({ capacityWh: 20_000, stateOfCharge: 60, maxChargePower: 8000, maxDischargePower: 8000, powerResponseMs: 0 }));
    relay = site.add(new Relay({ channels: 2, channelLoads: [1000, 500], initial: ['on', 'off'] }));
    site.step(1);
    simulator = await startMapSimulator({
      units: [
        { slaveId: 1, map: builtInMap('janitza'), plant: { site, target: site.meter } },
        { slaveId: 2, map: builtInMap('sma-sunny-island'), plant: { site, target: battery } },
        { slaveId: 3, map: builtInMap('waveshare-relay'), plant: { site, target: relay } },
      ],
    });
    pool = new ModbusLinkPool();
  });
  afterEach(async () => {
    await pool.close();
    await simulator.close();
  });

  it('a Janitza meter and an SMA Sunny Island run the plant in closed loop: the battery setpoint takes the import off the meter', async () => {
    const meter = driverOf('janitza', 1);
    const sunnyIsland = driverOf('sma-sunny-island', 2, { nominalActivePower: 8000 });
    expect(await meter.poll()).toMatchObject({ readable: true, activePower: 10_000 });
    expect(await sunnyIsland.poll()).toMatchObject({ readable: true, activePower: 0, stateOfCharge: 60, confirmedSetpoint: null });
    expect(await sunnyIsland.writeSetpoint(6000)).toBe(true);
    expect(battery.setpoint).toBe(6000);
    site.step(1);
    expect(await sunnyIsland.poll()).toMatchObject({ activePower: 6000, confirmedSetpoint: 6000 });
    expect(await meter.poll()).toMatchObject({ activePower: 4000 });
    const report = meter.buildReport(new Date(site.now), undefined, false);
    expect(validateReport(report)).toEqual({ ok: true, report });
    expect(await sunnyIsland.writeSetpoint(null)).toBe(true);
    expect(battery.setpoint).toBeNull();
  });

  it('a Waveshare relay switches the plant relay, and the meter sees its load', async () => {
    const board = driverOf('waveshare-relay', 3, { relays: [{}, {}] });
    const meter = driverOf('janitza', 1);
    expect(await board.poll()).toMatchObject({ relayChannels: ['on', 'off'] });
    expect(await board.execute({ kind: 'relays', channels: ['off', 'on'] })).toBe(true);
    expect(relay.channels).toEqual(['off', 'on']);
    site.step(1);
    expect(await board.poll()).toMatchObject({ relayChannels: ['off', 'on'] });
    expect(await meter.poll()).toMatchObject({ activePower: 9500 });
  });
});
