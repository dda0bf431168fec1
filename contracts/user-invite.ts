import * as yup from 'yup';
import { twoFactorCodeSchema } from './login';
import { filterQuery, pageSchema, paginationQuery } from './pagination';
import { rights, type Right } from './rights';
import { emailSchema, newPasswordSchema } from './user';
import type { NamedReference } from './references';

/** Invites expire after 7 days (spec README, "Invites"); 1 to 20 emails per request (console.md section 5). */
export const userInvite = { validDays: 7, maxEmails: 20 } as const;

/** POST /console-admin/v1/user-invite */
export const userInviteCreateSchema = yup
  .object({
    organizationHashId: yup.string().trim().max(64).required(),
    emails: yup.array(emailSchema.required()).min(1).max(userInvite.maxEmails).required(),
    rights: yup.array(yup.string().oneOf(rights).required()).min(1).optional(),
  })
  .exact();

export const userInviteListQuerySchema = yup
  .object({ ...paginationQuery, filter: filterQuery, organizationHashId: yup.string().trim().max(64).optional() })
  .exact();

/** The secret of the invite link, in the query of the invitee's calls. */
export const userInviteCodeQuerySchema = yup.object({ code: yup.string().trim().min(1).max(128).required() }).exact();

/** POST /console/v1/user-invite/{hashId}: become a user. */
export const userInviteConvertSchema = yup
  .object({
    name: yup.string().trim().min(1).max(255).required(),
    password: newPasswordSchema.required(),
    twoFactorCode: twoFactorCodeSchema.required(),
  })
  .exact();

export type UserInviteCreate = yup.InferType<typeof userInviteCreateSchema>;
export type UserInviteConvert = yup.InferType<typeof userInviteConvertSchema>;
export type UserInviteListQuery = yup.InferType<typeof userInviteListQuerySchema>;

/** A user invite (console.md section 3): hashId, email, expiresAt, organization. */
export interface UserInviteView {
  hashId: string;
  email: string;
  expiresAt: string;
  rights: Right[];
  organization: NamedReference;
}

export const userInviteViewSchema = yup.object({
  hashId: yup.string().required(),
  email: yup.string().required(),
  expiresAt: yup.string().required(),
  rights: yup.array(yup.string().required()).required(),
  organization: yup.object({ hashId: yup.string().required(), name: yup.string().required() }).required(),
});

export const userInvitePageSchema = pageSchema(userInviteViewSchema);
