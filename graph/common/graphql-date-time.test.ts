import { GraphQLDateTimeISO as generalDateTimeISO } from 'graphql-scalars';
import { SeededRandom } from '../../edge/simulators/plant/random';
import { GraphQLDateTimeISO, isCanonicalIsoTime } from './graphql-date-time';

/** What a scalar's serialize answers for `value`: its value, or the message it throws. */
function outcome(serialize: (value: unknown) => unknown, value: unknown): { value: unknown } | { error: string } {
  try {
    return { value: serialize(value) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe('GraphQLDateTimeISO', () => {
  it('is graphql-scalars’ DateTimeISO in name, description and input parsing', () => {
    const ours = GraphQLDateTimeISO.toConfig();
    const general = generalDateTimeISO.toConfig();
    expect([ours.name, ours.description, ours.specifiedByURL]).toEqual([general.name, general.description, general.specifiedByURL]);
    expect(ours.parseValue).toBe(general.parseValue);
    expect(ours.parseLiteral).toBe(general.parseLiteral);
  });

  it('answers as graphql-scalars does for random dates, as strings and as Dates', () => {
    const random = new SeededRandom(2811);
    for (let index = 0; index < 20_000; index += 1) {
      const date = new Date(Math.floor(Date.UTC(1, 0, 1) + random.next() * (Date.UTC(9999, 11, 31) - Date.UTC(1, 0, 1))));
      const text = date.toISOString();
      expect(isCanonicalIsoTime(text)).toBe(true);
      for (const value of [text, date]) {
        const ours = outcome((v) => GraphQLDateTimeISO.serialize(v), value);
        const general = outcome((v) => generalDateTimeISO.serialize(v), value);
        if (JSON.stringify(ours) !== JSON.stringify(general)) {
          throw new Error(`${String(value)}: ${JSON.stringify(ours)} against ${JSON.stringify(general)}`);
        }
      }
    }
  });

  it('answers as graphql-scalars does for every other form, the refused ones included', () => {
    const values: unknown[] = [
      '0000-01-01T00:00:00.000Z',
      '2024-02-29T23:59:59.999Z',
      '2026-02-29T12:00:00.000Z',
      '2026-02-30T12:00:00.000Z',
      '2026-04-31T12:00:00.000Z',
      '2026-11-28T24:00:00.000Z',
      '2026-11-28T17:60:00.000Z',
      '2026-11-28T17:03:60.000Z',
      '2026-13-28T17:03:04.000Z',
      '2026-00-28T17:03:04.000Z',
      '2026-11-00T17:03:04.000Z',
      '2026-11-28T17:03:04Z',
      '2026-11-28T17:03:04.1Z',
      '2026-11-28T17:03:04.123456789Z',
      '2026-11-28T17:03:04.123+01:00',
      '2026-11-28t17:03:04.123z',
      '2026-11-28 17:03:04.123Z',
      '2026-11-28T17:03:04.12aZ',
      '+012026-11-28T17:03:04.123Z',
      '2026-11-28',
      '',
      'not a date',
      new Date(NaN),
      new Date(Date.UTC(-1, 0, 1)),
      new Date(Date.UTC(10_000, 0, 1)),
      new Date(8_640_000_000_000_000),
      0,
      1_764_349_384_123,
      null,
      undefined,
      true,
      {},
      ['2026-11-28T17:03:04.123Z'],
    ];
    for (const value of values) {
      expect([value, outcome((v) => GraphQLDateTimeISO.serialize(v), value)]).toEqual([value, outcome((v) => generalDateTimeISO.serialize(v), value)]);
    }
  });
});
