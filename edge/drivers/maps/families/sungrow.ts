/**
 * Sungrow SG string inverters (solar type sungrow-string-inverter).
 * Source: Sungrow "Communication Protocol of PV Grid-Connected String Inverters"
 * (TI_20200620_Communication Protocol_V1.1.x); the document numbers registers from 1, the
 * addresses here are protocol addresses (register number - 1).
 *
 * Measurements in input registers, 32-bit values low word first (mid-little). The power limit
 * is in holding registers: 5006 limitation switch (0xAA on, 0x55 off) and 5007 the limit in
 * 0.1 % of nominal power (5000 nominal active power, 0.1 kW).
 */
import type { RegisterMapInput } from '../schema';

export const sungrowStringInverterMap = {
  type: 'sungrow-string-inverter',
  source: 'Sungrow Communication Protocol of PV Grid-Connected String Inverters V1.1 (TI_20200620)',
  report: 'solarPower',
  defaultSlaveId: 1,
  wordOrder: 'mid-little',
  points: [
    { name: 'nominalPower', address: 5000, table: 'input', type: 'u16', scale: 100 },
    { name: 'totalYield', address: 5003, table: 'input', type: 'u32', scale: 1000, field: 'energyProduced' },
    { name: 'totalDcPower', address: 5016, table: 'input', type: 'u32', field: 'dcPower' },
    { name: 'phaseVoltageA', address: 5018, table: 'input', type: 'u16', scale: 0.1, field: 'phaseVoltage.l1' },
    { name: 'phaseVoltageB', address: 5019, table: 'input', type: 'u16', scale: 0.1, field: 'phaseVoltage.l2' },
    { name: 'phaseVoltageC', address: 5020, table: 'input', type: 'u16', scale: 0.1, field: 'phaseVoltage.l3' },
    { name: 'phaseCurrentA', address: 5021, table: 'input', type: 'u16', scale: 0.1, field: 'phaseCurrent.l1' },
    { name: 'phaseCurrentB', address: 5022, table: 'input', type: 'u16', scale: 0.1, field: 'phaseCurrent.l2' },
    { name: 'phaseCurrentC', address: 5023, table: 'input', type: 'u16', scale: 0.1, field: 'phaseCurrent.l3' },
    { name: 'totalActivePower', address: 5030, table: 'input', type: 'u32', field: 'activePower' },
    { name: 'reactivePower', address: 5032, table: 'input', type: 's32', field: 'reactivePower' },
    { name: 'powerFactor', address: 5034, table: 'input', type: 's16', scale: 0.001, field: 'powerFactor' },
    { name: 'gridFrequency', address: 5035, table: 'input', type: 'u16', scale: 0.1, field: 'frequency' },
    { name: 'limitPercent', address: 5007, type: 'u16', scale: 0.1, field: 'activePowerLimitPercentage' },
  ],
  setpoint: {
    kind: 'percent',
    address: 5007,
    type: 'u16',
    scale: 0.1,
    nominalPoint: 'nominalPower',
    enable: [{ address: 5006, value: 0xaa }],
    release: [{ address: 5006, value: 0x55 }],
  },
} satisfies RegisterMapInput;
