/**
 * The misc test types (device-model.md section 3.3 names them and no registers): maps of ours,
 * for commissioning tests and the simulator fleet.
 * Source: Gridport test register maps, version 1 (this file; docs/edge.md "Register maps").
 *
 * test-modbus-inverter: an inverter at holding registers 0-7: active power (s32 W), available
 * power (s32 W), energy produced (u32 Wh), nominal power (u32 W); setpoint: 20 enable (1 on,
 * 0 off) and 21 the limit in 0.1 % of nominal power (read back as the limit in force).
 * test-asset: a meter at input registers 0-9: active power (s32 W, import positive), phase
 * currents (s16 0.01 A), frequency (u16 0.01 Hz), import and export energy (u32 Wh).
 */
import type { RegisterMapInput } from '../schema';

export const testModbusInverterMap = {
  type: 'test-modbus-inverter',
  source: 'Gridport test register maps v1 (ours: the spec names the type only)',
  report: 'solarPower',
  defaultSlaveId: 1,
  points: [
    { name: 'activePower', address: 0, type: 's32', field: 'activePower' },
    { name: 'availablePower', address: 2, type: 's32', field: 'availablePower' },
    { name: 'energyProduced', address: 4, type: 'u32', field: 'energyProduced' },
    { name: 'nominalPower', address: 6, type: 'u32' },
    { name: 'limitPercent', address: 21, type: 'u16', scale: 0.1, field: 'activePowerLimitPercentage' },
  ],
  setpoint: {
    kind: 'percent',
    address: 21,
    type: 'u16',
    scale: 0.1,
    nominalPoint: 'nominalPower',
    enable: [{ address: 20, value: 1 }],
    release: [{ address: 20, value: 0 }],
  },
} satisfies RegisterMapInput;

export const testAssetMap = {
  type: 'test-asset',
  source: 'Gridport test register maps v1 (ours: the spec names the type only)',
  report: 'meterPower',
  defaultSlaveId: 1,
  invertable: false,
  points: [
    { name: 'activePower', address: 0, table: 'input', type: 's32', field: 'activePower' },
    { name: 'currentL1', address: 2, table: 'input', type: 's16', scale: 0.01, field: 'phaseCurrent.l1' },
    { name: 'currentL2', address: 3, table: 'input', type: 's16', scale: 0.01, field: 'phaseCurrent.l2' },
    { name: 'currentL3', address: 4, table: 'input', type: 's16', scale: 0.01, field: 'phaseCurrent.l3' },
    { name: 'frequency', address: 5, table: 'input', type: 'u16', scale: 0.01, field: 'frequency' },
    { name: 'energyImport', address: 6, table: 'input', type: 'u32', field: 'energyImport' },
    { name: 'energyExport', address: 8, table: 'input', type: 'u32', field: 'energyExport' },
  ],
} satisfies RegisterMapInput;
