import { setLocale } from 'yup';

/**
 * yup's texts in the console. A form shows each message under the field's own label, so the
 * messages leave out the field's path ("Required", not "subscriptionDefaults.chargePeriod is a
 * required field"); the server's answers keep it, as an API caller needs to know which field.
 * The rules are the contracts' own: only the wording differs. yup reads these when a schema is
 * built, so this module is imported before any schema (first in main.tsx and the test setup).
 */
setLocale({
  mixed: {
    default: 'Invalid value',
    required: 'Required',
    defined: 'Required',
    notNull: 'Required',
    oneOf: 'Choose one of: ${values}',
    notOneOf: 'Must not be one of: ${values}',
    notType: ({ type }: { type: string }) => (type === 'number' ? 'Must be a number' : `Must be a ${type}`),
  },
  string: {
    length: 'Exactly ${length} characters',
    min: ({ min }: { min: number }) => (min === 1 ? 'Required' : `At least ${min} characters`),
    max: 'At most ${max} characters',
    matches: 'Not in the expected form',
    email: 'Invalid email (RFC 5322)',
    url: 'Must be a URL',
    uuid: 'Must be a UUID',
    datetime: 'Must be a date and time (ISO 8601)',
    trim: 'Must not start or end with spaces',
    lowercase: 'Must be lower case',
    uppercase: 'Must be upper case',
  },
  number: {
    min: 'At least ${min}',
    max: 'At most ${max}',
    lessThan: 'Less than ${less}',
    moreThan: 'More than ${more}',
    positive: 'Must be positive',
    negative: 'Must be negative',
    integer: 'Must be a whole number',
  },
  date: { min: 'On or after ${min}', max: 'On or before ${max}' },
  array: { min: 'At least ${min}', max: 'At most ${max}', length: 'Exactly ${length}' },
  object: { noUnknown: 'Unknown fields: ${unknown}' },
});
