import { GraphQLDateTimeISO } from '../../common/graphql-date-time';
import { Field, Float, Int, ObjectType } from 'type-graphql';
import type { MeasurementPointView } from '../../../contracts/measurement';

/* A device's measurement history in GraphQL. */

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
