import * as yup from 'yup';
import { integer, quantity } from '../numbers';

/**
 * The rules that several device schemas share (device-model.md section 5): hh:mm time windows,
 * weekly schedules that must not overlap, limit pairs, uniqueness, tagged unions. The spec's
 * messages are user-facing texts and are kept verbatim here, in one place.
 */
export const validationMessages = {
  invalidTimeWindow: 'Invalid time window: Start time must be earlier than end time, overnight schedules are not allowed.',
  overlappingSchedules: 'Invalid schedules: time windows cannot overlap.',
  staticLimit: 'Upper limit must be bigger than lower limit.',
  invertedLimits: 'Invalid limits: The inverted consumption limit must not exceed the feed-in limit, and vice versa.',
  idsUnique: 'Ids must be unique',
  propertiesUnique: 'Properties must be unique',
  temperatureNamesUnique: 'Temperature names must be unique',
  temperatureRegistersUnique: 'Temperature registers must be unique',
  recordNotEmpty: 'Record must contain at least 1 element',
} as const;

/** Weekdays as the spec numbers them: 0 is Monday, 6 is Sunday (device-model.md section 5). */
export const weekdays = [0, 1, 2, 3, 4, 5, 6] as const;

const hhmm = /^([01]\d|2[0-3]):[0-5]\d$/;

/** A time of day, hh:mm on a 24-hour clock (device-model.md section 5). */
export const timeOfDaySchema = yup.string().matches(hhmm, '${path} must be a time of day hh:mm (24-hour)');

/** Minutes since midnight of an hh:mm string (which the schema has already checked). */
export function minutesOfDay(time: string): number {
  const [hours, minutes] = time.split(':');
  return Number(hours) * 60 + Number(minutes);
}

function isTime(value: unknown): value is string {
  return typeof value === 'string' && hhmm.test(value);
}

/**
 * Adds the time-window rule to an object with `start` and `end`: the start must not be later
 * than the end, so a window never runs past midnight. A window whose start equals its end is
 * accepted (the spec says "must not be later"); it is empty and never active.
 */
export function withTimeWindowRule<S extends yup.AnyObjectSchema>(schema: S): S {
  return schema.test('time-window', validationMessages.invalidTimeWindow, function check(value: unknown) {
    if (value === null || typeof value !== 'object') {
      return true;
    }
    const { start, end } = value as { start?: unknown; end?: unknown };
    if (!isTime(start) || !isTime(end)) {
      return true;
    }
    return minutesOfDay(start) <= minutesOfDay(end) || this.createError({ path: joinPath(this.path, 'end') });
  });
}

/** A time window of one day: start and end as hh:mm (device-model.md sections 3.1, 5). */
export const timeWindowSchema = withTimeWindowRule(yup.object({ start: timeOfDaySchema.required(), end: timeOfDaySchema.required() }).exact());

/** The weekdays a weekly window applies on; every day when not given. */
export const weekdaysSchema = yup
  .array(integer().min(0).max(6).required())
  .min(1)
  .test('weekdays-unique', '${path} must not repeat a weekday', (value) => value === undefined || new Set(value).size === value.length)
  .default(() => [...weekdays]);

/** The fields of a weekly window: start, end (hh:mm) and weekdays (0 Monday to 6 Sunday). */
export const weeklyWindowFields = {
  start: timeOfDaySchema.required(),
  end: timeOfDaySchema.required(),
  weekdays: weekdaysSchema,
};

interface WeeklyWindow {
  start: string;
  end: string;
  weekdays?: readonly number[];
}

function asWeeklyWindow(value: unknown): WeeklyWindow | undefined {
  if (value === null || typeof value !== 'object') {
    return undefined;
  }
  const { start, end, weekdays: days } = value as { start?: unknown; end?: unknown; weekdays?: unknown };
  if (!isTime(start) || !isTime(end)) {
    return undefined;
  }
  if (days !== undefined && !(Array.isArray(days) && days.every((day) => typeof day === 'number'))) {
    return undefined;
  }
  return { start, end, weekdays: days as number[] | undefined };
}

/**
 * Index of the first window that overlaps an earlier one on a weekday they share, or -1.
 * Windows are half open, [start, end): one that ends at 10:00 and one that starts at 10:00
 * do not overlap. Windows without weekdays apply on every day.
 */
export function firstOverlappingWindow(windows: readonly unknown[]): number {
  const seen: { from: number; to: number; days: readonly number[] }[] = [];
  for (const [index, raw] of windows.entries()) {
    const window = asWeeklyWindow(raw);
    if (window === undefined) {
      continue;
    }
    const current = { from: minutesOfDay(window.start), to: minutesOfDay(window.end), days: window.weekdays ?? weekdays };
    const overlaps = seen.some((other) => other.from < current.to && current.from < other.to && other.days.some((day) => current.days.includes(day)));
    if (overlaps) {
      return index;
    }
    seen.push(current);
  }
  return -1;
}

/** Adds the no-overlap rule to an array of weekly windows; the issue is on the first overlapping entry. */
export function withNoOverlapRule<S extends yup.ArraySchema<yup.AnyObject[] | undefined, yup.AnyObject, unknown, yup.Flags>>(schema: S): S {
  return schema.test('no-overlap', validationMessages.overlappingSchedules, function check(value: unknown) {
    if (!Array.isArray(value)) {
      return true;
    }
    const index = firstOverlappingWindow(value);
    return index < 0 || this.createError({ path: `${this.path}[${index}]` });
  });
}

