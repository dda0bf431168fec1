/**
 * Socomec Countis E3x/E4x energy meters and Diris A14 / A-10 analysers (meter type socomec).
 * Source: Socomec "Countis E3x/E4x - JBUS/MODBUS communication" table and Diris A14 / A-10
 * JBUS/MODBUS common table (block 0xC550, energies 0xC702/0xC708), Socomec doc. 536 xxx.
 *
 * Holding registers, U32/S32 big word order: phase voltages V/100 (0xC558-0xC55D), frequency
 * Hz/100 (0xC55E), phase currents mA (0xC560-0xC565), total and phase active and reactive
 * power kW/100 and kvar/100 (0xC568, 0xC56A, 0xC570-0xC575), apparent power kVA/100
 * (0xC56C); partial active energy imported (0xC702) and exported (0xC708) in kWh/100.
 * Active power is positive importing. The meters leave the factory at JBUS address 5.
 */
import type { RegisterMapInput } from '../schema';

const u32 = (name: string, address: number, field: string, scale: number) => ({ name, address, type: 'u32', scale, field });
const s32 = (name: string, address: number, field: string, scale: number) => ({ name, address, type: 's32', scale, field });

export const socomecCountisMap = {
  type: 'socomec',
  source: 'Socomec Countis E3x/E4x and Diris A14 JBUS/MODBUS communication table (common table 0xC550)',
  report: 'meterPower',
  defaultSlaveId: 5,
  invertable: true,
  points: [
    u32('voltageL1', 0xc558, 'phaseVoltage.l1', 0.01),
    u32('voltageL2', 0xc55a, 'phaseVoltage.l2', 0.01),
    u32('voltageL3', 0xc55c, 'phaseVoltage.l3', 0.01),
    u32('frequency', 0xc55e, 'frequency', 0.01),
    u32('currentL1', 0xc560, 'phaseCurrent.l1', 0.001),
    u32('currentL2', 0xc562, 'phaseCurrent.l2', 0.001),
    u32('currentL3', 0xc564, 'phaseCurrent.l3', 0.001),
    s32('activePower', 0xc568, 'activePower', 10),
    s32('reactivePower', 0xc56a, 'reactivePower', 10),
    u32('apparentPower', 0xc56c, 'apparentPower', 10),
    s32('activePowerL1', 0xc570, 'phaseActivePower.l1', 10),
    s32('activePowerL2', 0xc572, 'phaseActivePower.l2', 10),
    s32('activePowerL3', 0xc574, 'phaseActivePower.l3', 10),
    u32('energyImported', 0xc702, 'energyImport', 10),
    u32('energyExported', 0xc708, 'energyExport', 10),
  ],
  identity: { manufacturer: 'Socomec' },
} satisfies RegisterMapInput;
