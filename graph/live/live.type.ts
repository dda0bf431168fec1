import { GraphQLJSON } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { DevicePresenceEventView, DeviceReportEventView } from '../common/live';

@ObjectType('DeviceReportEvent', { description: 'A report of a device, as stored.' })
export class DeviceReportEvent implements DeviceReportEventView {
  @Field(() => ID)
  deviceHashId!: string;

  @Field(() => String, { description: "The device's own id for the report." })
  reportId!: string;

  @Field(() => String, { description: 'meterPower, batteryPower, ... (docs/gateway-protocol.md)' })
  type!: string;

  @Field(() => String, { description: 'ISO 8601.' })
  at!: string;

  @Field(() => Int, { nullable: true })
  assetIndex!: number | null;

  @Field(() => Int, { nullable: true })
  controllerIndex!: number | null;

  @Field(() => GraphQLJSON, { description: 'The whole report: type, at, asset or controller, observations.' })
  body!: Record<string, unknown>;
}

@ObjectType('DevicePresenceEvent', { description: "A device's gateway connected or went away." })
export class DevicePresenceEvent implements DevicePresenceEventView {
  @Field(() => ID)
  deviceHashId!: string;

  @Field(() => Boolean)
  online!: boolean;

  @Field(() => String, { nullable: true })
  networkInterface!: string | null;
}
