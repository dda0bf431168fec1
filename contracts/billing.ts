/**
 * Billing (console.md sections 2 to 9, device-model.md section 9, spec README "Billing"):
 * what counts as a billable unit, the shapes of charges, invoices and legal entities, and the
 * limits of each. How units, prices, periods and invoices are reckoned is in docs/billing.md;
 * the rules themselves live in graph/billing/services.
 */
import * as yup from 'yup';
import { plausibleDate } from './dates';
import { integer } from './numbers';
import { filterQuery, pageSchema, paginationQuery } from './pagination';
import { emailSchema } from './user';
import type { RateKey } from './pricing';
import type { NamedReference } from './references';

/** Where a charge comes from (console.md section 3). */
export const chargeSources = ['subscription', 'manual', 'shipment'] as const;
export type ChargeSource = (typeof chargeSources)[number];

/** Why a charge was made (console.md section 3; docs/billing.md, "Charges"). */
export const chargeReasons = [
  'deviceUpdate',
  'scheduled',
  'configChange',
  'destinationUpdate',
  'subscriptionIncrease',
  'deviceGroupUpdate',
  'manuallyAdded',
] as const;
export type ChargeReason = (typeof chargeReasons)[number];

/** The ledger accounts an invoice totals (console.md section 3). Subscription charges book on saas. */
export const ledgerAccounts = ['hardware', 'saas', 'consultancy'] as const;
export type LedgerAccount = (typeof ledgerAccounts)[number];

export const billingLimits = {
  /** console.md section 5. */
  chargeDescriptionLength: 255,
  /** Largest amount of one charge, in euro cents either way: ten million euro. */
  chargeCentsMax: 1_000_000_000,
  /** console.md section 5. */
  chamberOfCommerceLength: 64,
  taxNumberLength: 64,
  companyNameLength: 255,
  addressLength: 255,
  zipcodeLength: 32,
  cityLength: 255,
  /** Invoice addresses of one legal entity. */
  emailsMax: 20,
  /** A Moneybird contact id: a decimal number of at most 20 digits. */
  accountingContactIdLength: 20,
  /** Public invoice ids: GP-<year>-<6 digits> (spec README, "Billing"). */
  invoiceSequenceDigits: 6,
} as const;

/** The public id of the `sequence`th invoice of `year`: GP-2026-000001. */
export function invoicePublicId(year: number, sequence: number): string {
  return `GP-${year}-${String(sequence).padStart(billingLimits.invoiceSequenceDigits, '0')}`;
}

const cents = integer().min(-billingLimits.chargeCentsMax).max(billingLimits.chargeCentsMax);
const description = yup.string().trim().min(1).max(billingLimits.chargeDescriptionLength);
const hashId = yup.string().trim().max(64);

/** POST /console-admin/v1/billing-charge: a manual charge (console.md section 3), in euro cents; a negative amount credits. */
export const manualChargeCreateSchema = yup
  .object({
    organizationHashId: hashId.required(),
    deviceHashId: hashId.nullable().default(null),
    source: yup
      .string()
      .oneOf(['manual', 'shipment'] as const)
      .default('manual'),
    description: description.required(),
    billableAt: plausibleDate().nullable().default(null),
    charge: cents.required(),
    ledgerAccount: yup.string().oneOf(ledgerAccounts).required(),
  })
  .exact();
export type ManualChargeCreate = yup.InferType<typeof manualChargeCreateSchema>;

/** POST /console-admin/v1/billing-charge/{hashId}/refund: all of a charge, or part of it (cents, at most what is left). */
export const chargeRefundSchema = yup
  .object({
    charge: integer().min(1).max(billingLimits.chargeCentsMax).nullable().default(null),
    description: description.nullable().default(null),
  })
  .exact();
export type ChargeRefund = yup.InferType<typeof chargeRefundSchema>;

/** GET /console-admin/v1/billing-charge (console.md section 7). `filter` matches the description or the invoice's public id. */
export const chargeListQuerySchema = yup
  .object({
    ...paginationQuery,
    filter: filterQuery,
    organizationHashId: hashId.optional(),
    deviceHashId: hashId.optional(),
    invoiceHashId: hashId.optional(),
    /** Our addition: only charges not yet on an invoice (true) or only invoiced ones (false). */
    invoiced: yup.boolean().optional(),
  })
  .exact();
