import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';

/** Two-factor codes are TOTP (RFC 6238: SHA-1, 6 digits, 30 s), accepted one step either side. */
const epochTolerance = 30;
export const recoveryCodeCount = 10;
const issuer = 'Gridport';

export function newTwoFactorSecret(): string {
  return generateSecret();
}

/** The otpauth:// URI an authenticator app reads (as a QR code) to add the account. */
export function twoFactorKeyUri(email: string, secret: string): string {
  return generateURI({ issuer, label: email, secret });
}

/**
 * The time step of a valid code, or null. A code is used once only: a step at or before
 * `lastStep` (the last accepted one) is refused.
 */
export async function acceptedTwoFactorStep(secret: string, code: string, lastStep: number | null): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) {
    return null;
  }
  const result = await verify({ secret, token: code, epochTolerance, ...(lastStep === null ? {} : { afterTimeStep: lastStep }) });
  if (!result.valid) {
    return null;
  }
  // The functional API types HOTP and TOTP results alike; a TOTP result carries its time step.
  const step = (result as { timeStep?: unknown }).timeStep;
  return typeof step === 'number' ? step : null;
}

function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(code.replace(/[\s-]/g, '').toLowerCase()).digest('hex');
}

/** A new set of recovery codes: shown once, kept only as hashes. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: recoveryCodeCount }, () => {
    const raw = randomBytes(5).toString('hex');
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  return { codes, hashes: codes.map(hashRecoveryCode) };
}

/** The stored hashes without the one `code` matches, or null when it matches none. Each code works once. */
export function spendRecoveryCode(hashes: readonly string[], code: string): string[] | null {
  const candidate = Buffer.from(hashRecoveryCode(code), 'hex');
  const index = hashes.findIndex((hash) => timingSafeEqual(Buffer.from(hash, 'hex'), candidate));
  return index === -1 ? null : hashes.filter((_, i) => i !== index);
}
