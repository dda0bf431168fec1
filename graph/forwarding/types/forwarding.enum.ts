import { destinationKinds, destinationStates, messageTypes } from '../../../contracts/forwarding';
import { graphqlEnum } from '../../common/graphql-enum';

/* The lists of contracts/forwarding.ts as GraphQL enums: clients see AZURE_SERVICE_BUS, resolvers 'azure-service-bus'. */

export const DestinationKindEnum = graphqlEnum(
  'DestinationKind',
  destinationKinds,
  "The kind of a message destination; its `destination` settings carry the same kind in `type` as contracts/forwarding.ts spells it ('azure-service-bus').",
);
export const DestinationStateEnum = graphqlEnum('DestinationState', destinationStates, 'Whether a destination is delivered to, or paused until resumed.');
export const MessageTypeEnum = graphqlEnum('MessageType', messageTypes, 'What a device group may forward, each in its version of device-model.md 3.12.');
