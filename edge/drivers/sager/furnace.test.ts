import { assetSchema, type AssetConfig } from '../../../contracts/device/assets';
import { assetParametersSchema } from '../../../contracts/device/commands';
import { validateReport } from '../../../contracts/hub/reports';
import { ModbusLinkPool } from '../../modbus/link-pool';
import { createDriver } from '../index';
import { SagerFurnaceDriver, sagerScheduleLayout } from './furnace';
import { startFurnaceSimulator, type FurnaceSimulator } from './furnace-simulator';

const start = Date.parse('2026-11-28T00:00:00Z');
const hour = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const panelEntry = { charge: 20, startAt: '2026-11-29T22:00:00.000Z', endAt: '2026-11-30T05:00:00.000Z' };

describe('Sager furnace driver against the furnace simulator over Modbus TCP', () => {
  let now = start;
  let furnace: FurnaceSimulator;
  let pool: ModbusLinkPool;
  let driver: SagerFurnaceDriver;

  beforeEach(async () => {
    now = start;
    furnace = await startFurnaceSimulator({ heaterPower: 60_000, capacityWh: 400_000, storedWh: 100_000, panelEntry, clock: () => now });
    pool = new ModbusLinkPool();
    const config = assetSchema.validateSync({
      type: 'sager-furnace',
      communication: furnace.connection(),
      nominalActivePower: 60_000,
      capacity: 400_000,
    }) as AssetConfig;
    const made = createDriver(2, config, { links: pool, log: () => undefined });
    if (!(made instanceof SagerFurnaceDriver)) {
      throw new Error('sager-furnace has no furnace driver');
    }
    driver = made;
  });

  afterEach(async () => {
    await pool.close();
    await furnace.close();
  });

  it('writes the schedule of setAssetParameters into the furnace, which charges by it, and the report echoes it with the panel entry', async () => {
    const schedule = [
      { charge: 50, startAt: iso(start + hour), endAt: iso(start + 3 * hour) },
      { charge: 12.5, startAt: iso(start + 4 * hour), endAt: iso(start + 5 * hour) },
    ];
    const parameters = assetParametersSchema.validateSync({ type: 'sagerFurnace', schedule });
    expect(await driver.applyParameters(parameters)).toBe(true);
    expect(furnace.schedule()).toEqual([...schedule, panelEntry]);

    now = start + 2 * hour;
    furnace.advance(3600);
    expect(furnace.heaterDraw).toBe(30_000);
    const state = await driver.poll();
    expect(state).toMatchObject({ readable: true, activePower: -30_000, stateOfCharge: 32.5 });
    const report = driver.buildReport(new Date(now), undefined, false);
    expect(report).toMatchObject({
      type: 'thermalPower',
      asset: 2,
      observations: { activePower: -30_000, stateOfCharge: 32.5, storedEnergy: 130_000, schedule: [...schedule, panelEntry] },
    });
    expect(validateReport(report).ok).toBe(true);
  });

  it('clears the slots a shorter schedule leaves, and an empty schedule leaves only the panel entry', async () => {
    const eleven = Array.from({ length: sagerScheduleLayout.writableSlots }, (_v, i) => ({
      charge: 10 + i,
      startAt: iso(start + i * hour),
      endAt: iso(start + (i + 1) * hour),
    }));
    expect(await driver.applyParameters(assetParametersSchema.validateSync({ type: 'sagerFurnace', schedule: eleven }))).toBe(true);
    expect(furnace.schedule()).toHaveLength(12);
    expect(await driver.applyParameters(assetParametersSchema.validateSync({ type: 'sagerFurnace', schedule: [] }))).toBe(true);
    expect(furnace.schedule()).toEqual([panelEntry]);
    await driver.poll();
    expect(driver.buildReport(new Date(now), undefined, false)?.observations).toMatchObject({ schedule: [panelEntry] });
  });

  it('takes no demoBattery or hedno parameters, and none at all when readOnly', async () => {
    expect(await driver.applyParameters({ type: 'demoBattery', errors: [], warnings: [] })).toBe(false);
    expect(await driver.applyParameters({ type: 'hedno', localMode: true })).toBe(false);
    const readOnly = createDriver(3, assetSchema.validateSync({ type: 'sager-furnace', communication: furnace.connection(), readOnly: true }) as AssetConfig, {
      links: pool,
      log: () => undefined,
    });
    expect(await readOnly?.applyParameters?.({ type: 'sagerFurnace', schedule: [] })).toBe(false);
    expect(furnace.schedule()).toEqual([panelEntry]);
  });

  it('a schedule of 12 entries or one ending before it starts is refused by the contract with its message', () => {
    const entry = { charge: 10, startAt: iso(start + hour), endAt: iso(start + 2 * hour) };
    expect(() => assetParametersSchema.validateSync({ type: 'sagerFurnace', schedule: Array.from({ length: 12 }, () => entry) })).toThrow(
      'schedule field must have less than or equal to 11 items',
    );
    expect(() => assetParametersSchema.validateSync({ type: 'sagerFurnace', schedule: [{ ...entry, endAt: entry.startAt }] })).toThrow(
      'schedule[0].endAt must be later than startAt',
    );
  });
});
