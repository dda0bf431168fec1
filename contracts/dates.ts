import * as yup from 'yup';

/**
 * The dates Gridport accepts from a client, decided once: from 2000-01-01T00:00:00Z up to, not
 * including, 2100-01-01T00:00:00Z. A date outside them (year 0, year -1, year 275760, which
 * JavaScript and ISO 8601 allow but PostgreSQL's timestamps do not all hold) is a mistake, not a
 * moment a device measured or a subscription started; it is refused with the part's key
 * (payload_invalid, query_invalid) and this message, never handed to the database.
 */
export const dateLimits = {
  earliest: new Date(Date.UTC(2000, 0, 1)),
  /** Exclusive. */
  latest: new Date(Date.UTC(2100, 0, 1)),
} as const;

const plausibleMessage = `\${path} must be from ${dateLimits.earliest.toISOString()} up to (not including) ${dateLimits.latest.toISOString()}`;

/** Whether a date lies in the accepted range. */
export function isPlausibleDate(value: Date): boolean {
  const time = value.getTime();
  return time >= dateLimits.earliest.getTime() && time < dateLimits.latest.getTime();
}

/** A yup date within dateLimits (undefined and null pass through, for `.optional()` and `.nullable()`). */
export function plausibleDate(): yup.DateSchema<Date | undefined> {
  return yup.date().test('plausible-date', plausibleMessage, (value) => value === undefined || value === null || isPlausibleDate(value));
}
