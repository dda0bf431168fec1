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

export type TwoFactorProof = yup.InferType<typeof twoFactorChallengeSchema>;
export type TwoFactorChangeApp = yup.InferType<typeof twoFactorChangeAppSchema>;

/**
 * A new two-factor secret and its otpauth:// key URI, to add to an authenticator app: the answer
 * of generate-challenge and of the invite's create-challenge.
 */
export const twoFactorChallengeViewSchema = yup.object({ secret: yup.string().required(), keyuri: yup.string().required() });
export type TwoFactorChallengeView = yup.InferType<typeof twoFactorChallengeViewSchema>;

/** Recovery codes, shown once: the answer of change-app, new-recovery-codes and an invite's conversion. */
export const recoveryCodesViewSchema = yup.object({ recoveryCodes: yup.array(yup.string().required()).required() });
export type RecoveryCodesView = yup.InferType<typeof recoveryCodesViewSchema>;

/** How long a generated two-factor secret waits for the code that confirms it. */
export const twoFactorChallengeMinutes = 10;

/** POST /console/v1/password-reset and GET /console/v1/password-reset */
export const passwordResetRequestSchema = yup.object({ email: emailSchema.required() }).exact();
export type PasswordResetRequest = yup.InferType<typeof passwordResetRequestSchema>;

/**
 * GET /console/v1/password-reset: whether the reset a mail's link names is still waiting. It takes
 * the mailed code as well as the email, so that it tells nothing to anyone without the mailbox
 * (with the email alone it would tell which emails have an account).
 */
export const passwordResetStatusQuerySchema = yup.object({ email: emailSchema.required(), code: yup.string().trim().min(1).max(128).required() }).exact();

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
export type PasswordResetInput = yup.InferType<typeof passwordResetSchema>;

/** A reset link works this long; at most this many resets per email per hour. */
export const passwordReset = { validMinutes: 60, perHour: 3 } as const;
