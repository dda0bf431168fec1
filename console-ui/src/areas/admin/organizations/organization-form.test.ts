import { changesOf, graphqlOrganizationType, newOrganizationValues, organizationUpdateFormSchema, type OrganizationValues } from './organization-form';

const saved: OrganizationValues = {
  ...newOrganizationValues,
  name: 'Harbour Energy BV',
  type: 'energy-trader',
  invoiceCustomerReference: 'PO-17',
  subscriptionDefaults: { chargePeriod: 1, runtime: 12 },
};

describe('an organisation form’s changes', () => {
  it('are nothing when nothing changed but blanks around the name', () => {
    expect(changesOf(saved, { ...saved, name: ' Harbour Energy BV ' })).toEqual({});
  });

  it('clear the invoice reference and the subscription defaults with null when blanked', () => {
    expect(changesOf(saved, { ...saved, invoiceCustomerReference: '  ', subscriptionDefaults: { chargePeriod: '', runtime: '' } })).toEqual({
      invoiceCustomerReference: null,
      subscriptionDefaults: null,
    });
  });

  it('name the type and invoice frequency as GraphQL does', () => {
    expect(changesOf(saved, { ...saved, type: 'data-receiver', invoiceFrequency: 'daily' })).toEqual({ type: 'DATA_RECEIVER', invoiceFrequency: 'DAILY' });
  });

  it('send both months when one of them changes', () => {
    expect(changesOf(saved, { ...saved, subscriptionDefaults: { chargePeriod: 3, runtime: 12 } })).toEqual({
      subscriptionDefaults: { chargePeriod: 3, runtime: 12 },
    });
  });
});

describe('the general tab’s rules', () => {
  it('take two blank months as no subscription defaults, and refuse one alone', () => {
    // Formik hands blank fields to yup as undefined.
    const blank = { ...saved, subscriptionDefaults: { chargePeriod: undefined, runtime: undefined } };
    expect(organizationUpdateFormSchema.isValidSync(blank)).toBe(true);
    expect(organizationUpdateFormSchema.isValidSync({ ...saved, subscriptionDefaults: { chargePeriod: 3, runtime: undefined } })).toBe(false);
    expect(organizationUpdateFormSchema.isValidSync({ ...saved, subscriptionDefaults: { chargePeriod: 0, runtime: 12 } })).toBe(false);
  });
});

describe('the type filter of the address', () => {
  it('is sent as GraphQL names it, and anything else not at all', () => {
    expect(graphqlOrganizationType('asset-owner')).toBe('ASSET_OWNER');
    expect(graphqlOrganizationType('ASSET_OWNER')).toBeUndefined();
    expect(graphqlOrganizationType(undefined)).toBeUndefined();
  });
});
