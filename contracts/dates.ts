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

/** Whether `text` ends at `at` with a zone: `Z` or ±hh:mm. */
function isZone(text: string, at: number): boolean {
  if (at === text.length - 1) {
    return text.charCodeAt(at) === 90; // Z
  }
  const sign = text.charCodeAt(at);
  if (at !== text.length - 6 || (sign !== 43 && sign !== 45) || text.charCodeAt(at + 3) !== 58) {
    return false;
  }
  const hours = asciiDigits(text, at + 1, 2);
  const minutes = asciiDigits(text, at + 4, 2);
  return hours >= 0 && hours <= 23 && minutes >= 0 && minutes <= 59;
}

/**
 * Whether `text` is an ISO 8601 date and time with a zone: exactly what parseIsoDateTime
 * (contracts/device/commands.ts) accepts, YYYY-MM-DDThh:mm[:ss[.f{1,9}]](Z|±hh:mm) with a day
 * that exists, read character by character because a report's `at` is checked on the hot path
 * and GraphQL's DateTimeISO serializes with it (contracts/hub/reports.test.ts holds it to
 * parseIsoDateTime's answers).
 */
export function isIsoDateTime(text: string): boolean {
  if (text.length < 17 || text.length > 35) {
    return false;
  }
  const year = asciiDigits(text, 0, 4);
  const month = asciiDigits(text, 5, 2);
  const day = asciiDigits(text, 8, 2);
  const hours = asciiDigits(text, 11, 2);
  const minutes = asciiDigits(text, 14, 2);
  if (year < 0 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 || text.charCodeAt(13) !== 58) {
    return false;
  }
  if (month < 1 || month > 12 || day < 1 || hours < 0 || hours > 23 || minutes < 0 || minutes > 59) {
    return false;
  }
  if (day > daysInMonth(year, month)) {
    return false;
  }
  let at = 16;
  if (text.charCodeAt(at) === 58) {
    const seconds = asciiDigits(text, at + 1, 2);
    if (seconds < 0 || seconds > 59) {
      return false;
    }
    at += 3;
    if (text.charCodeAt(at) === 46) {
      let end = at + 1;
      while (end < text.length && asciiDigits(text, end, 1) >= 0) {
        end += 1;
      }
      if (end === at + 1 || end - at - 1 > 9) {
        return false;
      }
      at = end;
    }
  }
  return isZone(text, at);
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
