import * as yup from 'yup';
import { GridportError } from './errors';
import { organizationCreateSchema } from './organization';
import { validate, validationIssues } from './validation';

function refusal(run: () => unknown): GridportError {
  try {
    run();
  } catch (error) {
    if (error instanceof GridportError) {
      return error;
    }
    throw error;
  }
  throw new Error('validate accepted what it should refuse');
}

describe('validate', () => {
  it('answers the cast value: defaults filled, strings trimmed', () => {
    expect(validate(organizationCreateSchema, { name: '  Acme ', type: 'installer' }, 'payload_invalid')).toEqual({
      name: 'Acme',
      type: 'installer',
      pricing: null,
      invoiceCustomerReference: null,
      invoiceFrequency: 'monthly',
      requireLegalEntityPerDevice: false,
      requireCustomerReferencePerDevice: false,
      subscriptionDefaults: null,
    });
  });

  it('throws the given key with every issue as { path, message }', () => {
    const error = refusal(() => validate(organizationCreateSchema, { name: 'x'.repeat(101), type: 'utility' }, 'payload_invalid'));
    expect(error.key).toBe('payload_invalid');
    expect(error.message).toBe('The request body is invalid.');
    expect(error.details).toEqual([
      { path: 'name', message: 'name must be at most 100 characters' },
      { path: 'type', message: 'type must be one of the following values: energy-trader, data-receiver, asset-owner, installer' },
    ]);
  });

  it('refuses keys the schema does not know, so a misspelt field is not silently ignored', () => {
    expect(
      refusal(() => validate(organizationCreateSchema, { name: 'Acme', type: 'installer', invoiceFrequncy: 'daily' }, 'payload_invalid')).toBody(),
    ).toEqual({
      key: 'payload_invalid',
      details: [{ path: '', message: 'this object contains unknown properties: invoiceFrequncy' }],
    });
  });

  it('throws query_invalid when asked to, for query arguments', () => {
    const schema = yup.object({ rowsPerPage: yup.number().max(500) });
    expect(refusal(() => validate(schema, { rowsPerPage: 501 }, 'query_invalid')).toBody()).toEqual({
      key: 'query_invalid',
      details: [{ path: 'rowsPerPage', message: 'rowsPerPage must be less than or equal to 500' }],
    });
  });

  it('lets an error that is not a validation failure through', () => {
    const schema = yup.string().test('explodes', 'never shown', () => {
      throw new RangeError('a broken rule');
    });
    expect(() => validate(schema, 'x', 'payload_invalid')).toThrow(RangeError);
  });
});

describe('validationIssues', () => {
  it('gives a single failure of the value itself the empty path', () => {
    expect(validationIssues(new yup.ValidationError('must be an object'))).toEqual([{ path: '', message: 'must be an object' }]);
  });
});
