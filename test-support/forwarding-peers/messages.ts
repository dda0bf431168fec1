import { forwardingVersions, type ForwardedMessage, type MessageType } from '../../contracts/forwarding';

/**
 * The forwarded messages of the deliverer tests, built one way for every kind: three devices
 * (names beyond ASCII, one without an identifier), four message types in turn (nested values,
 * lists, an alarm without an asset whose text holds quotes), times 15 s apart with
 * milliseconds, and positions that grow (not by one), as the worker hands them over.
 */

const devices = [
  { hashId: 'dv3kq8a1', name: 'Farm Noord – inverter room', identifier: 'TP-000481' },
  { hashId: 'dv7mx2c9', name: 'Zählerschrank Süd', identifier: 'TP-000517' },
  { hashId: 'dv9pz4e5', name: 'Depot Charging', identifier: null },
] as const;

const plan: ReadonlyArray<{ type: MessageType; asset: ForwardedMessage['asset']; values: (n: number) => Record<string, unknown> }> = [
  {
    type: 'solarPower',
    asset: { index: 0, identifier: 'SMA-STP-25000', type: 'solar' },
    values: (n) => ({ activePowerW: 18_250.5 + n, reactivePowerVar: -312.25, energyExportedWh: 48_210_334 + n * 76, dcVoltageV: 612.4, status: 'running' }),
  },
  {
    type: 'batteryPower',
    asset: { index: 1, identifier: 'BYD-HVS-12.8', type: 'battery' },
    values: (n) => ({
      activePowerW: -4_000 + n * 10,
      stateOfChargePercent: 63.5,
      stateOfHealthPercent: 97,
      status: 'on',
      cellTemperaturesC: [24.5, 24.75, 25],
    }),
  },
  {
    type: 'meterPower',
    asset: { index: 2, identifier: null, type: 'meter' },
    values: (n) => ({
      activePowerW: 812.125 - n,
      importedEnergyWh: 9_876_543 + n,
      exportedEnergyWh: 1_234_567,
      phases: [
        { voltageV: 231.2, currentA: 3.12 },
        { voltageV: 229.8, currentA: 2.9 },
        { voltageV: 230.4, currentA: 3.05 },
      ],
    }),
  },
  {
    type: 'alarm',
    asset: null,
    values: (n) => ({ kind: 'assetUnreachable', severity: 'major', active: n % 2 === 0, message: 'Wechselrichter antwortet nicht ("timeout")' }),
  },
];

/** A forwarded message numbered `n` (its position): devices, message types and assets cycle; times step 15 s. */
export function forwardedMessage(n: number): ForwardedMessage {
  const device = devices[n % devices.length];
  const kind = plan[n % plan.length];
  if (device === undefined || kind === undefined) {
    throw new Error('no device or message type to build a message from');
  }
  const at = new Date(Date.UTC(2026, 10, 25, 8, 0, 0) + n * 15_000 + (n % 7) * 111);
  return {
    messageType: kind.type,
    version: forwardingVersions[kind.type],
    id: `${device.identifier ?? device.hashId}-r${String(n).padStart(6, '0')}`,
    position: String(1_000_000_000 + n * 3),
    device: { ...device },
    asset: kind.asset,
    at: at.toISOString(),
    receivedAt: new Date(at.getTime() + 850).toISOString(),
    values: kind.values(n),
  };
}

/** Messages numbered `from` up to `from + count - 1`, in stream order. */
export function forwardedBatch(from: number, count: number): ForwardedMessage[] {
  return Array.from({ length: count }, (_, index) => forwardedMessage(from + index));
}
