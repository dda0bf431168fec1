import { Args, Ctx, Query, Resolver } from 'type-graphql';
import { measurementQuerySchema, type MeasurementPointView } from '../../contracts/measurement';
import { validate } from '../../contracts/validation';
import { givenArguments } from '../../graph/common/graphql-args';
import { MeasurementArgs } from '../../graph/fleet/types/measurement.args';
import { MeasurementPoint } from '../../graph/fleet/types/measurement.type';
import type { GraphqlContext } from '../graphql-context';
import { Allowed } from '../access';

/** Device measurement history, with the rights of `device`. */
@Resolver(() => MeasurementPoint)
export class MeasurementResolver {
  @Allowed('device.read', 'device.readVisible')
  @Query(() => [MeasurementPoint], {
    description:
      "A device's history of one observation field, aggregated server-side into about `points` buckets (from raw reports, or minute or hourly roll-ups, as the bucket size needs).",
  })
  deviceMeasurements(@Args(() => MeasurementArgs) args: MeasurementArgs, @Ctx() { actor, services }: GraphqlContext): Promise<MeasurementPointView[]> {
    return services.measurements.history(actor, validate(measurementQuerySchema, givenArguments(args), 'query_invalid'));
  }
}
