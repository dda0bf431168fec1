// Prices (docs/billing.md, "Prices"): a device's monthly price from its units at the
// organisation's pricing, the tier discount of the organisation's unit count, and charges in
// euro cents rounded half up. No database here.
import type { BillingUnits } from '../../../contracts/billing';
import { defaultDiscountAboveTiers, defaultMonthlyRates, defaultTiers, type Pricing, type RateKey } from '../../../contracts/pricing';

/** Pricing as it applies at one moment: legacy, or usage with every rate and the tiers settled. */
export type EffectivePricing =
  { type: 'legacy' } | { type: 'usage'; rates: Record<RateKey, number>; tiers: readonly { volume: number; discount: number }[]; discountAboveTiers: number };

const defaultUsage: EffectivePricing = { type: 'usage', rates: { ...defaultMonthlyRates }, tiers: defaultTiers, discountAboveTiers: defaultDiscountAboveTiers };

/**
 * The pricing of an organisation at `at`: none is usage at the defaults; usage past its
 * expiresAt falls back to the default rates and tiers; own tiers keep the last tier's discount
 * above every tier.
 */
export function effectivePricing(pricing: Pricing | null, at: Date): EffectivePricing {
  if (!pricing) {
    return defaultUsage;
  }
  if (pricing.type === 'legacy') {
    return { type: 'legacy' };
  }
  if (pricing.expiresAt && new Date(pricing.expiresAt).getTime() <= at.getTime()) {
    return defaultUsage;
  }
  const rates = { ...defaultMonthlyRates } as Record<RateKey, number>;
  for (const [key, rate] of Object.entries(pricing.rates ?? {}) as [RateKey, number | undefined][]) {
    if (rate !== undefined && rate !== null) {
      rates[key] = rate;
    }
  }
  const ownTiers = pricing.tiers && pricing.tiers.length > 0 ? [...pricing.tiers].sort((a, b) => a.volume - b.volume) : null;
  if (!ownTiers) {
    return { type: 'usage', rates, tiers: defaultTiers, discountAboveTiers: defaultDiscountAboveTiers };
  }
  return { type: 'usage', rates, tiers: ownTiers, discountAboveTiers: ownTiers[ownTiers.length - 1]?.discount ?? 0 };
}

/** Euro a month for `units` before any discount, to four decimals (as charges keep it); 0 under legacy pricing. */
export function monthlyPrice(units: BillingUnits, pricing: EffectivePricing): number {
  if (pricing.type === 'legacy') {
    return 0;
  }
  const sum = (Object.entries(units) as [RateKey, number][]).reduce((total, [key, count]) => total + count * (pricing.rates[key] ?? 0), 0);
  return Math.round(sum * 10_000) / 10_000;
}

/** The tier discount in percent that `unitCount` reaches: the first tier whose volume it does not exceed. */
export function tierDiscount(unitCount: number, pricing: EffectivePricing): number {
  if (pricing.type === 'legacy') {
    return 0;
  }
  const tier = pricing.tiers.find((candidate) => unitCount <= candidate.volume);
  return tier ? tier.discount : pricing.discountAboveTiers;
}

/** Rounds half up (away from zero for negatives), forgiving the binary noise of decimal rates. */
export function roundHalfUp(value: number): number {
  const magnitude = Math.floor(Math.abs(value) + 0.5 + 1e-9);
  return value < 0 ? -magnitude : magnitude;
}

/**
 * A subscription charge in euro cents: monthly price × months × (1 − discount) × fraction (the
 * share of the period left, for a change within it), rounded half up.
 */
export function chargeCents(monthlyPriceEuro: number, months: number, discountPercent: number, fraction = 1): number {
  return roundHalfUp(monthlyPriceEuro * 100 * months * ((100 - discountPercent) / 100) * fraction);
}

/** Euro after the discount, to the cent (for views). */
export function discounted(monthlyPriceEuro: number, discountPercent: number): number {
  return roundHalfUp(monthlyPriceEuro * (100 - discountPercent)) / 100;
}
