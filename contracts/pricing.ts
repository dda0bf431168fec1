import * as yup from 'yup';
import { quantity } from './numbers';

/** Rate keys of usage pricing with their default monthly rate per unit (console.md sections 3 and 9). */
export const defaultMonthlyRates = {
  'asset.solar': 29.18,
  'asset.wind': 58.35,
  'asset.battery': 58.35,
  'asset.environmentalSensor': 5.25,
  'asset.meter': 5.25,
  'asset.ev.ac': 2.63,
  'asset.ev.dc': 5.25,
  'asset.generator': 58.35,
  'asset.relay': 29.18,
  'control.afrr': 58.35,
  'control.gridguard.a.simple': 11.67,
  'control.gridguard.a.complex': 35.01,
  'control.gridguard.b': 145.88,
  'control.gridguard.c': 583.5,
  'control.dso.a': 11.67,
  'control.dso.b': 58.35,
  'control.tso': 583.5,
  'control.optimizer': 0,
  'reporting.frequent': 5.84,
  'reporting.flash': 5.84,
  'support.continuous': 166.88,
  cellular: 1.75,
} as const;

export type RateKey = keyof typeof defaultMonthlyRates;
export const rateKeys = Object.keys(defaultMonthlyRates) as RateKey[];

/** Volume discount tiers by default (device-model.md section 9): up to `volume` units, `discount` percent. */
export const defaultTiers = [
  { volume: 375, discount: 0 },
  { volume: 1875, discount: 5 },
  { volume: 3750, discount: 10 },
  { volume: 7500, discount: 15 },
  { volume: 15000, discount: 20 },
] as const;
/** Discount in percent above the last default tier. */
export const defaultDiscountAboveTiers = 25;

export const tierSchema = yup
  .object({
    volume: quantity().moreThan(0, 'Tier volume must be positive').required(),
    discount: yup.number().min(0, 'Tier discount must not be negative').max(100, 'Tier discount is a percentage, at most 100').required(),
  })
  .exact();

const ratesSchema = yup
  .object(Object.fromEntries(rateKeys.map((key) => [key, quantity().min(0).optional()])) as Record<RateKey, yup.NumberSchema<number | undefined>>)
  .exact()
  .default(undefined);

export const usagePricingSchema = yup
  .object({
    type: yup
      .string()
      .oneOf(['usage'] as const)
      .required(),
    tiers: yup.array(tierSchema).optional(),
    rates: ratesSchema.optional(),
    expiresAt: yup.string().datetime().nullable().optional(),
  })
  .exact();

export const legacyPricingSchema = yup
  .object({
    type: yup
      .string()
      .oneOf(['legacy'] as const)
      .required(),
  })
  .exact();

export type UsagePricing = yup.InferType<typeof usagePricingSchema>;
export type LegacyPricing = yup.InferType<typeof legacyPricingSchema>;
export type Pricing = UsagePricing | LegacyPricing;

/** Usage pricing or legacy pricing, told apart by `type`. */
export const pricingSchema = yup
  .mixed<Pricing>()
  .test('pricing', 'Pricing must be of type usage or legacy', function validatePricing(value) {
    if (value === undefined || value === null) {
      return true;
    }
    const type = (value as { type?: unknown }).type;
    const schema = type === 'legacy' ? legacyPricingSchema : type === 'usage' ? usagePricingSchema : null;
    if (!schema) {
      return this.createError({ path: `${this.path}.type`, message: 'Pricing type must be usage or legacy' });
    }
    try {
      schema.validateSync(value, { abortEarly: false, strict: true });
      return true;
    } catch (error) {
      if (error instanceof yup.ValidationError) {
        return new yup.ValidationError(error.inner.map((inner) => new yup.ValidationError(inner.message, inner.value, `${this.path}.${inner.path ?? ''}`)));
      }
      throw error;
    }
  })
  .meta({
    jsonSchema: {
      oneOf: [
        { type: 'object', properties: { type: { const: 'legacy' } }, required: ['type'] },
        {
          type: 'object',
          properties: {
            type: { const: 'usage' },
            tiers: {
              type: 'array',
              items: {
                type: 'object',
                properties: { volume: { type: 'number', exclusiveMinimum: 0 }, discount: { type: 'number', minimum: 0 } },
                required: ['volume', 'discount'],
              },
            },
            rates: { type: 'object', properties: Object.fromEntries(rateKeys.map((key) => [key, { type: 'number', minimum: 0 }])) },
            expiresAt: { type: ['string', 'null'], format: 'date-time' },
          },
          required: ['type'],
        },
      ],
    },
  });
