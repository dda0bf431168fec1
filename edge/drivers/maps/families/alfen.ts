/**
 * Alfen Eve NG9xx charging stations (EV type alfen-ev-ng9xx), one socket per asset.
 * Source: Alfen "Modbus Slave TCP/IP - Implementation of Modbus Slave TCP/IP for Alfen NG9xx
 * platform", version 2.3 (30-10-2020), section 3.4 socket measurement registers.
 *
 * Currents and power are drawn, so negative in the asset convention (scale -1).
 * Socket registers at slave 1 (the right socket of a double station at 2), holding registers,
 * big-endian; FLOAT64 energies in Wh. The station needs the Active Load Balancing licence with
 * data source "Energy Management System", mode Socket, and "Allow writing maximum currents".
 * A setpoint is the socket's Modbus Slave Max Current (1210, float32 A): W / (phases × phase
 * voltage); the station falls back to its safe current when it is not rewritten within the
 * validity time (60 s by default), which the agent's polling rewrites well within.
 * Mode 3 states (IEC 61851): A available, B1/B2 vehicle connected (preparing), C2/D2
 * charging, C1/D1 suspended by the EVSE, E/F faulted.
 */
import type { RegisterMapInput } from '../schema';

const f32 = (name: string, address: number, field: string, extra: Record<string, unknown> = {}) => ({ name, address, type: 'f32', field, ...extra });

export const alfenNg9xxMap = {
  type: 'alfen-ev-ng9xx',
  source: 'Alfen Modbus Slave TCP/IP for the NG9xx platform, version 2.3 (30-10-2020)',
  report: 'evPower',
  defaultSlaveId: 1,
  points: [
    f32('currentL1', 320, 'phaseCurrent.l1', { scale: -1 }),
    f32('currentL2', 322, 'phaseCurrent.l2', { scale: -1 }),
    f32('currentL3', 324, 'phaseCurrent.l3', { scale: -1 }),
    f32('realPowerSum', 344, 'activePower', { scale: -1 }),
    { name: 'energyDeliveredSum', address: 374, type: 'f64', field: 'energyCharged' },
    f32('socketPower', 344, 'points.0.activePower', { scale: -1 }),
    {
      name: 'mode3State',
      address: 1201,
      type: 'string',
      length: 5,
      field: 'points.0.status',
      enum: {
        A: 'available',
        B1: 'preparing',
        B2: 'preparing',
        C1: 'suspendedEvse',
        D1: 'suspendedEvse',
        C2: 'charging',
        D2: 'charging',
        E: 'faulted',
        F: 'faulted',
      },
      enumDefault: 'unavailable',
    },
    { name: 'actualMaxCurrent', address: 1206, type: 'f32' },
  ],
  setpoint: { kind: 'current', address: 1210, type: 'f32', phases: 3 },
} satisfies RegisterMapInput;
