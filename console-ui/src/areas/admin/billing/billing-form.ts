import * as yup from 'yup';
import { billingLimits, isCountryCode, ledgerAccounts, taxNumberRequired, type LedgerAccount } from '../../../../../contracts/billing';
import { formatEuro } from '../../../../../contracts/billing-invoice';
import { errorCatalogue } from '../../../../../contracts/errors';
import { defaultMonthlyRates, defaultTiers, pricingSchema, rateKeys, tierSchema, type Pricing, type RateKey } from '../../../../../contracts/pricing';

export { formatEuro };

/** Euro cents of an amount typed in euro ("12,50", "-3.1", "1.234,56" is refused): null when it is no amount. */
export function centsOfEuro(text: string): number | null {
  const normalised = text.trim().replace(',', '.');
  if (!/^-?\d+(\.\d{1,2})?$/.test(normalised)) {
    return null;
  }
  const negative = normalised.startsWith('-');
  const [whole = '0', fraction = ''] = normalised.replace('-', '').split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return negative ? -cents : cents;
}

/** The add-charge dialog's values: the amount as typed, in euro. */
export interface ChargeDraft {
  description: string;
  amount: string;
  ledgerAccount: LedgerAccount;
  source: 'manual' | 'shipment';
  /** datetime-local text; empty: now. */
  billableAt: string;
}

export const emptyChargeDraft: ChargeDraft = { description: '', amount: '', ledgerAccount: 'hardware', source: 'manual', billableAt: '' };

export const chargeDraftSchema = yup.object({
  description: yup.string().trim().required('Give a description').max(billingLimits.chargeDescriptionLength, 'At most 255 characters'),
  amount: yup
    .string()
    .required('Give an amount in euro')
    .test('euro', 'An amount in euro, such as 12,50 (negative credits)', (value) => value === undefined || centsOfEuro(value) !== null)
    .test('range', 'At most ten million euro either way, and not zero', (value) => {
      const cents = value === undefined ? null : centsOfEuro(value);
      return cents === null || (cents !== 0 && Math.abs(cents) <= billingLimits.chargeCentsMax);
    }),
  ledgerAccount: yup.string().oneOf(ledgerAccounts).required(),
  source: yup.string().oneOf(['manual', 'shipment']).required(),
  billableAt: yup.string(),
});

/** A datetime-local value (local time) as ISO 8601, null when empty. */
export function isoOfLocal(value: string): string | null {
  if (value.trim() === '') {
    return null;
  }
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The addBillingCharge input of a draft (the schema has passed). */
export function chargeInputOf(draft: ChargeDraft, organizationHashId: string, deviceHashId: string | null) {
  return {
    organizationHashId,
    deviceHashId,
    source: draft.source,
    description: draft.description.trim(),
    charge: centsOfEuro(draft.amount) ?? 0,
    ledgerAccount: draft.ledgerAccount.toUpperCase() as 'HARDWARE' | 'SAAS' | 'CONSULTANCY',
    billableAt: isoOfLocal(draft.billableAt),
  };
}

/** A rate key as a form field's name: formik reads dots as nesting, so they become underscores. */
export function rateField(key: RateKey): string {
  return key.replace(/\./g, '_');
}

/** The pricing form: text fields as typed, rates by rateField; an empty rate means the default. */
export interface PricingDraft {
  type: 'usage' | 'legacy';
  rates: Record<string, string>;
  /** Empty: the default tiers. */
  tiers: { volume: string; discount: string }[];
  /** datetime-local text; empty: never. */
  expiresAt: string;
}

const emptyRates: Record<string, string> = Object.fromEntries(rateKeys.map((key) => [rateField(key), '']));

function localOfIso(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) {
    return '';
  }
  const date = new Date(iso);
  const offset = date.getTimezoneOffset() * 60_000;
  return new Date(date.getTime() - offset).toISOString().slice(0, 16);
}

export { localOfIso };

/** The form's values for an organisation's pricing (null: usage at the defaults). */
export function pricingDraftOf(pricing: unknown): PricingDraft {
  const value = (pricing ?? { type: 'usage' }) as Partial<Pricing> & { type?: string };
  if (value.type === 'legacy') {
    return { type: 'legacy', rates: { ...emptyRates }, tiers: [], expiresAt: '' };
  }
  const usage = value as { rates?: Partial<Record<RateKey, number>>; tiers?: { volume: number; discount: number }[]; expiresAt?: string | null };
  const rates = { ...emptyRates };
  for (const key of rateKeys) {
    const rate = usage.rates?.[key];
    if (rate !== undefined) {
      rates[rateField(key)] = String(rate);
    }
  }
  return {
    type: 'usage',
    rates,
    tiers: (usage.tiers ?? []).map((tier) => ({ volume: String(tier.volume), discount: String(tier.discount) })),
    expiresAt: localOfIso(usage.expiresAt),
  };
}

