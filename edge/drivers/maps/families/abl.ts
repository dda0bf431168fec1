/**
 * ABL eMH1, eMH2 and eMH3 wallboxes with the EVCC2/EVCC3 charge controller (EV type abl), one
 * outlet per asset.
 * Source: ABL "Modbus ASCII interface of the EVCC2/EVCC3 charge controller" (ABL's interface
 * description of the eMH1/eMH2/eMH3 RS485 bus, 38400 baud 8E1, Modbus ASCII, functions 3 and
 * 16 only): registers 0x0014 (Icmax, write) and 0x002E-0x0032 (status and currents, read).
 * The version of ABL's sheet could not be checked here; the registers were checked against two
 * public implementations that run these chargers (evcc charger/abl-em.go, esphome-abl-emh1).
 *
 * The controller speaks only Modbus ASCII (framing ascii: an rs485 connection) and takes writes
 * with function 16 only (writeMultiple). Register 0x002E answers its own address in the high
 * byte and the outlet state (IEC 61851 state with ABL's sub-state) in the low byte, so the
 * state enumeration is keyed by the whole register: 0x2EA1 is 11937, 0x2EB1 11953, and so on.
 * Currents are drawn, so negative in the asset convention (scale -0.1), and read 1000 (0x03E8)
 * on a wallbox without current sensor. The maximum current Icmax is the PWM duty cycle in ‰:
 * 1 ‰ is 0.06 A (IEC 61851-1: 10 % duty is 6 A). The controller measures no voltage and no
 * power, so the report has no active power. The phase currents are taken in register order
 * L1, L2, L3 as ABL's sheet lists them (evcc reads them the other way round).
 *
 * A setpoint under 6 A, the least IEC 61851 signals, writes 1000 (0x03E8, 100 % duty cycle):
 * the outlet disabled, no charging.
 *
 * Not covered: the outlet serial number at 0x0050, and reading Icmax back (the controller answers it only in its 0x002E block, mixed with
 * flags), so the confirmed setpoint is not read.
 */
import type { RegisterMapInput } from '../schema';

/** Outlet states: 0x2E in the high byte, ABL's state in the low byte. */
const state = (code: number): string => String(0x2e00 + code);

export const ablEmhMap = {
  type: 'abl',
  source: 'ABL Modbus ASCII interface of the EVCC2/EVCC3 charge controller (eMH1, eMH2, eMH3), registers 0x0014 and 0x002E-0x0032',
  report: 'evPower',
  defaultSlaveId: 1,
  framing: 'ascii',
  writeMultiple: true,
  points: [
    {
      name: 'outletState',
      address: 0x2e,
      type: 'u16',
      field: 'points.0.status',
      enum: {
        [state(0xa1)]: 'available',
        [state(0xb1)]: 'preparing',
        [state(0xb2)]: 'suspendedEv',
        [state(0xc2)]: 'charging',
        [state(0xc3)]: 'charging',
        [state(0xc4)]: 'charging',
        [state(0xe0)]: 'unavailable',
        [state(0xe1)]: 'unavailable',
        [state(0xe2)]: 'unavailable',
        [state(0xe3)]: 'unavailable',
        [state(0xf1)]: 'faulted',
        [state(0xf2)]: 'faulted',
      },
      enumDefault: 'faulted',
    },
    { name: 'icmaxAndFlags', address: 0x2f, type: 'u16' },
    { name: 'currentL1', address: 0x30, type: 'u16', scale: -0.1, unavailable: [1000], field: 'phaseCurrent.l1' },
    { name: 'currentL2', address: 0x31, type: 'u16', scale: -0.1, unavailable: [1000], field: 'phaseCurrent.l2' },
    { name: 'currentL3', address: 0x32, type: 'u16', scale: -0.1, unavailable: [1000], field: 'phaseCurrent.l3' },
  ],
  setpoint: { kind: 'current', address: 0x14, type: 'u16', scale: 0.06, phases: 3, off: { below: 6, raw: 1000 }, readBack: false },
  identity: { manufacturer: 'ABL' },
} satisfies RegisterMapInput;
