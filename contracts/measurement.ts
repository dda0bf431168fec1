import * as yup from 'yup';
import { plausibleDate } from './dates';
import { configIndex } from './numbers';
import { reportTypes } from './hub/reports';

/**
 * A device's measurement history (issue 5, item 6): one numeric observation field of one report
 * type over a time range, aggregated server-side into about `points` buckets.
 */

export const measurementLimits = {
  /** The widest range one query may ask for. */
  maxRangeDays: 400,
  maxPoints: 5000,
  defaultPoints: 500,
  /** A field is a path of at most three names (`activePower`, `phaseVoltage.l1`, `setpoints.desired.cloud`). */
  fieldLength: 200,
} as const;

const dayMs = 24 * 60 * 60 * 1000;

export const measurementQuerySchema = yup.object({
  hashId: yup.string().trim().min(1).max(64).required(),
  field: yup
    .string()
    .trim()
    .max(measurementLimits.fieldLength)
    .matches(/^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*){0,2}$/, '${path} must be an observation field such as activePower or phaseVoltage.l1')
    .required(),
  reportType: yup.string().oneOf(reportTypes, '${path} must be a report type').required(),
  assetIndex: configIndex().nullable().default(null),
  controllerIndex: configIndex().nullable().default(null),
  from: plausibleDate().required(),
  to: plausibleDate()
    .required()
    .test('after-from', '${path} must be after from', function afterFrom(to) {
      const from = this.parent.from as unknown;
      return !(from instanceof Date) || to.getTime() > from.getTime();
    })
    .test('range', `the range from from to to must be at most ${measurementLimits.maxRangeDays} days`, function withinRange(to) {
      const from = this.parent.from as unknown;
      return !(from instanceof Date) || to.getTime() - from.getTime() <= measurementLimits.maxRangeDays * dayMs;
    }),
  points: yup.number().integer().min(1).max(measurementLimits.maxPoints).default(measurementLimits.defaultPoints),
});

export type MeasurementQuery = yup.InferType<typeof measurementQuerySchema>;

/** Where a history is read from: raw reports, or the minute or hour roll-ups. */
export type MeasurementSource = 'raw' | 'minute' | 'hour';

/** One bucket of a history: its start, and the aggregates of the values reported within it. */
export interface MeasurementPointView {
  at: Date;
  min: number;
  max: number;
  avg: number;
  /** The latest value reported within the bucket. */
  last: number;
  /** How many values the bucket aggregates. */
  count: number;
}