const numberText = (message: string) =>
  yup
    .string()
    .trim()
    .test('number', message, (value) => value === undefined || value === '' || Number.isFinite(Number(value.replace(',', '.'))));

/** The pricing form's checks: the tiers as contracts/pricing.ts says (volume > 0, discount >= 0), rates not negative. */
export const pricingDraftSchema = yup.object({
  type: yup.string().oneOf(['usage', 'legacy']).required(),
  rates: yup.object(
    Object.fromEntries(
      rateKeys.map((key) => [
        rateField(key),
        numberText('A rate in euro a month').test(
          'min',
          'A rate must not be negative',
          (value) => value === undefined || value === '' || Number(value.replace(',', '.')) >= 0,
        ),
      ]),
    ),
  ),
  tiers: yup.array(
    yup.object({
      volume: yup
        .string()
        .required('Give a volume')
        .test('volume', 'Tier volume must be positive', (value) => tierSchema.isValidSync({ volume: Number(value), discount: 0 })),
      discount: yup
        .string()
        .required('Give a discount')
        .test('discount', 'Tier discount must not be negative', (value) => Number(value.replace(',', '.')) >= 0)
        .test('max', 'Tier discount is a percentage, at most 100', (value) => Number(value.replace(',', '.')) <= 100),
    }),
  ),
  expiresAt: yup.string(),
});

/** The pricing of a checked draft, as updateOrganization takes it (and pricingSchema accepts). */
export function pricingOfDraft(draft: PricingDraft): Pricing {
  if (draft.type === 'legacy') {
    return { type: 'legacy' };
  }
  const rates: Partial<Record<RateKey, number>> = {};
  for (const key of rateKeys) {
    const text = (draft.rates[rateField(key)] ?? '').trim();
    if (text !== '') {
      rates[key] = Number(text.replace(',', '.'));
    }
  }
  const pricing: Pricing = { type: 'usage', rates, expiresAt: isoOfLocal(draft.expiresAt) };
  if (draft.tiers.length > 0) {
    pricing.tiers = draft.tiers.map((tier) => ({ volume: Number(tier.volume), discount: Number(tier.discount.replace(',', '.')) }));
  }
  pricingSchema.validateSync(pricing);
  return pricing;
}

export { defaultMonthlyRates, defaultTiers, rateKeys };

/** The legal-entity form: from details, or from a Moneybird contact id alone. */
export interface LegalEntityDraft {
  accountingContactId: string;
  companyName: string;
  address1: string;
  address2: string;
  zipcode: string;
  city: string;
  country: string;
  /** Comma- or line-separated. */
  emails: string;
  chamberOfCommerce: string;
  taxNumber: string;
  isOrganizationDefault: boolean;
}

export const emptyLegalEntityDraft: LegalEntityDraft = {
  accountingContactId: '',
  companyName: '',
  address1: '',
  address2: '',
  zipcode: '',
  city: '',
  country: '',
  emails: '',
  chamberOfCommerce: '',
  taxNumber: '',
  isOrganizationDefault: false,
};

export const taxNumberRuleMessage = errorCatalogue.tax_number_required_for_eu_countries.message;
export const countryRuleMessage = errorCatalogue.country_invalid.message;

export function emailsOf(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((email) => email.trim())
    .filter((email) => email !== '');
}

/**
 * The legal-entity form's checks: the company name and country unless a Moneybird contact id is
 * given (whose details then come from Moneybird), the ISO country code, the EU tax-number rule,
 * and the lengths of contracts/billing.ts.
 */