export type ChargeListQuery = yup.InferType<typeof chargeListQuerySchema>;

/** GET /console-admin/v1/billing-invoice (console.md section 7). `filter` matches the public id. */
export const invoiceListQuerySchema = yup.object({ ...paginationQuery, filter: filterQuery, organizationHashId: hashId.optional() }).exact();
export type InvoiceListQuery = yup.InferType<typeof invoiceListQuerySchema>;

/** A charge as it leaves the server (console.md section 3); amounts in euro cents, the monthly price in euro. */
export interface BillingChargeView {
  hashId: string;
  organization: NamedReference;
  device: NamedReference | null;
  source: ChargeSource;
  reason: ChargeReason;
  description: string;
  /** The device's monthly price in euro before the tier discount, for subscription charges. */
  monthlyPriceBeforeDiscount: number | null;
  /** The tier discount applied, in percent. */
  discount: number | null;
  billableAt: string;
  from: string | null;
  to: string | null;
  charge: number;
  customerReference: string | null;
  ledgerAccount: LedgerAccount;
  billingLegalEntity: NamedReference | null;
  invoiceHashId: string | null;
  invoicePublicId: string | null;
  refunded: boolean;
  /** For a refund: the charge it refunds. */
  refundOfHashId: string | null;
  createdAt: string;
}

/** An invoice as it leaves the server (console.md section 3); `charge` is the total in euro cents. */
export interface BillingInvoiceView {
  hashId: string;
  publicId: string;
  createdAt: string;
  organization: NamedReference;
  billingLegalEntity: NamedReference | null;
  customerReference: string | null;
  /** Charges billable before this moment were invoiced. */
  periodEnd: string;
  charge: number;
  /** Totals per ledger account in euro cents, every account present. */
  totals: Record<LedgerAccount, number>;
  chargeCount: number;
}

/** ISO 3166-1 alpha-2: the 249 officially assigned codes. */
export const countryCodes = [
  'AD',
  'AE',
  'AF',
  'AG',
  'AI',
  'AL',
  'AM',
  'AO',
  'AQ',
  'AR',
  'AS',
  'AT',
  'AU',
  'AW',
  'AX',
  'AZ',
  'BA',
  'BB',
  'BD',
  'BE',
  'BF',
  'BG',
  'BH',
  'BI',
  'BJ',
  'BL',
  'BM',
  'BN',
  'BO',
  'BQ',
  'BR',
  'BS',
  'BT',
  'BV',
  'BW',
  'BY',
  'BZ',
  'CA',
  'CC',
  'CD',
  'CF',
  'CG',
  'CH',
  'CI',
  'CK',
  'CL',
  'CM',
  'CN',
  'CO',
  'CR',
  'CU',
  'CV',
  'CW',
  'CX',
  'CY',
  'CZ',
  'DE',
  'DJ',
  'DK',
  'DM',
  'DO',
  'DZ',
  'EC',
  'EE',
  'EG',
  'EH',
  'ER',
  'ES',
  'ET',
  'FI',
  'FJ',
  'FK',
  'FM',
  'FO',
  'FR',
  'GA',
  'GB',
  'GD',
  'GE',
  'GF',
  'GG',
  'GH',
  'GI',
  'GL',
  'GM',
  'GN',
  'GP',
  'GQ',
  'GR',
  'GS',
  'GT',
  'GU',
  'GW',
  'GY',
  'HK',
  'HM',
  'HN',
  'HR',
  'HT',
  'HU',
  'ID',
  'IE',
  'IL',
  'IM',
  'IN',
  'IO',
  'IQ',
  'IR',
  'IS',
  'IT',
  'JE',
  'JM',
  'JO',
  'JP',
  'KE',
  'KG',
  'KH',
  'KI',
  'KM',
  'KN',
  'KP',
  'KR',
  'KW',
  'KY',
  'KZ',
  'LA',
  'LB',
  'LC',
  'LI',
  'LK',
  'LR',
  'LS',
  'LT',
  'LU',
  'LV',
  'LY',
  'MA',
  'MC',
  'MD',
  'ME',
  'MF',
  'MG',
  'MH',
  'MK',
  'ML',
  'MM',
  'MN',
  'MO',
  'MP',
  'MQ',
  'MR',
  'MS',
  'MT',
  'MU',
  'MV',
  'MW',
  'MX',
  'MY',
  'MZ',
  'NA',
  'NC',
  'NE',
  'NF',
  'NG',
  'NI',
  'NL',
  'NO',
  'NP',
  'NR',
  'NU',
  'NZ',
  'OM',
  'PA',
  'PE',
  'PF',
  'PG',
  'PH',
  'PK',
  'PL',
  'PM',
  'PN',
  'PR',
  'PS',
  'PT',
  'PW',
  'PY',
  'QA',
  'RE',
  'RO',
  'RS',
  'RU',
  'RW',
  'SA',
  'SB',
  'SC',
  'SD',
  'SE',
  'SG',
  'SH',
  'SI',
  'SJ',
  'SK',
  'SL',
  'SM',
  'SN',
  'SO',
  'SR',
  'SS',
  'ST',
  'SV',
  'SX',
  'SY',
  'SZ',
  'TC',
  'TD',
  'TF',
  'TG',
  'TH',
  'TJ',
  'TK',
  'TL',
  'TM',
  'TN',
  'TO',
  'TR',
  'TT',
  'TV',
  'TW',
  'TZ',
  'UA',
  'UG',
  'UM',
  'US',
  'UY',
  'UZ',
  'VA',
  'VC',
  'VE',
  'VG',
  'VI',
  'VN',
  'VU',
  'WF',
  'WS',
  'YE',
  'YT',
  'ZA',
  'ZM',
  'ZW',
] as const;
export type CountryCode = (typeof countryCodes)[number];
const countrySet: ReadonlySet<string> = new Set(countryCodes);

