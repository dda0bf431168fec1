/**
 * Timestamps between PostgreSQL, Dates and ISO 8601 text, on the path of every list.
 *
 * A page of 50 rows carries 100 timestamps or more. node-postgres parses each with
 * postgres-date (three regular expressions and Date.UTC, 1.3 to 2.1 µs on a 2 × Xeon machine)
 * and each presenter writes it back with `Date.prototype.toISOString` (a call into V8's runtime,
 * 1.2 to 1.9 µs): about a third of a millisecond a page. These read and write the common forms
 * by arithmetic on the characters (0.4 to 0.7 and 0.25 µs) and hand every other form to the
 * general code, so that what comes out is the same, to the millisecond and the character
 * (docs/performance.md, "Request cost", fifth pass).
 */

import { asciiDigits } from '../../contracts/dates';

const zero = 48;
const msPerMinute = 60_000;
const msPerDay = 86_400_000;

/** Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's days_from_civil); `day` may run past its month, as Date.UTC allows. */
function daysFromCivil(year: number, month: number, day: number): number {
  const shiftedYear = month <= 2 ? year - 1 : year;
  const era = Math.floor(shiftedYear / 400);
  const yearOfEra = shiftedYear - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146_097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719_468;
}

/**
 * Epoch milliseconds of PostgreSQL's text for a timestamptz in its ISO DateStyle,
 * `YYYY-MM-DD HH:MM:SS[.f…]±HH[:MM[:SS]]`, with a year from 100 to 9999; NaN for anything else
 * (`infinity`, BC, other years, another DateStyle), which the general parser then reads. The
 * fraction is cut to the millisecond, as postgres-date does.
 */
export function timestamptzMillis(text: string): number {
  const length = text.length;
  if (
    length < 22 ||
    text.charCodeAt(4) !== 45 /* - */ ||
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 32 /* space */ ||
    text.charCodeAt(13) !== 58 /* : */ ||
    text.charCodeAt(16) !== 58
  ) {
    return NaN;
  }
  const year = asciiDigits(text, 0, 4);
  const month = asciiDigits(text, 5, 2);
  const day = asciiDigits(text, 8, 2);
  const hour = asciiDigits(text, 11, 2);
  const minute = asciiDigits(text, 14, 2);
  const second = asciiDigits(text, 17, 2);
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
    return NaN;
  }
  let index = 19;
  let millisecond = 0;
  if (text.charCodeAt(index) === 46 /* . */) {
    // One to six digits (PostgreSQL's microseconds); the first three are the milliseconds.
    const start = index + 1;
    index = start;
    while (index < length && index - start < 7 && text.charCodeAt(index) >= zero && text.charCodeAt(index) <= zero + 9) {
      index += 1;
    }
    const count = index - start;
    if (count === 0 || count > 6) {
      return NaN;
    }
    millisecond = asciiDigits(text, start, Math.min(count, 3)) * (count === 1 ? 100 : count === 2 ? 10 : 1);
  }
  const sign = text.charCodeAt(index);
  if (sign !== 43 /* + */ && sign !== 45 /* - */) {
    return NaN;
  }
  // The zone: ±HH, ±HH:MM or ±HH:MM:SS, and then the end.
  const rest = length - index - 1;
  if (rest !== 2 && rest !== 5 && rest !== 8) {
    return NaN;
  }
  const offsetHours = asciiDigits(text, index + 1, 2);
  const offsetMinutes = rest >= 5 && text.charCodeAt(index + 3) === 58 ? asciiDigits(text, index + 4, 2) : rest >= 5 ? -1 : 0;
  const offsetSeconds = rest === 8 && text.charCodeAt(index + 6) === 58 ? asciiDigits(text, index + 7, 2) : rest === 8 ? -1 : 0;
  if (offsetHours < 0 || offsetMinutes < 0 || offsetSeconds < 0) {
    return NaN;
  }
  const offset = (offsetHours * 3600 + offsetMinutes * 60 + offsetSeconds) * 1000;
  const local = daysFromCivil(year, month, day) * msPerDay + hour * 3_600_000 + minute * msPerMinute + second * 1000 + millisecond;
  return local - (sign === 43 ? offset : -offset);
}

/** A node-postgres (or PGlite) parser for timestamptz: the common form by `timestamptzMillis`, any other by `general`. */
export function timestamptzParser<T>(general: (text: string) => T): (text: string) => Date | T {
  return (text) => {
    const millis = timestamptzMillis(text);
    return Number.isNaN(millis) ? general(text) : new Date(millis);
  };
}

/**
 * `date.toISOString()`, to the character: `YYYY-MM-DDTHH:MM:SS.mmmZ`, computed from the epoch
 * milliseconds for years 1000 to 9999 (days to a civil date by Howard Hinnant's civil_from_days);
 * other years, and an invalid date (a RangeError), by toISOString itself.
 */
export function isoTime(date: Date): string {
  const millis = date.getTime();
  // 1000-01-01 and 10000-01-01, UTC.
  if (!(millis >= -30_610_224_000_000 && millis < 253_402_300_800_000)) {
    return date.toISOString();
  }
  // Past 1000-01-01 every figure below but the days is a whole number from 0 to 2^31, so
  // truncating with `| 0` is flooring, and V8 keeps them all as small integers.
  const days = Math.floor(millis / msPerDay);
  const inDay = millis - days * msPerDay;
  const shiftedDays = days + 719_468;
  const era = (shiftedDays / 146_097) | 0;
  const dayOfEra = shiftedDays - era * 146_097;
  const yearOfEra = ((dayOfEra - ((dayOfEra / 1460) | 0) + ((dayOfEra / 36_524) | 0) - ((dayOfEra / 146_096) | 0)) / 365) | 0;
  const dayOfYear = dayOfEra - (365 * yearOfEra + ((yearOfEra / 4) | 0) - ((yearOfEra / 100) | 0));
  const shiftedMonth = ((5 * dayOfYear + 2) / 153) | 0;
  const day = dayOfYear - (((153 * shiftedMonth + 2) / 5) | 0) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hour = (inDay / 3_600_000) | 0;
  const minute = ((inDay % 3_600_000) / msPerMinute) | 0;
  const second = ((inDay % msPerMinute) / 1000) | 0;
  const millisecond = inDay % 1000;
  // One string made from its 24 character codes, a third of what joining its parts costs.
  return String.fromCharCode(
    zero + ((year / 1000) | 0),
    zero + (((year / 100) | 0) % 10),
    zero + (((year / 10) | 0) % 10),
    zero + (year % 10),
    45,
    zero + ((month / 10) | 0),
    zero + (month % 10),
    45,
    zero + ((day / 10) | 0),
    zero + (day % 10),
    84 /* T */,
    zero + ((hour / 10) | 0),
    zero + (hour % 10),
    58,
    zero + ((minute / 10) | 0),
    zero + (minute % 10),
    58,
    zero + ((second / 10) | 0),
    zero + (second % 10),
    46,
    zero + ((millisecond / 100) | 0),
    zero + (((millisecond / 10) | 0) % 10),
    zero + (millisecond % 10),
    90 /* Z */,
  );
}
