/**
 * Huawei SUN2000 inverters (solar type huawei-inverter) and the LUNA2000 battery behind them
 * (battery type huawei-ess).
 * Source: Huawei "SUN2000 Series Inverter Modbus Interface Definitions" V3.0 (registers
 * 30000-47xxx); gains as the document gives them (value = register / gain).
 *
 * Holding registers, big word order, default slave 1 (SDongle: 1; SmartLogger: per inverter).
 * huawei-inverter: a setpoint is the active power fixed-value derating (40126, U32, W);
 * releasing writes the rated power (30073) back. huawei-ess: the LUNA2000 is steered by
 * forcible charge/discharge: setting mode 0 (by duration, 47246) and the period (47083, the
 * longest, 1440 min), then the power (47249 discharge, 47247 charge, U32 W), then the command
 * (47100: 2 discharge, 1 charge, 0 stop). Release writes stop. The command ends after its
 * period without a new one: the agent's setpoint read back (null once stopped) shows it. Its
 * charge/discharge power (37765) is positive while charging, so scale -1 gives the report's
 * convention.
 */
import type { RegisterMapInput } from '../schema';

export const huaweiInverterMap = {
  type: 'huawei-inverter',
  source: 'Huawei SUN2000 Series Inverter Modbus Interface Definitions V3.0',
  report: 'solarPower',
  defaultSlaveId: 1,
  points: [
    { name: 'ratedPower', address: 30073, type: 'u32' },
    { name: 'inputPower', address: 32064, type: 's32', field: 'dcPower' },
    { name: 'lineVoltageAB', address: 32066, type: 'u16', scale: 0.1, field: 'lineVoltage.l12' },
    { name: 'lineVoltageBC', address: 32067, type: 'u16', scale: 0.1, field: 'lineVoltage.l23' },
    { name: 'lineVoltageCA', address: 32068, type: 'u16', scale: 0.1, field: 'lineVoltage.l31' },
    { name: 'phaseVoltageA', address: 32069, type: 'u16', scale: 0.1, field: 'phaseVoltage.l1' },
    { name: 'phaseVoltageB', address: 32070, type: 'u16', scale: 0.1, field: 'phaseVoltage.l2' },
    { name: 'phaseVoltageC', address: 32071, type: 'u16', scale: 0.1, field: 'phaseVoltage.l3' },
    { name: 'phaseCurrentA', address: 32072, type: 's32', scale: 0.001, field: 'phaseCurrent.l1' },
    { name: 'phaseCurrentB', address: 32074, type: 's32', scale: 0.001, field: 'phaseCurrent.l2' },
    { name: 'phaseCurrentC', address: 32076, type: 's32', scale: 0.001, field: 'phaseCurrent.l3' },
    { name: 'activePower', address: 32080, type: 's32', field: 'activePower' },
    { name: 'reactivePower', address: 32082, type: 's32', field: 'reactivePower' },
    { name: 'powerFactor', address: 32084, type: 's16', scale: 0.001, field: 'powerFactor' },
    { name: 'gridFrequency', address: 32085, type: 'u16', scale: 0.01, field: 'frequency' },
    { name: 'accumulatedYield', address: 32106, type: 'u32', scale: 10, field: 'energyProduced' },
    { name: 'modelName', address: 30000, type: 'string', length: 15, poll: false },
    { name: 'serialNumber', address: 30015, type: 'string', length: 10, poll: false },
  ],
  setpoint: { kind: 'watts', address: 40126, type: 'u32', nominalPoint: 'ratedPower' },
  identity: { manufacturer: 'Huawei', model: { point: 'modelName' }, serialNumber: { point: 'serialNumber' } },
} satisfies RegisterMapInput;

export const huaweiEssMap = {
  type: 'huawei-ess',
  source: 'Huawei SUN2000 Series Inverter Modbus Interface Definitions V3.0 (energy storage 37000-37800)',
  report: 'batteryPower',
  defaultSlaveId: 1,
  points: [
    { name: 'stateOfCapacity', address: 37760, type: 'u16', scale: 0.1, field: 'stateOfCharge' },
    { name: 'chargeDischargePower', address: 37765, type: 's32', scale: -1, field: 'activePower' },
    { name: 'totalCharge', address: 37780, type: 'u32', scale: 10, field: 'energyCharged' },
    { name: 'totalDischarge', address: 37782, type: 'u32', scale: 10, field: 'energyDischarged' },
  ],
  setpoint: {
    kind: 'watts',
    address: 47249,
    negativeAddress: 47247,
    type: 'u32',
    magnitude: true,
    direction: { address: 47100, positive: 2, negative: 1 },
    enable: [
      { address: 47246, value: 0 },
      { address: 47083, value: 1440 },
    ],
    release: [{ address: 47100, value: 0 }],
  },
} satisfies RegisterMapInput;
