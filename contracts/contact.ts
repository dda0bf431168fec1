import * as yup from 'yup';
import { integer } from './numbers';
import { limits } from './limits';
import { emailSchema } from './user';

/** Roles a contact can have (api.md section 3). */
export const contactRoles = ['irt', 'continuous.support'] as const;
export type ContactRole = (typeof contactRoles)[number];

/** E.164: + then a digit 1-9 and 1 to 14 digits more. */
const phone = yup
  .string()
  .trim()
  .matches(/^\+[1-9]\d{1,14}$/, '${path} must be an E.164 number such as +31201234567');
const name = yup.string().trim().min(1).max(limits.contactFieldLength);
const email = emailSchema.max(limits.contactFieldLength);
const roles = yup.array(yup.string().oneOf(contactRoles).required());
const organizationId = integer().min(1);

/** POST /v1/contact (api.md section 7). */
export const contactCreateSchema = yup
  .object({
    roles: roles.default([]),
    organizationId: organizationId.nullable().default(null),
    name: name.required(),
    email: email.required(),
    phone: phone.nullable().default(null),
  })
  .exact();

/** PUT /v1/contact/:contactId: every field optional, only those given change. */
export const contactUpdateSchema = yup
  .object({
    roles: roles.optional().default(undefined),
    organizationId: organizationId.nullable().optional(),
    name: name.optional(),
    email: email.optional(),
    phone: phone.nullable().optional(),
  })
  .exact();

/** The contactId path parameter, converted to a number. */
export const contactIdParams = yup.object({ contactId: integer().min(1).required() }).exact();

/** GET /v1/contact: optionally only the contacts for a device (deviceId, a number) and a destination. */
export const contactListQuerySchema = yup
  .object({
    deviceId: integer().min(1).optional(),
    destination: yup.string().trim().max(limits.contactFieldLength).optional(),
  })
  .exact();

export type ContactCreate = yup.InferType<typeof contactCreateSchema>;
export type ContactUpdate = yup.InferType<typeof contactUpdateSchema>;
export type ContactListQuery = yup.InferType<typeof contactListQuerySchema>;

export interface ContactView {
  id: number;
  roles: ContactRole[];
  organizationId: number | null;
  name: string;
  email: string;
  phone: string | null;
}

export const contactViewSchema = yup.object({
  id: yup.number().required(),
  roles: yup.array(yup.string().oneOf(contactRoles).required()).required(),
  organizationId: yup.number().nullable().defined(),
  name: yup.string().required(),
  email: yup.string().required(),
  phone: yup.string().nullable().defined(),
});
