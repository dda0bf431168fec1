import { GraphQLDateTimeISO } from 'graphql-scalars';
import { ArgsType, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { measurementLimits, type MeasurementPointView } from '../../../contracts/measurement';

/* A device's measurement history in GraphQL; the rules of the arguments are contracts/measurement.ts. */

@ObjectType('MeasurementPoint', { description: 'One bucket of a measurement history: its start and the aggregates of the values reported within it.' })
export class MeasurementPoint implements MeasurementPointView {
  @Field(() => GraphQLDateTimeISO, { description: 'The start of the bucket (buckets are aligned on multiples of their size since 1970-01-01 UTC).' })
  at!: Date;

  @Field(() => Float)
  min!: number;

  @Field(() => Float)
  max!: number;

  @Field(() => Float)
  avg!: number;

  @Field(() => Float, { description: 'The latest value reported within the bucket.' })
  last!: number;

  @Field(() => Int, { description: 'How many values the bucket aggregates.' })
  count!: number;
}

@ArgsType()
export class MeasurementArgs {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String, { description: 'An observation field of the report type; nested ones joined with dots: activePower, phaseVoltage.l1.' })
  field!: string;

  @Field(() => String, { description: 'A report type: meterPower, solarPower, batteryPower.flash, ...' })
  reportType!: string;

  @Field(() => Int, { nullable: true, description: 'The asset the reports are about; leave out for reports about the device or a controller.' })
  assetIndex?: number | null;

  @Field(() => Int, { nullable: true, description: 'The control loop the reports are about.' })
  controllerIndex?: number | null;

  @Field(() => GraphQLDateTimeISO)
  from!: Date;

  @Field(() => GraphQLDateTimeISO, { description: `Exclusive; at most ${measurementLimits.maxRangeDays} days after from.` })
  to!: Date;

  @Field(() => Int, { nullable: true, defaultValue: measurementLimits.defaultPoints, description: `About how many points to answer (1 to ${measurementLimits.maxPoints}).` })
  points?: number | null;
}
