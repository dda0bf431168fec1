import { types as pgliteTypes } from '@electric-sql/pglite';
import pg from 'pg';
import { pgliteParsers } from '../../server/database-parsers';
import { SeededRandom } from '../../edge/simulators/plant/random';
import { isoTime, timestamptzMillis, timestamptzParser } from './timestamps';

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * What PostgreSQL prints for a timestamptz in the ISO DateStyle with the session's zone `offsetSeconds`
 * east of UTC: the wall clock there, the microseconds without trailing zeros, and the zone as
 * ±HH, ±HH:MM or ±HH:MM:SS. The instant is `epochMillis` and `micros` (0 to 999) more.
 */
function postgresText(epochMillis: number, micros: number, offsetSeconds: number): string {
  const wall = new Date(epochMillis + offsetSeconds * 1000);
  const microsOfSecond = wall.getUTCMilliseconds() * 1000 + micros;
  const fraction = microsOfSecond === 0 ? '' : `.${pad(microsOfSecond, 6).replace(/0+$/, '')}`;
  const sign = offsetSeconds < 0 ? '-' : '+';
  const magnitude = Math.abs(offsetSeconds);
  const [hours, minutes, seconds] = [Math.floor(magnitude / 3600), Math.floor((magnitude % 3600) / 60), magnitude % 60];
  const zone = `${sign}${pad(hours)}${minutes || seconds ? `:${pad(minutes)}` : ''}${seconds ? `:${pad(seconds)}` : ''}`;
  return (
    `${pad(wall.getUTCFullYear(), 4)}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())} ` +
    `${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}${fraction}${zone}`
  );
}