/** The 27 member states of the European Union. */
export const euCountryCodes = [
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
] as const satisfies readonly CountryCode[];
const euSet: ReadonlySet<string> = new Set(euCountryCodes);

/** Whether `code` is an assigned ISO 3166-1 alpha-2 code (upper case). */
export function isCountryCode(code: string): code is CountryCode {
  return countrySet.has(code);
}

/** The EU tax-number rule (console.md section 5): required in the EU except in the Netherlands. */
export function taxNumberRequired(country: string): boolean {
  return euSet.has(country) && country !== 'NL';
}

const optionalText = (max: number) => yup.string().trim().max(max).nullable();

/**
 * The details of a legal entity (console.md section 3). The country's code and the EU tax rule
 * answer their own keys (country_invalid, tax_number_required_for_eu_countries), which the
 * service checks so that a Moneybird contact meets the same rules.
 */
const legalEntityDetails = {
  companyName: yup.string().trim().min(1).max(billingLimits.companyNameLength),
  address1: optionalText(billingLimits.addressLength),
  address2: optionalText(billingLimits.addressLength),
  zipcode: optionalText(billingLimits.zipcodeLength),
  city: optionalText(billingLimits.cityLength),
  /** Any case on the way in; stored upper case. */
  country: yup.string().trim().uppercase().min(1).max(8),
  emails: yup.array(emailSchema.required()).max(billingLimits.emailsMax),
  chamberOfCommerce: optionalText(billingLimits.chamberOfCommerceLength),
  taxNumber: optionalText(billingLimits.taxNumberLength),
};

const accountingContactId = yup
  .string()
  .trim()
  .matches(/^\d{1,20}$/, '${path} must be a Moneybird contact id (digits)');

/**
 * POST /console-admin/v1/billing-legal-entity: from full details, or from a Moneybird contact id
 * alone (`accountingContactId`), whose details are then fetched from Moneybird.
 */
export const legalEntityCreateSchema = yup
  .object({
    organizationHashId: hashId.required(),
    accountingContactId: accountingContactId.nullable().default(null),
    companyName: legalEntityDetails.companyName.optional(),
    address1: legalEntityDetails.address1.default(null),
    address2: legalEntityDetails.address2.default(null),
    zipcode: legalEntityDetails.zipcode.default(null),
    city: legalEntityDetails.city.default(null),
    country: legalEntityDetails.country.optional(),
    emails: legalEntityDetails.emails.default([]),
    chamberOfCommerce: legalEntityDetails.chamberOfCommerce.default(null),
    taxNumber: legalEntityDetails.taxNumber.default(null),
    isOrganizationDefault: yup.boolean().default(false),
  })
  .exact()
  .test(
    'details-or-contact',
    'Give the company name and country, or an accounting contact id',
    (value) => Boolean(value.accountingContactId) || (Boolean(value.companyName) && Boolean(value.country)),
  );
