import type { Logger } from 'pino';
import { DeviceGroupResolver, resolveDeviceGroupReference } from './device-group.resolver';
import { DeviceResolver, resolveDeviceReference } from './device.resolver';
import { MeasurementResolver } from './measurement.resolver';
import { PartnershipResolver } from './partnership.resolver';
import { buildSubgraph, type Subgraph } from '../subgraph';

/** The fleet subgraph: devices with their assets, controllers and schedules, device groups, partnerships and steering. */
export function buildFleetSubgraph(log: Logger): Promise<Subgraph> {
  return buildSubgraph(
    {
      name: 'fleet',
      resolvers: [DeviceResolver, DeviceGroupResolver, PartnershipResolver, MeasurementResolver],
      entities: { Device: resolveDeviceReference, DeviceGroup: resolveDeviceGroupReference },
    },
    log,
  );
}
