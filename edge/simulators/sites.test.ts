import { configIssues } from '../../contracts/device/config';
import { ModbusLinkPool } from '../modbus/link-pool';
import { createDriver } from '../drivers/index';
import { Site } from './plant';
import { demoSites, runInRealTime, type DemoSite } from './sites';

const noon = Date.parse('2026-06-21T11:00:00Z');

describe('demo sites', () => {
  const started: DemoSite[] = [];
  let pool: ModbusLinkPool;

  beforeAll(async () => {
    for (const start of Object.values(demoSites)) {
      started.push(await start({ start: noon, realTime: false }));
    }
  });
  afterAll(async () => {
    await Promise.all(started.map((site) => site.close()));
  });
  beforeEach(() => {
    pool = new ModbusLinkPool();
  });
  afterEach(async () => {
    await pool.close();
  });

  it('each site gives a config that passes deviceConfigSchema, its assets on the simulator', () => {
    expect(started.map((site) => site.name)).toEqual(['solar-battery', 'wind', 'ev-charging']);
    for (const site of started) {
      expect(configIssues(site.config)).toEqual([]);
      for (const asset of site.config.assets) {
        expect(asset.communication).toEqual({ type: 'tcp', ip: '127.0.0.1', port: site.simulator.port });
      }
    }
    expect(started.map((site) => site.config.assets.map((asset) => asset.type))).toEqual([
      ['demo-meter', 'demo-solar', 'demo-battery'],
      ['demo-meter', 'demo-wind'],
      ['demo-meter', 'demo-ev', 'demo-relay'],
    ]);
    expect(started.map((site) => site.config.activeControl.map((loop) => loop.type))).toEqual([['proportionalPeakShaver'], [], ['currentLimiter']]);
  });

  it('a gateway with the config reads every asset, and the meter reads the plant', async () => {
    for (const site of started) {
      const drivers = site.config.assets.map((asset, index) => createDriver(index, asset, { links: pool, log: () => undefined }));
      const states = await Promise.all(drivers.map((driver) => driver?.poll()));
      expect(states.map((state) => state?.readable)).toEqual(site.config.assets.map(() => true));
      expect(states[0]?.activePower).toBe(Math.round(site.site.meter.activePower));
    }
  });

  it('the solar site imports at noon less than its load, the wind site exports', () => {
    const [solar, wind] = started;
    solar?.site.advance(60, 0.5);
    wind?.site.advance(60, 0.5);
    expect(solar?.site.meter.activePower).toBeLessThan(6000);
    expect(wind?.site.meter.activePower).toBeLessThan(0);
  });

  it('the real-time runner steps the plant to the clock, catching up after a late timer', () => {
    jest.useFakeTimers();
    try {
      let clock = noon;
      const site = new Site({ seed: 1, start: noon });
      const runner = runInRealTime(site, { stepSeconds: 0.1, now: () => clock });
      clock += 250;
      jest.advanceTimersByTime(100);
      expect(site.now).toBeCloseTo(noon + 250, 6);
      clock += 3_600_000;
      jest.advanceTimersByTime(100);
      expect(site.now).toBeCloseTo(noon + 250 + 3_600_000, 3);
      runner.stop();
      clock += 1000;
      jest.advanceTimersByTime(1000);
      expect(site.now).toBeCloseTo(noon + 250 + 3_600_000, 3);
    } finally {
      jest.useRealTimers();
    }
  });
});