export const legalEntityDraftSchema = yup.object({
  accountingContactId: yup
    .string()
    .trim()
    .matches(/^\d{0,20}$/, 'A Moneybird contact id is digits only'),
  companyName: yup
    .string()
    .trim()
    .max(billingLimits.companyNameLength)
    .when('accountingContactId', {
      is: (id: string | undefined) => (id ?? '').trim() === '',
      then: (schema) => schema.required('Give the company name, or a Moneybird contact id'),
    }),
  country: yup
    .string()
    .trim()
    .test('country', countryRuleMessage, (value) => value === undefined || value === '' || isCountryCode(value.toUpperCase()))
    .when('accountingContactId', {
      is: (id: string | undefined) => (id ?? '').trim() === '',
      then: (schema) => schema.required('Give the country (two letters, such as NL), or a Moneybird contact id'),
    }),
  taxNumber: yup
    .string()
    .trim()
    .max(billingLimits.taxNumberLength, 'At most 64 characters')
    .when(['country', 'accountingContactId'], ([country, contact]: (string | undefined)[], schema) =>
      (contact ?? '').trim() === '' && taxNumberRequired((country ?? '').trim().toUpperCase()) ? schema.required(taxNumberRuleMessage) : schema,
    ),
  chamberOfCommerce: yup.string().trim().max(billingLimits.chamberOfCommerceLength, 'At most 64 characters'),
  emails: yup
    .string()
    .test('emails', 'Give email addresses separated by commas', (value) => emailsOf(value ?? '').every((email) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))),
});

const textOrNull = (text: string) => (text.trim() === '' ? null : text.trim());

/** The create input of a checked draft: a contact id alone sends only what is filled in beside it. */
export function legalEntityInputOf(draft: LegalEntityDraft) {
  const contact = textOrNull(draft.accountingContactId);
  const companyName = textOrNull(draft.companyName);
  const country = textOrNull(draft.country)?.toUpperCase() ?? null;
  return {
    accountingContactId: contact,
    ...(companyName === null ? {} : { companyName }),
    ...(country === null ? {} : { country }),
    address1: textOrNull(draft.address1),
    address2: textOrNull(draft.address2),
    zipcode: textOrNull(draft.zipcode),
    city: textOrNull(draft.city),
    emails: emailsOf(draft.emails),
    chamberOfCommerce: textOrNull(draft.chamberOfCommerce),
    taxNumber: textOrNull(draft.taxNumber),
    isOrganizationDefault: draft.isOrganizationDefault,
  };
}

/** A device's subscription as the form edits it. */
export interface SubscriptionDraft {
  usage: boolean;
  chargePeriod: string;
  runtime: string;
  hasAfterExpiration: boolean;
  afterUsage: boolean;
  afterChargePeriod: string;
  afterRuntime: string;
  startAt: string;
}

interface SubscriptionValue {
  usage: boolean;
  chargePeriod: number;
  runtime: number;
  afterExpiration: { usage: boolean; chargePeriod: number; runtime: number } | null;
  startAt: string;
}

export function subscriptionDraftOf(subscription: unknown, defaults: { chargePeriod: number; runtime: number } | null = null): SubscriptionDraft {
  const value = subscription as SubscriptionValue | null;
  // A device without a subscription starts from its organisation's subscriptionDefaults.
  return {
    usage: value?.usage ?? true,
    chargePeriod: String(value?.chargePeriod ?? defaults?.chargePeriod ?? 1),
    runtime: String(value?.runtime ?? defaults?.runtime ?? 12),
    hasAfterExpiration: (value?.afterExpiration ?? null) !== null,
    afterUsage: value?.afterExpiration?.usage ?? true,
    afterChargePeriod: String(value?.afterExpiration?.chargePeriod ?? 1),
    afterRuntime: String(value?.afterExpiration?.runtime ?? 12),
    startAt: localOfIso(value?.startAt ?? new Date().toISOString()),
  };
}

const months = yup
  .string()
  .required('Give a number of months')
  .test('months', 'Whole months, 1 or more', (value) => /^\d+$/.test(value.trim()) && Number(value) >= 1);

export const subscriptionDraftSchema = yup.object({
  chargePeriod: months,
  runtime: months,
  afterChargePeriod: yup.string().when('hasAfterExpiration', { is: true, then: () => months }),
  afterRuntime: yup.string().when('hasAfterExpiration', { is: true, then: () => months }),
  startAt: yup.string().required('Give the start'),
});

export function subscriptionOfDraft(draft: SubscriptionDraft): SubscriptionValue {
  return {
    usage: draft.usage,
    chargePeriod: Number(draft.chargePeriod),
    runtime: Number(draft.runtime),
    afterExpiration: draft.hasAfterExpiration
      ? { usage: draft.afterUsage, chargePeriod: Number(draft.afterChargePeriod), runtime: Number(draft.afterRuntime) }
      : null,
    startAt: isoOfLocal(draft.startAt) ?? new Date().toISOString(),
  };
}
