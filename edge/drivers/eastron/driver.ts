/**
 * The Eastron SDM630 meter driver (asset type eastron, meter category): the generic map driver
 * (edge/drivers/maps/driver.ts) over the SDM630's register map (maps/families/eastron.ts).
 * The SDM630 gives its readings as float32 input registers, most significant word first: phase
 * voltages, currents and powers from 0x0000, totals and energies from 0x0034, line voltages
 * from 0x00C8. A poll reads them in two requests (0x0000-0x004B and 0x00C8-0x00CD; the meter
 * answers at most 40 values, 80 registers, a request).
 *
 * Signs: the SDM630's total and phase active power are positive when importing, the meter
 * convention of the reports. Its phase currents are magnitudes; each gets the sign of its
 * phase's active power (the site's current loops want signed currents, positive importing).
 * invertCurrent (our reading: the current transformers are mounted the other way round)
 * negates powers, currents and power factor, and swaps import and export energy.
 */
import type { AssetConfig } from '../../../contracts/device/assets';
import type { ModbusUnit } from '../../modbus/link';
import type { DriverContext } from '../driver';
import { MapDriver } from '../maps/driver';
import { builtInMap } from '../maps/registry';

/** The SDM630's register map, checked. */
export const sdm630Map = builtInMap('eastron');
/** SDM630 holding register of the serial number (uint32). */
export const sdm630SerialNumber = 0xfc00;
/** Slave id when the config names none (the SDM630's factory setting). */
export const eastronDefaultSlaveId = sdm630Map.defaultSlaveId;

export class EastronDriver extends MapDriver {
  constructor(index: number, config: AssetConfig, unit: ModbusUnit, log: DriverContext['log'], clock: () => number = Date.now) {
    super(index, config, sdm630Map, unit, log, clock);
  }
}

/** The SDM630 driver of an eastron asset; null for other types (a DriverFactory; `clock` for tests). */
export function createEastronDriver(index: number, config: AssetConfig, context: DriverContext, clock?: () => number): EastronDriver | null {
  const type: unknown = config.type;
  if (type !== 'eastron') {
    return null;
  }
  const unit = context.links.unit(config.communication, config.slaveId ?? eastronDefaultSlaveId, {
    timeoutMs: config.timeout,
    blockLength: sdm630Map.requests.maxRegisters,
    blockGap: sdm630Map.requests.gap,
  });
  return new EastronDriver(index, config, unit, context.log, clock);
}
