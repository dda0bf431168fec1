/**
 * Janitza UMG 96RM-E / UMG 604 power analysers (meter type janitza).
 * Source: Janitza UMG 96RM-E Modbus address list (float "frequently required readings"
 * 19000-19076), user manual and technical data, Janitza doc. no. 2.040.107.x.
 *
 * Float32 holding registers, big word order. Active power positive while drawing (importing);
 * energies in Wh: 19068 real energy consumed (import), 19076 delivered (export).
 */
import type { RegisterMapInput } from '../schema';

const f32 = (name: string, address: number, field: string) => ({ name, address, type: 'f32', field });

export const janitzaUmgMap = {
  type: 'janitza',
  source: 'Janitza UMG 96RM-E Modbus address list, readings 19000-19076 (float)',
  report: 'meterPower',
  defaultSlaveId: 1,
  invertable: true,
  points: [
    f32('voltageL1', 19000, 'phaseVoltage.l1'),
    f32('voltageL2', 19002, 'phaseVoltage.l2'),
    f32('voltageL3', 19004, 'phaseVoltage.l3'),
    f32('voltageL1L2', 19006, 'lineVoltage.l12'),
    f32('voltageL2L3', 19008, 'lineVoltage.l23'),
    f32('voltageL3L1', 19010, 'lineVoltage.l31'),
    f32('currentL1', 19012, 'phaseCurrent.l1'),
    f32('currentL2', 19014, 'phaseCurrent.l2'),
    f32('currentL3', 19016, 'phaseCurrent.l3'),
    f32('powerL1', 19020, 'phaseActivePower.l1'),
    f32('powerL2', 19022, 'phaseActivePower.l2'),
    f32('powerL3', 19024, 'phaseActivePower.l3'),
    f32('powerSum', 19026, 'activePower'),
    f32('apparentPowerSum', 19034, 'apparentPower'),
    f32('reactivePowerSum', 19042, 'reactivePower'),
    f32('frequency', 19050, 'frequency'),
    f32('energyConsumed', 19068, 'energyImport'),
    f32('energyDelivered', 19076, 'energyExport'),
  ],
  identity: { manufacturer: 'Janitza', model: 'UMG 96RM-E' },
} satisfies RegisterMapInput;
