import { GraphQLJSON } from 'graphql-scalars';
import { Field, InputType } from 'type-graphql';

/* The bodies of setSchedule and setParameters; their rules are the yup schemas of contracts/device, as over REST. */

@InputType('ScheduleInput', { description: 'As the body of PUT /v2/schedule.' })
export class ScheduleInput {
  @Field(() => [GraphQLJSON], { description: 'At most 192 items: { startAt, endAt, command: { type, ... } }.' })
  schedule!: unknown[];

  @Field(() => [String], { nullable: true })
  assetIdentifiers?: string[];

  @Field(() => [String], { nullable: true })
  controllerIdentifiers?: string[];
}

@InputType('ParametersInput', { description: 'As the body of PUT /v1/parameters.' })
export class ParametersInput {
  @Field(() => GraphQLJSON, { description: '{ type: sagerFurnace | demoBattery | hedno, ... }' })
  parameters!: Record<string, unknown>;

  @Field(() => [String])
  assetIdentifiers!: string[];
}
