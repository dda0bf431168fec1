import * as yup from 'yup';
import { emailSchema, newPasswordSchema } from './user';

/** A two-factor code: exactly 6 characters. */
export const twoFactorCodeSchema = yup.string().trim().length(6);

export const recoveryCodeSchema = yup.string().trim().min(1).max(64);

/** POST /console-shared/v1/login */
export const loginSchema = yup
  .object({
    email: emailSchema.required(),
    password: yup.string().max(255).required(),
    code: twoFactorCodeSchema.optional(),
    recoveryCode: recoveryCodeSchema.optional(),
  })
  .exact();

export type LoginInput = yup.InferType<typeof loginSchema>;

/** Failed logins that lock an email (or an address) until the window passes (spec README, "Login throttling"). */
export const loginThrottle = { failures: 6, windowMinutes: 15 } as const;

/** POST /console/v1/settings/two-factor/generate-challenge */
export const twoFactorChallengeSchema = yup
  .object({
    twoFactorCode: twoFactorCodeSchema.optional(),
    recoveryCode: recoveryCodeSchema.optional(),
  })
  .exact();

/** POST /console/v1/settings/two-factor/change-app */
export const twoFactorChangeAppSchema = yup.object({ twoFactorCode: twoFactorCodeSchema.required() }).exact();

/** How long a generated two-factor secret waits for the code that confirms it. */
export const twoFactorChallengeMinutes = 10;

/** POST /console/v1/password-reset and GET /console/v1/password-reset */
export const passwordResetRequestSchema = yup.object({ email: emailSchema.required() }).exact();

/** POST /console/v1/password-reset/reset: the email in the query, the rest in the body. */
export const passwordResetQuerySchema = yup.object({ email: emailSchema.required() }).exact();
export const passwordResetSchema = yup
  .object({
    password: newPasswordSchema.required(),
    /** The code from the reset mail. */
    code: yup.string().trim().min(1).max(128).required(),
    /** Users with two-factor on also give a recovery code, so a mailbox alone cannot take the account. */
    recoveryCode: recoveryCodeSchema.optional(),
  })
  .exact();

/** A reset link works this long; at most this many resets per email per hour. */
export const passwordReset = { validMinutes: 60, perHour: 3 } as const;
