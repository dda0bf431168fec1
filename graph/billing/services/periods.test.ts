import { addMonths, periodAt, periodsOf, periodsStarting, readSubscription, type StoredSubscription } from './periods';

const iso = (date: Date) => date.toISOString();
const first = (subscription: StoredSubscription, count: number) => {
  const periods = [];
  for (const period of periodsOf(subscription)) {
    periods.push({ from: iso(period.from), to: iso(period.to), months: period.months, usage: period.usage });
    if (periods.length === count) {
      break;
    }
  }
  return periods;
};

describe('subscription periods (docs/billing.md, "Subscriptions and periods")', () => {
  it('adds calendar months, keeping the day or the last day of a shorter month', () => {
    const jan31 = new Date('2026-01-31T10:00:00Z');
    expect(iso(addMonths(jan31, 1))).toBe('2026-02-28T10:00:00.000Z');
    expect(iso(addMonths(new Date('2028-01-31T00:00:00Z'), 1))).toBe('2028-02-29T00:00:00.000Z');
    expect(iso(addMonths(jan31, 2))).toBe('2026-03-31T10:00:00.000Z');
    expect(iso(addMonths(jan31, 13))).toBe('2027-02-28T10:00:00.000Z');
    expect(iso(addMonths(new Date('2026-12-15T00:00:00Z'), 1))).toBe('2027-01-15T00:00:00.000Z');
  });

  it('a period from 31 January ends on the last day of February, and the next runs to 31 March', () => {
    const subscription = { usage: true, chargePeriod: 1, runtime: 12, startAt: '2026-01-31T00:00:00Z' };
    expect(first(subscription, 3).map(({ from, to }) => [from, to])).toEqual([
      ['2026-01-31T00:00:00.000Z', '2026-02-28T00:00:00.000Z'],
      ['2026-02-28T00:00:00.000Z', '2026-03-31T00:00:00.000Z'],
      ['2026-03-31T00:00:00.000Z', '2026-04-30T00:00:00.000Z'],
    ]);
  });

  it('a period from 29 February of a leap year is a month; a year later it starts on 28 February', () => {
    const subscription = { usage: true, chargePeriod: 12, runtime: 24, startAt: '2028-02-29T00:00:00Z' };
    expect(first(subscription, 2).map(({ from, to }) => [from, to])).toEqual([
      ['2028-02-29T00:00:00.000Z', '2029-02-28T00:00:00.000Z'],
      ['2029-02-28T00:00:00.000Z', '2030-02-28T00:00:00.000Z'],
    ]);
  });

  it('the same terms renew after the runtime; a runtime not a multiple of the charge period cuts the last period short', () => {
    const subscription = { usage: true, chargePeriod: 3, runtime: 4, startAt: '2026-01-01T00:00:00Z' };
    expect(first(subscription, 4)).toEqual([
      { from: '2026-01-01T00:00:00.000Z', to: '2026-04-01T00:00:00.000Z', months: 3, usage: true },
      { from: '2026-04-01T00:00:00.000Z', to: '2026-05-01T00:00:00.000Z', months: 1, usage: true },
      { from: '2026-05-01T00:00:00.000Z', to: '2026-08-01T00:00:00.000Z', months: 3, usage: true },
      { from: '2026-08-01T00:00:00.000Z', to: '2026-09-01T00:00:00.000Z', months: 1, usage: true },
    ]);
  });

  it('after the runtime the terms of afterExpiration apply and renew', () => {
    const subscription = {
      usage: false,
      chargePeriod: 12,
      runtime: 12,
      afterExpiration: { usage: true, chargePeriod: 1, runtime: 2 },
      startAt: '2026-01-15T00:00:00Z',
    };
    expect(first(subscription, 4)).toEqual([
      { from: '2026-01-15T00:00:00.000Z', to: '2027-01-15T00:00:00.000Z', months: 12, usage: false },
      { from: '2027-01-15T00:00:00.000Z', to: '2027-02-15T00:00:00.000Z', months: 1, usage: true },
      { from: '2027-02-15T00:00:00.000Z', to: '2027-03-15T00:00:00.000Z', months: 1, usage: true },
      { from: '2027-03-15T00:00:00.000Z', to: '2027-04-15T00:00:00.000Z', months: 1, usage: true },
    ]);
  });

  it('finds the period holding a moment, none before the start', () => {
    const subscription = { usage: true, chargePeriod: 1, runtime: 12, startAt: '2026-01-31T00:00:00Z' };
    expect(periodAt(subscription, new Date('2026-01-30T23:59:59Z'))).toBeNull();
    expect(iso(periodAt(subscription, new Date('2026-02-28T00:00:00Z'))?.from ?? new Date(0))).toBe('2026-02-28T00:00:00.000Z');
    expect(iso(periodAt(subscription, new Date('2026-02-27T23:59:59Z'))?.from ?? new Date(0))).toBe('2026-01-31T00:00:00.000Z');
  });

  it('lists the periods to catch up on: those starting from a moment up to now', () => {
    const subscription = { usage: true, chargePeriod: 1, runtime: 12, startAt: '2026-01-01T00:00:00Z' };
    const missed = periodsStarting(subscription, new Date('2026-02-01T00:00:00Z'), new Date('2026-04-01T00:00:00Z'));
    expect(missed.map((period) => iso(period.from))).toEqual(['2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z']);
    expect(periodsStarting(subscription, null, new Date('2025-12-31T00:00:00Z'))).toEqual([]);
  });

  it('reads a stored subscription, refusing what is not one', () => {
    expect(readSubscription({ usage: true, chargePeriod: 1, runtime: 1, startAt: '2026-01-01T00:00:00Z', afterExpiration: null })?.startAt).toEqual(
      new Date('2026-01-01T00:00:00Z'),
    );
    expect(readSubscription({ usage: true, chargePeriod: 0, runtime: 1, startAt: '2026-01-01T00:00:00Z' })).toBeNull();
    expect(readSubscription({ usage: true, chargePeriod: 1, runtime: 1, startAt: 'never' })).toBeNull();
    expect(readSubscription(null)).toBeNull();
  });
});