/** `a.b`, or `b` at the top. */
export function joinPath(path: string | undefined, key: string): string {
  return path === undefined || path === '' ? key : `${path}.${key}`;
}

/**
 * Adds a uniqueness rule to an array: the key of each entry (entries whose key is undefined are
 * skipped) must not repeat. The issue is on the first repeated entry, at `field` inside it when given.
 */
export function uniqueBy<S extends yup.ArraySchema<unknown[] | undefined, yup.AnyObject, unknown, yup.Flags>>(
  schema: S,
  message: string,
  key: (entry: unknown) => unknown,
  field?: string,
): S {
  return schema.test('unique', message, function check(value: unknown) {
    if (!Array.isArray(value)) {
      return true;
    }
    const seen = new Set<unknown>();
    for (const [index, entry] of value.entries()) {
      const entryKey = key(entry);
      if (entryKey === undefined) {
        continue;
      }
      if (seen.has(entryKey)) {
        const at = `${this.path}[${index}]`;
        return this.createError({ path: field === undefined ? at : `${at}.${field}` });
      }
      seen.add(entryKey);
    }
    return true;
  });
}

/** The value of `field` of an object entry, or undefined. */
export function fieldOf(field: string): (entry: unknown) => unknown {
  return (entry) => (entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>)[field] : undefined);
}

/** A signed limit: a number, or null for no limit. */
const limitValue = quantity().nullable().default(null);

/**
 * Adds the limit-pair rule to an object with consumption and feedIn (W): inverted, the
 * consumption limit must not exceed the feed-in limit and vice versa, i.e. -consumption <= feedIn
 * (device-model.md section 5). A negative limit asks for at least that much of the other flow.
 */
export function withLimitPairRule<S extends yup.AnyObjectSchema>(schema: S): S {
  return schema.test('limit-pair', validationMessages.invertedLimits, (value: unknown) => {
    if (value === null || typeof value !== 'object') {
      return true;
    }
    const { consumption, feedIn } = value as { consumption?: unknown; feedIn?: unknown };
    if (typeof consumption !== 'number' || typeof feedIn !== 'number') {
      return true;
    }
    return -consumption <= feedIn;
  });
}

/**
 * Contractual, physical and soft limits: consumption and feed-in in W (null: none), and whether
 * crossing them raises the "power too high" monitor (device-model.md sections 3.5, 3.11).
 */
export const limitPairSchema = withLimitPairRule(
  yup
    .object({
      consumption: limitValue,
      feedIn: limitValue,
      monitored: yup.boolean().default(true),
    })
    .exact(),
);

/** What a static limit's upper and lower are in: percent of nominal power, or W. */
export const staticLimitScales = ['percentage', 'activePower'] as const;

/** Static limit of solar and wind (device-model.md section 3.4): upper must be bigger than lower. */
export const staticLimitSchema = yup
  .object({
    scale: yup.string().oneOf(staticLimitScales).default('percentage'),
    upper: quantity().required(),
    lower: quantity().required(),
  })
  .exact()
  .test('static-limit', validationMessages.staticLimit, function check(value: unknown) {
    if (value === null || typeof value !== 'object') {
      return true;
    }
    const { upper, lower } = value as { upper?: unknown; lower?: unknown };
    if (typeof upper !== 'number' || typeof lower !== 'number') {
      return true;
    }
    return upper > lower || this.createError({ path: joinPath(this.path, 'upper') });
  });

/** A record (object keyed by name) of `entry` values that must hold at least one entry. */
export function nonEmptyRecord<S extends yup.ISchema<unknown>>(entry: S) {
  return yup.lazy((value: unknown) => {
    const shape: Record<string, S> = {};
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const key of Object.keys(value)) {
        shape[key] = entry;
      }
    }
    return yup
      .object(shape)
      .required()
      .test('record-not-empty', validationMessages.recordNotEmpty, (record) => Object.keys(record).length > 0);
  });
}

/**
 * A union of object schemas tagged by `tag` (`type` unless told): the value's tag picks its
 * schema. An unknown tag gives one issue at `<path>.<tag>`; its branch is typed never, so the
 * inferred type is exactly the union of the known branches.
 */
export function taggedUnion<M extends Record<string, yup.ISchema<unknown>>>(schemas: M, options: { tag?: string; message?: string } = {}) {
  const tag = options.tag ?? 'type';
  const known = Object.keys(schemas);
  const message = options.message ?? `\${path} must be one of the following values: ${known.join(', ')}`;
  const unknownTag = yup
    .mixed<never>()
    .defined('${path} is a required field')
    .test('known-tag', message, function check() {
      const path = joinPath(this.path, tag);
      return this.createError({ path, message: message.replace('${path}', path) });
    });
  const union = yup.lazy((value: unknown) => {
    const key = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[tag] : undefined;
    if (typeof key === 'string' && Object.hasOwn(schemas, key)) {
      return schemas[key as keyof M];
    }
    return unknownTag;
  });
  // The variants, for tests that walk every schema (contracts/numbers.test.ts).
  return Object.assign(union, { variants: schemas as Readonly<M> });
}
