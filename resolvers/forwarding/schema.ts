import type { Logger } from 'pino';
import { DeviceGroupReference } from '../../graph/forwarding/types/device-group-reference.type';
import { DeviceGroupReferenceResolver, resolveDeviceGroupReference } from './device-group-reference.resolver';
import { GroupForwardingResolver } from './group-forwarding.resolver';
import { MessageDestinationResolver } from './message-destination.resolver';
import { buildSubgraph, type Subgraph } from '../subgraph';

/**
 * The forwarding subgraph: message destinations with their health, and the forwarding of device
 * groups to them, also as the fleet's DeviceGroup.messageDestinations.
 */
export function buildForwardingSubgraph(log: Logger): Promise<Subgraph> {
  return buildSubgraph(
    {
      name: 'forwarding',
      resolvers: [MessageDestinationResolver, GroupForwardingResolver, DeviceGroupReferenceResolver],
      // Reached only through the gateway (an entity of the fleet's), never from this subgraph's own fields.
      orphanedTypes: [DeviceGroupReference],
      entities: { DeviceGroup: resolveDeviceGroupReference },
    },
    log,
  );
}