export type LegalEntityCreate = yup.InferType<typeof legalEntityCreateSchema>;

/** PUT /console-admin/v1/billing-legal-entity/{hashId}: only the fields given change. */
export const legalEntityUpdateSchema = yup
  .object({
    accountingContactId: accountingContactId.nullable().optional(),
    companyName: legalEntityDetails.companyName.optional(),
    address1: legalEntityDetails.address1.optional(),
    address2: legalEntityDetails.address2.optional(),
    zipcode: legalEntityDetails.zipcode.optional(),
    city: legalEntityDetails.city.optional(),
    country: legalEntityDetails.country.optional(),
    emails: legalEntityDetails.emails.optional().default(undefined),
    chamberOfCommerce: legalEntityDetails.chamberOfCommerce.optional(),
    taxNumber: legalEntityDetails.taxNumber.optional(),
    isOrganizationDefault: yup.boolean().optional(),
  })
  .exact();
export type LegalEntityUpdate = yup.InferType<typeof legalEntityUpdateSchema>;

/** GET /console-admin/v1/billing-legal-entity: `filter` matches the company name. */
export const legalEntityListQuerySchema = yup.object({ ...paginationQuery, filter: filterQuery, organizationHashId: hashId.optional() }).exact();
export type LegalEntityListQuery = yup.InferType<typeof legalEntityListQuerySchema>;

/** A legal entity as it leaves the server (console.md section 3). */
export interface BillingLegalEntityView {
  hashId: string;
  organization: NamedReference;
  companyName: string;
  address1: string | null;
  address2: string | null;
  zipcode: string | null;
  city: string | null;
  country: string;
  emails: string[];
  chamberOfCommerce: string | null;
  taxNumber: string | null;
  accountingContactId: string | null;
  isOrganizationDefault: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A device's billable units by rate key (docs/billing.md, "Units"); keys without units are absent. */
export type BillingUnits = Partial<Record<RateKey, number>>;

/** The billing usage column of the device lists (console.md section 3) and a device's billing tab. */
export interface DeviceBillingUsage {
  units: BillingUnits;
  unitCount: number;
  /** Euro a month before the tier discount, at the organisation's rates; 0 under legacy pricing. */
  monthlyPriceBeforeDiscount: number;
  /** Euro a month after the tier discount the organisation reaches now. */
  monthlyPrice: number;
}

/** The monthly forecast of an organisation (issue 19, item 6). */
export interface BillingForecastView {
  organization: NamedReference;
  pricingType: 'usage' | 'legacy';
  /** Units of the devices billed by usage. */
  unitCount: number;
  /** The tier discount that count reaches, in percent. */
  discount: number;
  /** Euro a month: before and after the discount. */
  monthlyPriceBeforeDiscount: number;
  monthlyPrice: number;
  deviceCount: number;
}

/** Answers of the charge routes, for the OpenAPI document (the views above are the full shapes). */
export const billingChargeViewSchema = yup.object({
  hashId: yup.string().required(),
  source: yup.string().oneOf(chargeSources).required(),
  reason: yup.string().oneOf(chargeReasons).required(),
  description: yup.string().required(),
  billableAt: yup.string().required(),
  charge: yup.number().required(),
  ledgerAccount: yup.string().oneOf(ledgerAccounts).required(),
  invoiceHashId: yup.string().nullable().defined(),
  refunded: yup.boolean().required(),
});
export const billingChargePageSchema = pageSchema(billingChargeViewSchema);
export const billingChargeCreatedSchema = yup.object({ billingChargeHashId: yup.string().required() });

/** GET /console-admin/v1/billing-forecast */
export const billingForecastQuerySchema = yup.object({ organizationHashId: hashId.required() }).exact();
export const billingForecastViewSchema = yup.object({
  pricingType: yup
    .string()
    .oneOf(['usage', 'legacy'] as const)
    .required(),
  unitCount: yup.number().required(),
  discount: yup.number().required(),
  monthlyPriceBeforeDiscount: yup.number().required(),
  monthlyPrice: yup.number().required(),
  deviceCount: yup.number().required(),
});
