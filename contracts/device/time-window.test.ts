import * as yup from 'yup';
import { issuesOf } from '../validation';
import {
  firstOverlappingWindow,
  limitPairSchema,
  validationMessages,
  nonEmptyRecord,
  staticLimitSchema,
  taggedUnion,
  timeWindowSchema,
  uniqueBy,
  weeklyWindowFields,
  withNoOverlapRule,
  withTimeWindowRule,
} from './time-window';

const issues = issuesOf;

const weekly = withNoOverlapRule(yup.array(withTimeWindowRule(yup.object(weeklyWindowFields).exact())).default([]));

describe('time windows (device-model.md section 5)', () => {
  it.each([
    ['a morning', { start: '08:00', end: '12:00' }],
    ['a whole day', { start: '00:00', end: '23:59' }],
    ['an empty window, start equal to end', { start: '10:00', end: '10:00' }],
  ])('accepts %s', (_name, value) => {
    expect(issues(timeWindowSchema, value)).toEqual([]);
  });

  it.each([
    ['an overnight window', { start: '22:00', end: '06:00' }, 'end', validationMessages.invalidTimeWindow],
    ['a start after the end', { start: '12:01', end: '12:00' }, 'end', validationMessages.invalidTimeWindow],
    ['an hour 24', { start: '08:00', end: '24:00' }, 'end', 'end must be a time of day hh:mm (24-hour)'],
    ['a time without leading zero', { start: '8:00', end: '12:00' }, 'start', 'start must be a time of day hh:mm (24-hour)'],
    ['minutes past 59', { start: '08:60', end: '12:00' }, 'start', 'start must be a time of day hh:mm (24-hour)'],
  ])('refuses %s', (_name, value, path, message) => {
    expect(issues(timeWindowSchema, value)).toEqual([{ path, message }]);
  });
});

describe('weekly schedules must not overlap (device-model.md section 5)', () => {
  it.each([
    [
      'adjacent windows',
      [
        { start: '08:00', end: '12:00' },
        { start: '12:00', end: '18:00' },
      ],
    ],
    [
      'overlapping hours on different weekdays',
      [
        { start: '08:00', end: '12:00', weekdays: [0, 1] },
        { start: '10:00', end: '14:00', weekdays: [5, 6] },
      ],
    ],
    ['one window', [{ start: '08:00', end: '12:00' }]],
  ])('accepts %s', (_name, value) => {
    expect(issues(weekly, value)).toEqual([]);
  });

  it.each([
    [
      'overlapping windows every day',
      [
        { start: '08:00', end: '12:00' },
        { start: '11:59', end: '18:00' },
      ],
      '[1]',
    ],
    [
      'overlap on a shared Sunday',
      [
        { start: '08:00', end: '12:00', weekdays: [6] },
        { start: '09:00', end: '10:00', weekdays: [2, 6] },
      ],
      '[1]',
    ],
    [
      'a window inside a window without weekdays',
      [
        { start: '00:00', end: '23:59' },
        { start: '01:00', end: '02:00' },
        { start: '03:00', end: '04:00', weekdays: [3] },
      ],
      '[1]',
    ],
  ])('refuses %s, on the first overlapping entry', (_name, value, path) => {
    expect(issues(weekly, value)).toEqual([{ path, message: validationMessages.overlappingSchedules }]);
  });

  it.each([
    ['a weekday 7', [{ start: '08:00', end: '12:00', weekdays: [7] }], '[0].weekdays[0]', '[0].weekdays[0] must be less than or equal to 6'],
    ['a repeated weekday', [{ start: '08:00', end: '12:00', weekdays: [1, 1] }], '[0].weekdays', '[0].weekdays must not repeat a weekday'],
  ])('refuses %s', (_name, value, path, message) => {
    expect(issues(weekly, value)).toEqual([{ path, message }]);
  });

  it('defaults weekdays to every day, 0 (Monday) to 6 (Sunday)', () => {
    expect(weekly.cast([{ start: '08:00', end: '12:00' }])).toEqual([{ start: '08:00', end: '12:00', weekdays: [0, 1, 2, 3, 4, 5, 6] }]);
  });

  it('finds no overlap in an empty list and ignores malformed entries', () => {
    expect(firstOverlappingWindow([])).toBe(-1);
    expect(firstOverlappingWindow([{ start: 'x', end: '10:00' }, null, { start: '08:00', end: '09:00' }])).toBe(-1);
  });
});

