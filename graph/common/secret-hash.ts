import { createHash } from 'node:crypto';

/** How a one-time secret (an API key's, a provisioning token) is kept: SHA-256, hex. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
