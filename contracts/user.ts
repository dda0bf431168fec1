import * as yup from 'yup';
import { rights, type Right } from './rights';
import { filterQuery, pageSchema, paginationQuery } from './pagination';
import type { OrganizationView } from './organization';
import type { NamedReference } from './references';

/** Users one list request may name by hash id (the console names a timeline page's users at once). */
export const userListHashIdsMax = 100;

/** Zero-width characters and special white space, stripped from emails (console.md section 5). */
const invisible = /[\u200B-\u200D\u2060\uFEFF\u00A0\u1680\u180E\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]/g;

/**
 * An addr-spec of RFC 5322 (dot-atom or quoted local part; dot-atom or domain literal domain),
 * with a domain of at least two labels as mail needs to be deliverable.
 */
const atext = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]";
const dotAtom = `${atext}+(?:\\.${atext}+)*`;
const quoted = '"(?:[\\x20\\x21\\x23-\\x5B\\x5D-\\x7E]|\\\\[\\x20-\\x7E])*"';
const label = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const domain = `(?:${label}\\.)+${label}`;
const literal = '\\[(?:[\\x21-\\x5A\\x5E-\\x7E])*\\]';
const addrSpec = new RegExp(`^(?:${dotAtom}|${quoted})@(?:${domain}|${literal})$`);

export const invalidEmailMessage = 'Invalid email (RFC 5322)';

/** An email as console.md section 5 gives it: stripped, trimmed, at most 255, RFC 5322. */
export const emailSchema = yup
  .string()
  .transform((value: unknown) => (typeof value === 'string' ? value.replace(invisible, '').trim() : value))
  .max(255)
  .test('rfc5322', invalidEmailMessage, (value) => value === undefined || value === null || addrSpec.test(value));

/** Passwords people choose (reset, invite conversion, operators): 12 to 255 characters (console.md section 5). */
export const newPasswordSchema = yup.string().min(12).max(255);

export const userCreateSchema = yup
  .object({
    organizationHashId: yup.string().trim().required(),
    name: yup.string().trim().min(1).max(255).required(),
    email: emailSchema.required(),
    rights: yup.array(yup.string().oneOf(rights).required()).min(1).required(),
    password: newPasswordSchema.optional(),
  })
  .exact();

export type UserCreate = yup.InferType<typeof userCreateSchema>;

/**
 * PUT /console-admin/v1/user/{hashId}: what an admin may change of a user. Only the fields
 * given change; rights, when given, replace the user's rights.
 */
export const userUpdateSchema = yup
  .object({
    name: yup.string().trim().min(1).max(255).optional(),
    email: emailSchema.optional(),
    rights: yup.array(yup.string().oneOf(rights).required()).min(1).optional(),
    organizationHashId: yup.string().trim().min(1).max(64).optional(),
  })
  .exact();

export type UserUpdate = yup.InferType<typeof userUpdateSchema>;

export interface UserView {
  hashId: string;
  name: string;
  email: string;
  rights: Right[];
  organization: NamedReference;
}

/** GET /console-shared/v1/authentication/whoami (console.md section 3, "Whoami result"). */
export interface WhoamiView {
  user: { hashId: string; email: string; name: string; rights: Right[] };
  organization: OrganizationView;
}

export const userListQuerySchema = yup
  .object({
    ...paginationQuery,
    filter: filterQuery,
    organizationHashId: yup.string().trim().max(64).optional(),
    /**
     * Only these users (`?hashIds=a&hashIds=b` over REST). A hash id that names no user the
     * caller may see is left out of the page, never an error.
     */
    hashIds: yup
      .array(yup.string().trim().min(1).max(64).required())
      // A parameter given once in a query string arrives as text, not as a list of one.
      .transform((value: unknown, original: unknown) => (typeof original === 'string' ? [original] : value))
      .max(userListHashIdsMax)
      .optional(),
  })
  .exact();

export type UserListQuery = yup.InferType<typeof userListQuerySchema>;

export const userViewSchema = yup.object({
  hashId: yup.string().required(),
  name: yup.string().required(),
  email: yup.string().required(),
  rights: yup.array(yup.string().oneOf(rights).required()).required(),
  organization: yup.object({ hashId: yup.string().required(), name: yup.string().required() }).required(),
});

export const userPageSchema = pageSchema(userViewSchema);
