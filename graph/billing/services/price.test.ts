import { chargeCents, effectivePricing, monthlyPrice, roundHalfUp, tierDiscount } from './price';

const now = new Date('2026-06-15T00:00:00Z');

describe('prices (docs/billing.md, "Prices")', () => {
  it('prices units at the default rates without pricing', () => {
    const pricing = effectivePricing(null, now);
    expect(monthlyPrice({ 'asset.solar': 2, cellular: 1 }, pricing)).toBe(60.11);
  });

  it("takes the organisation's rate where its pricing names one, else the default", () => {
    const pricing = effectivePricing({ type: 'usage', rates: { 'asset.solar': 20 } }, now);
    expect(monthlyPrice({ 'asset.solar': 2, 'asset.wind': 1 }, pricing)).toBe(98.35);
  });

  it('falls back to the default rates and tiers past expiresAt', () => {
    const own = { type: 'usage' as const, rates: { 'asset.solar': 20 }, tiers: [{ volume: 10, discount: 50 }], expiresAt: '2026-06-01T00:00:00Z' };
    const pricing = effectivePricing(own, now);
    expect(monthlyPrice({ 'asset.solar': 1 }, pricing)).toBe(29.18);
    expect(tierDiscount(5, pricing)).toBe(0);
    const before = effectivePricing(own, new Date('2026-05-31T23:59:59Z'));
    expect(monthlyPrice({ 'asset.solar': 1 }, before)).toBe(20);
    expect(tierDiscount(5, before)).toBe(50);
  });

  it('legacy pricing prices nothing and discounts nothing', () => {
    const pricing = effectivePricing({ type: 'legacy' }, now);
    expect(monthlyPrice({ 'asset.solar': 5 }, pricing)).toBe(0);
    expect(tierDiscount(100_000, pricing)).toBe(0);
  });

  it.each([
    [0, 0],
    [375, 0],
    [376, 5],
    [1875, 5],
    [1876, 10],
    [3750, 10],
    [7500, 15],
    [7501, 20],
    [15000, 20],
    [15001, 25],
    [1_000_000, 25],
  ])('the default tiers give %i units %i %%', (count, discount) => {
    expect(tierDiscount(count, effectivePricing(null, now))).toBe(discount);
  });

  it("own tiers apply in volume order and keep the last tier's discount above them", () => {
    const pricing = effectivePricing(
      {
        type: 'usage',
        tiers: [
          { volume: 100, discount: 10 },
          { volume: 10, discount: 0 },
        ],
      },
      now,
    );
    expect(tierDiscount(10, pricing)).toBe(0);
    expect(tierDiscount(11, pricing)).toBe(10);
    expect(tierDiscount(5000, pricing)).toBe(10);
  });

  it('rounds cents half up', () => {
    expect(roundHalfUp(2.5)).toBe(3);
    expect(roundHalfUp(2.4999)).toBe(2);
    expect(roundHalfUp(-2.5)).toBe(-3);
    // 29.18 € is 2917.9999… cents in binary: still 2918.
    expect(chargeCents(29.18, 1, 0)).toBe(2918);
    // 5.84 € × 3 months × 95 % = 16.644 € → 1664 cents; × half a period 832.2 → 832.
    expect(chargeCents(5.84, 3, 5)).toBe(1664);
    expect(chargeCents(5.84, 3, 5, 0.5)).toBe(832);
    // 1.75 € × 0.9 = 157.5 cents → 158.
    expect(chargeCents(1.75, 1, 10)).toBe(158);
  });
});
