import { GraphQLJSON } from 'graphql-scalars';
import { GraphQLDateTimeISO } from '../../common/graphql-date-time';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import type {
  DestinationHealth as DestinationHealthView,
  DestinationKind,
  DestinationMonitorSettings as DestinationMonitorSettingsView,
  DestinationState,
  MessageDestinationView,
} from '../../../contracts/forwarding';
import type { UserReference } from '../../../contracts/references';
import { pageOf } from '../../common/graphql-page';
import { OrganizationReference } from '../../fleet/types/organization-reference.type';
import { DestinationKindEnum, DestinationStateEnum } from './forwarding.enum';

/* Message destinations in GraphQL, as contracts/forwarding.ts views them. */

@ObjectType('DestinationHealth', { description: 'Where delivery to a destination stands: its state, position in the stream, lag and last results.' })
export class DestinationHealth implements DestinationHealthView {
  @Field(() => DestinationStateEnum)
  state!: DestinationState;

  @Field(() => String, { nullable: true, description: 'Why it is paused (failing), or null.' })
  pausedReason!: string | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true })
  pausedAt!: string | null;

  @Field(() => String, { description: 'The stream position delivered up to (a 64-bit number, as text): what resumeMessageDestination takes as offset.' })
  position!: string;

  @Field(() => Int, { description: 'Reports waiting for the destination, counted up to a cap (lagCountCapped).' })
  lagReports!: number;

  @Field(() => Boolean)
  lagCountCapped!: boolean;

  @Field(() => Int, { description: 'How old the oldest waiting report is, in seconds.' })
  lagSeconds!: number;

  @Field(() => Float, { description: 'Reports delivered since the destination was created.' })
  deliveredCount!: number;

  @Field(() => GraphQLDateTimeISO, { nullable: true })
  lastSuccessAt!: string | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true })
  lastErrorAt!: string | null;

  @Field(() => String, { nullable: true })
  lastError!: string | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true, description: 'Since when deliveries fail without a success.' })
  failingSince!: string | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true })
  nextAttemptAt!: string | null;
}

@ObjectType('DestinationMonitorSettings', { description: "A destination's own monitor: alarms when it is paused or lags too far." })
export class DestinationMonitorSettings implements DestinationMonitorSettingsView {
  @Field(() => Boolean)
  enabled!: boolean;

  @Field(() => Int, { nullable: true, description: 'Lag in seconds above which the monitor raises an alarm; none when null.' })
  maxLagSeconds!: number | null;
}

@ObjectType('DestinationUser', { description: "A user told of a destination's outage." })
export class DestinationUser implements UserReference {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  email!: string;
}

@ObjectType('MessageDestination', { description: "A place one organisation's device groups forward reports to; its secrets are never returned." })
export class MessageDestination implements MessageDestinationView {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  name!: string;

  @Field(() => DestinationKindEnum)
  type!: DestinationKind;

  @Field(() => ID)
  organizationHashId!: string;

  @Field(() => OrganizationReference)
  organization!: MessageDestinationView['organization'];

  @Field(() => [String])
  outageEmails!: string[];

  @Field(() => [DestinationUser])
  outageUsers!: DestinationUser[];

  @Field(() => GraphQLJSON, { description: "The kind's settings with `type`, secrets left out (docs/forwarding.md)." })
  destination!: MessageDestinationView['destination'];

  @Field(() => [String], { description: 'The secret settings that hold a value (their values are never returned).' })
  secretsSet!: string[];

  @Field(() => DestinationMonitorSettings)
  monitorSettings!: DestinationMonitorSettings;

  @Field(() => Float, { description: 'The nominal active power of the devices in production whose groups forward here, W.' })
  nominalActivePowerSum!: number;

  @Field(() => DestinationHealth)
  health!: DestinationHealth;

  @Field(() => GraphQLDateTimeISO)
  createdAt!: string;

  @Field(() => GraphQLDateTimeISO)
  updatedAt!: string;
}

export const MessageDestinationPage = pageOf<MessageDestinationView>(MessageDestination, 'MessageDestinationPage');
