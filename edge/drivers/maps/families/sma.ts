/**
 * SMA Sunny Island battery inverters (battery type sma-sunny-island).
 * Source: SMA "SMA Modbus Interface - Sunny Island" parameter and measured-value list
 * (SI-Modbus-xx, Technical Information, version 1.x); SMA unit id 3.
 *
 * Holding registers, 32-bit big word order. 30775 AC active power (W, positive feeding in =
 * discharging), 30845 state of charge (%), 30843 battery current (mA), 30851 battery voltage
 * (0.01 V). A setpoint writes 40151 = 802 (active power setpoint in force; 803 releases) and
 * 40149 the active power in W (positive discharging).
 */
import type { RegisterMapInput } from '../schema';

export const smaSunnyIslandMap = {
  type: 'sma-sunny-island',
  source: 'SMA Modbus Interface Sunny Island, measured values and parameters (SI-Modbus technical information)',
  report: 'batteryPower',
  defaultSlaveId: 3,
  points: [
    { name: 'activePower', address: 30775, type: 's32', field: 'activePower', unavailable: [-0x8000_0000] },
    { name: 'gridFrequency', address: 30803, type: 'u32', scale: 0.01, field: 'frequency', unavailable: [0xffff_ffff] },
    { name: 'reactivePower', address: 30805, type: 's32', field: 'reactivePower', unavailable: [-0x8000_0000] },
    { name: 'batteryCurrent', address: 30843, type: 's32', scale: 0.001, field: 'dcCurrent', unavailable: [-0x8000_0000] },
    { name: 'stateOfCharge', address: 30845, type: 'u32', field: 'stateOfCharge', unavailable: [0xffff_ffff] },
    { name: 'batteryVoltage', address: 30851, type: 'u32', scale: 0.01, field: 'dcVoltage', unavailable: [0xffff_ffff] },
  ],
  setpoint: {
    kind: 'watts',
    address: 40149,
    type: 's32',
    enable: [{ address: 40151, value: 802, type: 'u32' }],
    release: [{ address: 40151, value: 803, type: 'u32' }],
  },
} satisfies RegisterMapInput;
