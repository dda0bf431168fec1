import { exampleDeviceConfig, parseDeviceConfig } from '../contracts/device';
import { componentColumns, componentsOf, nominalActivePowerOf } from '../graph/fleet/services/device-config';
import type { Database } from '../server/database';

/** The example config as stored: parsed, with its defaults, as JSON holds it. */
export const storedExampleConfig = JSON.parse(JSON.stringify(parseDeviceConfig(structuredClone(exampleDeviceConfig)))) as ReturnType<typeof parseDeviceConfig>;

/**
 * Inserts `count` devices of one organisation with the example config, exposed to customers and
 * steerable, with their component rows: in bulk, for tests and benchmarks that need many.
 * Answers the numeric ids, oldest first.
 */
export async function seedDevices(
  db: Database,
  organizationId: number,
  count: number,
  options: { deviceGroupId?: number | null; namePrefix?: string } = {},
): Promise<number[]> {
  const ids: number[] = [];
  const nominal = nominalActivePowerOf(componentsOf(0, storedExampleConfig));
  for (let start = 0; start < count; start += 500) {
    const rows = Array.from({ length: Math.min(500, count - start) }, (_, offset) => ({
      organization_id: organizationId,
      device_group_id: options.deviceGroupId ?? null,
      name: `${options.namePrefix ?? 'Seeded'} ${start + offset + 1}`,
      config: JSON.stringify(storedExampleConfig),
      config_revision: 1,
      nominal_active_power_sum: nominal,
      reporting_interval: storedExampleConfig.reportingIntervalInSec,
      cloud_api: 'READ_WRITE',
      is_exposed_to_customer: true,
    }));
    const inserted = (await db('devices').insert(rows).returning('id')) as { id: string | number }[];
    const batch = inserted.map((row) => Number(row.id));
    const components = componentColumns(batch.flatMap((id) => componentsOf(id, storedExampleConfig)));
    for (let at = 0; at < components.length; at += 2000) {
      await db('device_components').insert(components.slice(at, at + 2000));
    }
    ids.push(...batch);
  }
  return ids;
}

/**
 * A gateway's meterPower report of asset 0 as the hub takes it: the `index`th of a series a
 * second apart from `firstAt` (ms since the epoch), its active power and import counting up.
 */
export function meterPowerReport(firstAt: number, index: number) {
  return {
    type: 'meterPower',
    at: new Date(firstAt + index * 1000).toISOString(),
    asset: 0,
    observations: {
      activePower: 1500 + index,
      reactivePower: 10,
      apparentPower: 1500,
      powerFactor: 0.99,
      frequency: 50,
      phaseVoltage: { l1: 230, l2: 231, l3: 229 },
      phaseCurrent: { l1: 2.2, l2: 2.1, l3: 2.3 },
      energyImport: 120_000 + index,
      energyExport: 5_000,
      connectionStatistics: { success: 10, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 0, responseError: 0 },
    },
  };
}
