import { forwardingVersions, messageTypeOfReport, type ForwardedMessage, type MessageType } from '../../../contracts/forwarding';
import type { StreamReport } from './forwarding-stream';
import { isoTime } from '../../common/timestamps';

/**
 * The values each message type's version carries (docs/forwarding.md, "Payloads"): frozen
 * here, so a report type that gains a field does not change a published version; a new shape
 * is a new version beside the old one.
 */
const producer = [
  'activePower',
  'reactivePower',
  'apparentPower',
  'powerFactor',
  'frequency',
  'phaseVoltage',
  'lineVoltage',
  'phaseCurrent',
  'lineCurrent',
  'phaseActivePower',
  'availablePower',
  'activePowerLimitPercentage',
  'energyProduced',
  'setpoints',
  'connectionStatistics',
] as const;
const battery = [
  'activePower',
  'reactivePower',
  'apparentPower',
  'powerFactor',
  'frequency',
  'phaseVoltage',
  'lineVoltage',
  'phaseCurrent',
  'lineCurrent',
  'phaseActivePower',
  'stateOfCharge',
  'stateOfHealth',
  'status',
  'maxChargePower',
  'maxDischargePower',
  'dcVoltage',
  'dcCurrent',
  'temperature',
  'minCellVoltage',
  'maxCellVoltage',
  'minCellTemperature',
  'maxCellTemperature',
  'energyCharged',
  'energyDischarged',
  'setpoints',
  'connectionStatistics',
] as const;

export const payloadFields: { readonly [T in MessageType]: Readonly<Record<number, readonly string[]>> } = {
  solarPower: { 3: [...producer, 'dcPower', 'dcVoltage', 'dcCurrent'] },
  solarPowerFlash: { 1: ['activePower', 'reactivePower', 'setpoints'] },
  windPower: { 3: [...producer, 'windSpeed', 'rotorSpeed', 'nacelleDirection', 'converterStatus'] },
  windPowerFlash: { 1: ['activePower', 'reactivePower', 'windSpeed', 'setpoints'] },
  batteryPower: { 2: battery },
  batteryPowerFiltered: { 2: battery },
  batteryPowerFlash: { 1: ['activePower', 'reactivePower', 'stateOfCharge', 'setpoints'] },
  meterPower: {
    2: [
      'activePower',
      'reactivePower',
      'apparentPower',
      'powerFactor',
      'frequency',
      'phaseVoltage',
      'lineVoltage',
      'phaseCurrent',
      'lineCurrent',
      'phaseActivePower',
      'energyImport',
      'energyExport',
      'connectionStatistics',
    ],
  },
  meterPowerFlash: { 1: ['activePower', 'reactivePower', 'phaseVoltage', 'lineVoltage', 'phaseCurrent', 'lineCurrent'] },
  evPower: { 2: ['activePower', 'phaseCurrent', 'energyCharged', 'points', 'setpoints', 'connectionStatistics'] },
  generatorPower: { 1: [...producer, 'status', 'fuelLevel', 'runningHours'] },
  alarm: { 1: ['code', 'level', 'active', 'description'] },
};

/** The device fields a message names. */
export interface MessageDevice {
  hashId: string;
  name: string;
  identifier: string | null;
  /** The device's assets by index: identifier and type (device_components). */
  assets: ReadonlyMap<number, { identifier: string | null; type: string | null }>;
}

/** The message a stored report becomes, in its message type's current version; null for a report type that is not forwarded. */
export function forwardedMessageOf(report: StreamReport, device: MessageDevice): ForwardedMessage | null {
  const messageType = messageTypeOfReport[report.type];
  if (messageType === undefined) {
    return null;
  }
  const version = forwardingVersions[messageType];
  const observations = (report.body.observations ?? {}) as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const field of payloadFields[messageType][version] ?? []) {
    if (observations[field] !== undefined) {
      values[field] = observations[field];
    }
  }
  const asset = report.assetIndex === null ? null : device.assets.get(report.assetIndex);
  return {
    messageType,
    version,
    id: report.reportId,
    position: report.position.seq,
    device: { hashId: device.hashId, name: device.name, identifier: device.identifier },
    asset: report.assetIndex === null ? null : { index: report.assetIndex, identifier: asset?.identifier ?? null, type: asset?.type ?? null },
    at: isoTime(report.at),
    receivedAt: isoTime(report.receivedAt),
    values,
  };
}
