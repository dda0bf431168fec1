import * as yup from 'yup';

/**
 * Bounds of the numbers the contracts accept, where the domain names none tighter (issue 14,
 * item 9; docs/errors.md, "Numbers"). Without one, 1e308 is a valid runtime and 2^53 + 1 is
 * quietly stored as 2^53.
 */
export const numberLimits = {
  /** Largest whole number JavaScript holds exactly (2^53 - 1); ids and counts stay within it. */
  integerMax: Number.MAX_SAFE_INTEGER,
  /** Largest magnitude of a measured or set quantity (power in W, energy, capacity, money): 10^15, a petawatt. */
  quantityMax: 1e15,
  /** Longest delay or timeout the gateway takes, in milliseconds: one hour. */
  durationMsMax: 3_600_000,
  /** Longest interval the gateway takes, in seconds: one day. */
  durationSecondsMax: 86_400,
  /** Highest index of an asset or controller in a config: a config holds at most this many plus one. */
  indexMax: 9_999,
  /** Longest subscription runtime or charge period, in months: 100 years. */
  subscriptionMonthsMax: 1_200,
} as const;

/** A whole number, within JavaScript's exact integers unless `.min`/`.max` narrow it. */
export function integer(): yup.NumberSchema<number | undefined> {
  return yup.number().integer().min(-numberLimits.integerMax).max(numberLimits.integerMax);
}

/** A measured or set quantity, within ±10^15 unless `.min`/`.max` narrow it. */
export function quantity(): yup.NumberSchema<number | undefined> {
  return yup.number().min(-numberLimits.quantityMax).max(numberLimits.quantityMax);
}

/** An index into a config's assets or controllers. */
export function configIndex(): yup.NumberSchema<number | undefined> {
  return integer().min(0).max(numberLimits.indexMax);
}