describe('static limit (device-model.md section 5)', () => {
  it.each([[{ scale: 'percentage', upper: 100, lower: 0 }], [{ scale: 'activePower', upper: 5000, lower: -5000 }]])('accepts %j', (value) => {
    expect(issues(staticLimitSchema, value)).toEqual([]);
  });

  it.each([
    ['an upper equal to the lower', { upper: 50, lower: 50 }, 'upper', validationMessages.staticLimit],
    ['an upper below the lower', { upper: 10, lower: 50 }, 'upper', validationMessages.staticLimit],
    ['an unknown scale', { scale: 'kW', upper: 10, lower: 0 }, 'scale', 'scale must be one of the following values: percentage, activePower'],
  ])('refuses %s', (_name, value, path, message) => {
    expect(issues(staticLimitSchema, value)).toEqual([{ path, message }]);
  });
});

describe('limit pairs (device-model.md section 5)', () => {
  it.each([
    ['both positive', { consumption: 1000, feedIn: 500 }],
    ['a negative consumption within the feed-in limit', { consumption: -500, feedIn: 500 }],
    ['a negative feed-in within the consumption limit', { consumption: 800, feedIn: -800 }],
    ['one side unlimited', { consumption: null, feedIn: -100 }],
  ])('accepts %s', (_name, value) => {
    expect(issues(limitPairSchema, value)).toEqual([]);
  });

  it.each([
    ['an inverted consumption above the feed-in limit', { consumption: -600, feedIn: 500 }],
    ['an inverted feed-in above the consumption limit', { consumption: 100, feedIn: -101 }],
  ])('refuses %s', (_name, value) => {
    expect(issues(limitPairSchema, value)).toEqual([{ path: '', message: validationMessages.invertedLimits }]);
  });

  it('defaults to no limits, monitored', () => {
    expect(limitPairSchema.cast({})).toEqual({ consumption: null, feedIn: null, monitored: true });
  });
});

describe('uniqueness and records (device-model.md section 5)', () => {
  const names = uniqueBy(
    yup.array(yup.object({ name: yup.string() })),
    validationMessages.temperatureNamesUnique,
    (entry) => (entry as { name?: string }).name,
    'name',
  );

  it.each([
    ['distinct names', [{ name: 'a' }, { name: 'b' }], []],
    ['entries without the key', [{}, {}], []],
    ['a repeated name', [{ name: 'a' }, { name: 'b' }, { name: 'a' }], [{ path: '[2].name', message: validationMessages.temperatureNamesUnique }]],
  ])('%s', (_name, value, expected) => {
    expect(issues(names, value)).toEqual(expected);
  });

  const record = nonEmptyRecord(yup.number().integer().required());
  it.each([
    ['a record with an entry', { a: 1 }, []],
    ['an empty record', {}, [{ path: '', message: validationMessages.recordNotEmpty }]],
    ['a record with a bad entry', { a: 1.5 }, [{ path: 'a', message: 'a must be an integer' }]],
  ])('%s', (_name, value, expected) => {
    expect(issues(record, value)).toEqual(expected);
  });
});

describe('tagged unions', () => {
  const union = taggedUnion({ a: yup.object({ type: yup.string().required(), x: yup.number().required() }).exact() });
  it.each([
    ['a known tag', { type: 'a', x: 1 }, []],
    ['an unknown tag', { type: 'b' }, [{ path: 'type', message: 'type must be one of the following values: a' }]],
    ['no object', 'a', [{ path: 'type', message: 'type must be one of the following values: a' }]],
  ])('%s', (_name, value, expected) => {
    expect(issues(union, value)).toEqual(expected);
  });
});
