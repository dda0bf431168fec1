import {
  centsOfEuro,
  chargeDraftSchema,
  chargeInputOf,
  emptyChargeDraft,
  emptyLegalEntityDraft,
  legalEntityDraftSchema,
  pricingDraftOf,
  pricingDraftSchema,
  pricingOfDraft,
  rateField,
  subscriptionDraftOf,
  subscriptionOfDraft,
} from './billing-form';

/** The messages a schema answers for `value`, by path. */
function issuesOf(schema: { validateSync(value: unknown, options: object): unknown }, value: unknown): Record<string, string> {
  try {
    schema.validateSync(value, { abortEarly: false });
    return {};
  } catch (error) {
    const inner = (error as { inner: { path?: string; message: string }[] }).inner;
    return Object.fromEntries(inner.map((issue) => [issue.path ?? '', issue.message]));
  }
}

describe('an amount in euro', () => {
  it.each([
    ['12,50', 1250],
    ['12.5', 1250],
    ['-3,05', -305],
    ['1234', 123_400],
    [' 0,01 ', 1],
  ])('%s is %i cents', (text, cents) => {
    expect(centsOfEuro(text)).toBe(cents);
  });

  it.each(['', '1.234,56', '12,345', 'twelve', '1e3'])('%j is no amount', (text) => {
    expect(centsOfEuro(text)).toBeNull();
  });

  it('goes to the server in cents, with the ledger account as GraphQL names it and no billableAt when empty', () => {
    const draft = { ...emptyChargeDraft, description: ' Gateway ', amount: '99,99', ledgerAccount: 'consultancy' as const };
    expect(chargeInputOf(draft, 'o7', 'd7')).toEqual({
      organizationHashId: 'o7',
      deviceHashId: 'd7',
      source: 'manual',
      description: 'Gateway',
      charge: 9999,
      ledgerAccount: 'CONSULTANCY',
      billableAt: null,
    });
  });

  it('is refused with a message when it is no amount, zero, or above ten million euro', () => {
    const base = { ...emptyChargeDraft, description: 'Gateway' };
    expect(issuesOf(chargeDraftSchema, { ...base, amount: '12,345' })).toEqual({ amount: 'An amount in euro, such as 12,50 (negative credits)' });
    expect(issuesOf(chargeDraftSchema, { ...base, amount: '0' })).toEqual({ amount: 'At most ten million euro either way, and not zero' });
    expect(issuesOf(chargeDraftSchema, { ...base, amount: '10000000,01' })).toEqual({ amount: 'At most ten million euro either way, and not zero' });
    expect(issuesOf(chargeDraftSchema, { ...base, description: ' ', amount: '5' })).toEqual({ description: 'Give a description' });
  });
});

describe('the pricing form', () => {
  const draft = pricingDraftOf(null);

  it('starts from usage at the defaults: no rates of its own, the default tiers', () => {
    expect(draft.type).toBe('usage');
    expect(Object.values(draft.rates).every((rate) => rate === '')).toBe(true);
    expect(draft.tiers).toEqual([]);
    expect(pricingOfDraft(draft)).toEqual({ type: 'usage', rates: {}, expiresAt: null });
  });

  it('refuses a tier of volume 0 and a negative discount with the contract’s messages', () => {
    const tiers = [
      { volume: '0', discount: '5' },
      { volume: '100', discount: '-1' },
      { volume: '200', discount: '101' },
    ];
    expect(issuesOf(pricingDraftSchema, { ...draft, tiers })).toEqual({
      'tiers[0].volume': 'Tier volume must be positive',
      'tiers[1].discount': 'Tier discount must not be negative',
      'tiers[2].discount': 'Tier discount is a percentage, at most 100',
    });
  });

  it('refuses a negative rate, and keeps rate keys with dots as form fields of their own', () => {
    const rates = { ...draft.rates, [rateField('asset.solar')]: '-2' };
    expect(issuesOf(pricingDraftSchema, { ...draft, rates })).toEqual({ 'rates.asset_solar': 'A rate must not be negative' });
  });

  it('sends its own rates and tiers, and legacy alone', () => {
    const usage = {
      ...draft,
      rates: { ...draft.rates, [rateField('asset.solar')]: '20', [rateField('cellular')]: '1,5' },
      tiers: [{ volume: '100', discount: '2,5' }],
    };
    expect(pricingOfDraft(usage)).toEqual({
      type: 'usage',
      rates: { 'asset.solar': 20, cellular: 1.5 },
      tiers: [{ volume: 100, discount: 2.5 }],
      expiresAt: null,
    });
    expect(pricingDraftOf(pricingOfDraft(usage)).rates[rateField('cellular')]).toBe('1.5');
    expect(pricingOfDraft({ ...usage, type: 'legacy' })).toEqual({ type: 'legacy' });
  });
});

describe('the legal-entity form', () => {
  it('asks a German company for its tax number with the server’s message, and not a Dutch one', () => {
    const german = { ...emptyLegalEntityDraft, companyName: 'Sonnen GmbH', country: 'de' };
    expect(issuesOf(legalEntityDraftSchema, german)).toEqual({ taxNumber: 'A tax number is required for EU countries other than the Netherlands.' });
    expect(issuesOf(legalEntityDraftSchema, { ...german, country: 'NL' })).toEqual({});
    expect(issuesOf(legalEntityDraftSchema, { ...german, country: 'CH' })).toEqual({});
  });

  it('takes a Moneybird contact id alone, and refuses an unknown country code', () => {
    expect(issuesOf(legalEntityDraftSchema, { ...emptyLegalEntityDraft, accountingContactId: '4242' })).toEqual({});
    expect(issuesOf(legalEntityDraftSchema, { ...emptyLegalEntityDraft, companyName: 'X', country: 'XX' })).toEqual({
      country: 'The country must be an ISO 3166-1 alpha-2 code.',
    });
    expect(issuesOf(legalEntityDraftSchema, emptyLegalEntityDraft)).toEqual({
      companyName: 'Give the company name, or a Moneybird contact id',
      country: 'Give the country (two letters, such as NL), or a Moneybird contact id',
    });
  });
});

describe('the subscription form', () => {
  it('reads and writes a subscription with terms after its runtime', () => {
    const subscription = {
      usage: true,
      chargePeriod: 3,
      runtime: 12,
      afterExpiration: { usage: false, chargePeriod: 1, runtime: 1 },
      startAt: '2026-01-01T00:00:00.000Z',
    };
    expect(subscriptionOfDraft(subscriptionDraftOf(subscription))).toEqual(subscription);
  });

  it("starts a device without a subscription from its organisation's subscription defaults, and a device with one from its own terms", () => {
    const defaults = { chargePeriod: 3, runtime: 24 };
    expect(subscriptionDraftOf(null, defaults)).toMatchObject({ usage: true, chargePeriod: '3', runtime: '24' });
    expect(subscriptionDraftOf(null, null)).toMatchObject({ chargePeriod: '1', runtime: '12' });
    const own = { usage: false, chargePeriod: 6, runtime: 36, afterExpiration: null, startAt: '2026-01-01T00:00:00.000Z' };
    expect(subscriptionDraftOf(own, defaults)).toMatchObject({ usage: false, chargePeriod: '6', runtime: '36' });
  });
});
