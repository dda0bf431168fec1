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

/**
 * The number written by the `length` ASCII digits of `text` at `start`, or -1 when one is not a
 * digit (or lies past the end): for reading dates character by character on hot paths (a
 * report's `at`, PostgreSQL's timestamps).
 */
export function asciiDigits(text: string, start: number, length: number): number {
  let result = 0;
  for (let index = start; index < start + length; index += 1) {
    const code = text.charCodeAt(index) - 48;
    if (!(code >= 0 && code <= 9)) {
      return -1;
    }
    result = result * 10 + code;
  }
  return result;
}

/** The days of `month` (1 to 12) in `year` of the Gregorian calendar. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) {
    return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  }
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Whether a date lies in the accepted range. */
export function isPlausibleDate(value: Date): boolean {
  const time = value.getTime();
  return time >= dateLimits.earliest.getTime() && time < dateLimits.latest.getTime();
}

/** A yup date within dateLimits (undefined and null pass through, for `.optional()` and `.nullable()`). */
export function plausibleDate(): yup.DateSchema<Date | undefined> {
  return yup.date().test('plausible-date', plausibleMessage, (value) => value === undefined || value === null || isPlausibleDate(value));
}
