import type { Logger } from 'pino';
import { DeviceGroupResolver } from '../../resolvers/fleet/device-group.resolver';
import { DeviceResolver, resolveDeviceReference } from '../../resolvers/fleet/device.resolver';
import { MeasurementResolver } from '../../resolvers/fleet/measurement.resolver';
import { PartnershipResolver } from '../../resolvers/fleet/partnership.resolver';
import { buildSubgraph, type Subgraph } from '../subgraph';

/** The fleet subgraph: devices with their assets, controllers and schedules, device groups, partnerships and steering. */
export function buildFleetSubgraph(log: Logger): Promise<Subgraph> {
  return buildSubgraph(
    {
      name: 'fleet',
      resolvers: [DeviceResolver, DeviceGroupResolver, PartnershipResolver, MeasurementResolver],
      entities: { Device: resolveDeviceReference },
    },
    log,
  );
}
