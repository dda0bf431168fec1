import { GraphQLJSON } from 'graphql-scalars';
import { Field, ID, InputType, Int } from 'type-graphql';

/* The bodies of the message destination mutations; their rules are those of contracts/forwarding.ts. */

@InputType('DestinationMonitorSettingsInput')
export class DestinationMonitorSettingsInput {
  @Field(() => Boolean, { nullable: true })
  enabled?: boolean;

  @Field(() => Int, { nullable: true })
  maxLagSeconds?: number | null;
}

@InputType('MessageDestinationCreateInput')
export class MessageDestinationCreateInput {
  @Field(() => String)
  name!: string;

  @Field(() => ID)
  organizationHashId!: string;

  @Field(() => [String], { nullable: true })
  outageEmails?: string[];

  @Field(() => [ID], { nullable: true })
  outageUsersHashIds?: string[];

  @Field(() => GraphQLJSON, { description: "The kind's settings with `type` ('http', 'azure-service-bus', ...), secrets included." })
  destination!: Record<string, unknown>;

  @Field(() => DestinationMonitorSettingsInput, { nullable: true })
  monitorSettings?: DestinationMonitorSettingsInput;
}

@InputType('MessageDestinationUpdateInput')
export class MessageDestinationUpdateInput {
  @Field(() => String, { nullable: true })
  name?: string;

  @Field(() => [String], { nullable: true })
  outageEmails?: string[];

  @Field(() => [ID], { nullable: true })
  outageUsersHashIds?: string[];

  @Field(() => GraphQLJSON, {
    nullable: true,
    description: "The kind's settings as a whole with the stored `type` (changing_type otherwise); a secret left out keeps its stored value.",
  })
  destination?: Record<string, unknown>;

  @Field(() => DestinationMonitorSettingsInput, { nullable: true })
  monitorSettings?: DestinationMonitorSettingsInput;
}
