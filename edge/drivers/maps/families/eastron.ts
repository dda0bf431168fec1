/**
 * Eastron SDM630 (meter type eastron).
 * Source: Eastron SDM630 Modbus Protocol (SDM630-Modbus V2, protocol document v1.5), input
 * registers 30001-30076 and 30201-30206, holding register 464513 (serial number).
 *
 * Float32 input registers, most significant word first. Energies in kWh (scale 1000 to Wh).
 * Phase currents are magnitudes; each takes the sign of its phase's active power (positive
 * importing, the meter convention). The meter answers at most 40 values (80 registers) a
 * request.
 */
import type { RegisterMapInput } from '../schema';

const f32 = (name: string, address: number, field?: string, extra: Record<string, unknown> = {}) => ({
  name,
  address,
  table: 'input',
  type: 'f32',
  ...(field === undefined ? {} : { field }),
  ...extra,
});

export const eastronSdm630Map = {
  type: 'eastron',
  source: 'Eastron SDM630 Modbus Protocol, SDM630-Modbus V2 (protocol v1.5)',
  report: 'meterPower',
  defaultSlaveId: 1,
  requests: { maxRegisters: 80, gap: 40 },
  invertable: true,
  points: [
    f32('voltageL1', 0x0000, 'phaseVoltage.l1'),
    f32('voltageL2', 0x0002, 'phaseVoltage.l2'),
    f32('voltageL3', 0x0004, 'phaseVoltage.l3'),
    f32('currentL1', 0x0006, 'phaseCurrent.l1', { signOf: 'phaseActivePower.l1' }),
    f32('currentL2', 0x0008, 'phaseCurrent.l2', { signOf: 'phaseActivePower.l2' }),
    f32('currentL3', 0x000a, 'phaseCurrent.l3', { signOf: 'phaseActivePower.l3' }),
    f32('powerL1', 0x000c, 'phaseActivePower.l1'),
    f32('powerL2', 0x000e, 'phaseActivePower.l2'),
    f32('powerL3', 0x0010, 'phaseActivePower.l3'),
    f32('totalPower', 0x0034, 'activePower'),
    f32('totalApparentPower', 0x0038, 'apparentPower'),
    f32('totalReactivePower', 0x003c, 'reactivePower'),
    f32('totalPowerFactor', 0x003e, 'powerFactor'),
    f32('frequency', 0x0046, 'frequency'),
    f32('importEnergy', 0x0048, 'energyImport', { scale: 1000 }),
    f32('exportEnergy', 0x004a, 'energyExport', { scale: 1000 }),
    f32('voltageL1L2', 0x00c8, 'lineVoltage.l12'),
    f32('voltageL2L3', 0x00ca, 'lineVoltage.l23'),
    f32('voltageL3L1', 0x00cc, 'lineVoltage.l31'),
    { name: 'serialNumber', address: 0xfc00, table: 'holding', type: 'u32', poll: false },
  ],
  identity: { manufacturer: 'Eastron', model: 'SDM630', serialNumber: { point: 'serialNumber' } },
} satisfies RegisterMapInput;
