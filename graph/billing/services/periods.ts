// Subscription periods (docs/billing.md, "Subscriptions and periods"): calendar months from
// startAt, in periods of chargePeriod months; after runtime months the terms of
// afterExpiration (or the same terms) apply, their own runtime renewing them. All UTC.
import type { Subscription } from '../../../contracts/fleet';

/** The terms a span of time is billed under. */
export interface Terms {
  usage: boolean;
  chargePeriod: number;
  runtime: number;
}

/** A subscription as the devices table keeps it (startAt as ISO 8601) or as the contract gives it. */
export type StoredSubscription = Terms & { afterExpiration?: Terms | null; startAt: string | Date };

export interface Period {
  from: Date;
  /** Exclusive: the start of the next period. */
  to: Date;
  /** Calendar months in the period: chargePeriod, or fewer where the runtime ends first. */
  months: number;
  usage: boolean;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** `months` calendar months after `anchor`, the day kept or, in a shorter month, its last day; the time of day kept. */
export function addMonths(anchor: Date, months: number): Date {
  const total = anchor.getUTCMonth() + months;
  const year = anchor.getUTCFullYear() + Math.floor(total / 12);
  const month = ((total % 12) + 12) % 12;
  const day = Math.min(anchor.getUTCDate(), daysInMonth(year, month));
  return new Date(Date.UTC(year, month, day, anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds(), anchor.getUTCMilliseconds()));
}

/** A stored subscription as the contract's shape, or null when it is not one. */
export function readSubscription(value: Record<string, unknown> | Subscription | null): StoredSubscription | null {
  if (!value) {
    return null;
  }
  const { usage, chargePeriod, runtime, startAt, afterExpiration } = value as Record<string, unknown>;
  const isTerms = (terms: unknown): terms is Terms => {
    const { usage: u, chargePeriod: c, runtime: r } = (terms ?? {}) as Record<string, unknown>;
    return typeof u === 'boolean' && Number.isInteger(c) && (c as number) >= 1 && Number.isInteger(r) && (r as number) >= 1;
  };
  const start = startAt instanceof Date ? startAt : typeof startAt === 'string' ? new Date(startAt) : null;
  if (!isTerms({ usage, chargePeriod, runtime }) || !start || Number.isNaN(start.getTime())) {
    return null;
  }
  return {
    usage: usage as boolean,
    chargePeriod: chargePeriod as number,
    runtime: runtime as number,
    afterExpiration: isTerms(afterExpiration) ? afterExpiration : null,
    startAt: start,
  };
}

/** Every period of a subscription in order, without end. */
export function* periodsOf(subscription: StoredSubscription): Generator<Period> {
  const startAt = new Date(subscription.startAt);
  let phaseStart = 0;
  let terms: Terms = subscription;
  for (;;) {
    for (let offset = 0; offset < terms.runtime; offset += terms.chargePeriod) {
      const end = Math.min(offset + terms.chargePeriod, terms.runtime);
      yield {
        from: addMonths(startAt, phaseStart + offset),
        to: addMonths(startAt, phaseStart + end),
        months: end - offset,
        usage: terms.usage,
      };
    }
    phaseStart += terms.runtime;
    terms = subscription.afterExpiration ?? subscription;
  }
}

/** The period that holds `at`, or null before the subscription starts. */
export function periodAt(subscription: StoredSubscription, at: Date): Period | null {
  if (at.getTime() < new Date(subscription.startAt).getTime()) {
    return null;
  }
  for (const period of periodsOf(subscription)) {
    if (period.to.getTime() > at.getTime()) {
      return period;
    }
  }
  return null;
}

/** The periods that start at or after `after` (from the start when null) and no later than `until`, in order. */
export function periodsStarting(subscription: StoredSubscription, after: Date | null, until: Date): Period[] {
  const found: Period[] = [];
  for (const period of periodsOf(subscription)) {
    if (period.from.getTime() > until.getTime()) {
      break;
    }
    if (after === null || period.from.getTime() >= after.getTime()) {
      found.push(period);
    }
  }
  return found;
}
