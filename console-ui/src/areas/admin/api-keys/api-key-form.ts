import * as yup from 'yup';
import { apiKeyCreateSchema, ipv4CidrSchema } from '../../../../../contracts/api-key';
import { limits } from '../../../../../contracts/limits';
import type { useMessages } from '../../../i18n/messages';

type Texts = ReturnType<typeof useMessages>;

/** The IP ranges of the form's text: one a line, blank lines left out. */
export function ipRangesOf(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** The IP ranges as the form holds them (one a line), checked line by line with the contract's CIDR rule. */
export function ipRangesTextSchema(t: Texts) {
  return yup.string().test('ip-ranges', function check(text) {
    const ranges = ipRangesOf(text ?? '');
    if (ranges.length > limits.apiKeyIpRanges) {
      return this.createError({ message: t('apiKey.ipRanges.tooMany', { max: limits.apiKeyIpRanges }) });
    }
    const wrong = ranges.find((range) => !ipv4CidrSchema.isValidSync(range));
    return wrong === undefined ? true : this.createError({ message: t('apiKey.ipRanges.invalid', { range: wrong }) });
  });
}

/**
 * The contract's rules for a key's name and public key, with the IP ranges as the form holds them
 * (an empty public key field is none: formik validates it as not given).
 */
export function apiKeyFormSchema(t: Texts) {
  return apiKeyCreateSchema.pick(['name', 'publicKey']).shape({ ipRanges: ipRangesTextSchema(t) });
}

/** What the create and edit dialogs hold. */
export interface ApiKeyFormValues {
  name: string;
  /** One range a line. */
  ipRanges: string;
  /** A PEM public key, or empty. */
  publicKey: string;
}

/** The form fields an API-key write can be refused for, as the server's issue paths start (ipRanges[1]). */
const fields = ['name', 'ipRanges', 'publicKey'] as const;
export type ApiKeyField = (typeof fields)[number];

/** The field an issue of a refused API-key write is about; the name for any other path. */
export function apiKeyFieldOf(path: string): ApiKeyField {
  return fields.find((name) => path === name || path.startsWith(`${name}[`)) ?? 'name';
}
