import { GraphQLDateTimeISO } from '../../common/graphql-date-time';
import { ArgsType, Field, ID, Int } from 'type-graphql';
import { measurementLimits } from '../../../contracts/measurement';

/** The arguments of `deviceMeasurements`; their rules are those of contracts/measurement.ts. */
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

  @Field(() => Int, {
    nullable: true,
    defaultValue: measurementLimits.defaultPoints,
    description: `About how many points to answer (1 to ${measurementLimits.maxPoints}).`,
  })
  points?: number | null;
}