describe('timestamps', () => {
  describe('timestamptzMillis', () => {
    it('reads what PostgreSQL prints, cut to the millisecond as postgres-date cuts it', () => {
      const random = new SeededRandom(20261128);
      const offsets = [0, 3600, -3600, 19_800, -12_600, 20_700, 50_400, -43_200, 1172, -17_762, 3599];
      let checked = 0;
      for (let index = 0; index < 100_000; index += 1) {
        const epochMillis = Math.floor(Date.UTC(101, 0, 2) + random.next() * (Date.UTC(9998, 0, 1) - Date.UTC(101, 0, 2)));
        const text = postgresText(epochMillis, Math.floor(random.next() * 1000), offsets[index % offsets.length] as number);
        if (timestamptzMillis(text) !== epochMillis) {
          throw new Error(`${text}: ${timestamptzMillis(text)} against ${epochMillis}`);
        }
        checked += 1;
      }
      expect(checked).toBe(100_000);
    });

    it('reads the edges of the day, the leap days and every length of fraction', () => {
      const at = (...parts: [number, number, number, number?, number?, number?, number?]) => Date.UTC(...parts);
      const cases: [number, number, number][] = [
        [0, 0, 0],
        [-1, 999, 0],
        [at(2000, 1, 29, 12, 0, 0, 500), 0, 0],
        [at(2024, 1, 29, 23, 59, 59, 990), 0, 3600],
        [at(1900, 2, 1, 0, 0, 0, 1), 0, -1172],
        [at(2026, 10, 28, 17, 3, 4, 100), 0, 19_800],
        [at(2026, 10, 28, 17, 3, 4, 120), 0, -12_600],
        [at(2026, 10, 28, 17, 3, 4, 123), 0, 50_400],
        [at(2026, 10, 28, 17, 3, 4, 123), 400, -43_200],
        [at(2026, 10, 28, 17, 3, 4, 123), 450, 1],
        [at(2026, 10, 28, 17, 3, 4, 123), 456, 0],
        [at(2026, 11, 31, 23, 59, 59, 999), 999, -3600],
        [at(9999, 11, 31, 23, 59, 59, 999), 999, 0],
      ];
      for (const [epochMillis, micros, offset] of cases) {
        const text = postgresText(epochMillis, micros, offset);
        expect([text, timestamptzMillis(text)]).toEqual([text, epochMillis]);
      }
      expect(timestamptzMillis('0100-01-01 00:00:00+00')).toBe(new Date('0100-01-01T00:00:00Z').getTime());
      expect(timestamptzMillis('1900-03-01 00:00:00.001-00:19:32')).toBe(Date.UTC(1900, 2, 1, 0, 19, 32, 1));
    });

    it('leaves every other form to the general parser', () => {
      for (const text of [
        'infinity',
        '-infinity',
        '2026-11-28 17:03:04+00 BC',
        '0099-12-31 23:59:59+00',
        '0050-06-01 00:00:00+00',
        '12026-11-28 17:03:04+00',
        '2026-11-28T17:03:04Z',
        '2026-11-28 17:03:04Z',
        '2026-11-28 17:03:04',
        '2026-11-28 17:03:04.+00',
        '2026-11-28 17:03:04.1234567+00',
        '2026-11-28 17:03:04+5',
        '2026-11-28 17:03:04+05:3',
        '2026-11-28 17:03:04+05:30:',
        '2026-11-28 17:03:04+05-30',
        '2026-11-28 24:00:00+00',
        '2026-13-28 17:03:04+00',
        '2026-00-28 17:03:04+00',
        '2026-11-00 17:03:04+00',
        '2026-11-28 17:60:04+00',
        '2026-11-28 17:03:60+00',
        '2026-1a-28 17:03:04+00',
        'Sat Nov 28 17:03:04 2026 UTC',
        '28.11.2026 17:03:04+00',
        '',
      ]) {
        expect([text, timestamptzMillis(text)]).toEqual([text, NaN]);
      }
    });
  });

  describe('timestamptzParser', () => {
    it('gives a Date for the common form and the general parser’s answer for any other', () => {
      const parse = timestamptzParser((text) => `general: ${text}`);
      expect(parse('2026-11-28 17:03:04.123456+01')).toEqual(new Date('2026-11-28T16:03:04.123Z'));
      expect(parse('infinity')).toBe('general: infinity');
      expect(parse('0050-06-01 00:00:00+00')).toBe('general: 0050-06-01 00:00:00+00');
    });

    it('is the one parser for node-postgres and PGlite, reading what PGlite’s own misreads', () => {
      const parse = pgliteParsers[pg.types.builtins.TIMESTAMPTZ] as (text: string) => unknown;
      expect(pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ)).toBe(parse);
      expect(parse('2026-11-28 17:03:04.123456+00')).toEqual(new Date('2026-11-28T17:03:04.123Z'));
      expect(parse('infinity')).toBe(Infinity);
      expect(parse('-infinity')).toBe(-Infinity);
      // A zone with seconds (local mean time before 1900) and a year below 100, which `new Date(text)` misreads.
      const own = pgliteTypes.parsers[pg.types.builtins.TIMESTAMPTZ] as (text: string) => Date;
      expect(parse('1900-01-01 05:21:10.001+05:21:10')).toEqual(new Date('1900-01-01T00:00:00.001Z'));
      expect(own('1900-01-01 05:21:10.001+05:21:10')).not.toEqual(new Date('1900-01-01T00:00:00.001Z'));
      expect(parse('0099-06-01 12:00:00+00')).toEqual(new Date('0099-06-01T12:00:00Z'));
      expect(own('0099-06-01 12:00:00+00')).not.toEqual(new Date('0099-06-01T12:00:00Z'));
    });
  });

  describe('isoTime', () => {
    it('writes what toISOString writes, character for character', () => {
      const random = new SeededRandom(1128);
      const from = Date.UTC(1000, 0, 1);
      const to = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
      for (let index = 0; index < 200_000; index += 1) {
        const date = new Date(Math.floor(from + random.next() * (to - from)));
        const written = isoTime(date);
        if (written !== date.toISOString()) {
          throw new Error(`${date.getTime()}: ${written} against ${date.toISOString()}`);
        }
      }
      const edges = [from, from - 1, to, to + 1, 0, -1, 1, 951_782_400_000, 951_868_799_999, 1_709_164_800_000, Date.UTC(1900, 2, 1) - 1];
      for (const millis of [...edges, -8_640_000_000_000_000, 8_640_000_000_000_000, Date.UTC(999, 11, 31), Date.UTC(10_000, 0, 1)]) {
        expect(isoTime(new Date(millis))).toBe(new Date(millis).toISOString());
      }
    });

    it('refuses an invalid date as toISOString does', () => {
      expect(() => isoTime(new Date(NaN))).toThrow(RangeError);
    });
  });
});
