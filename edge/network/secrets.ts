import { createDecipheriv } from 'node:crypto';

/** A secret of the config (device-model.md section 3.1): plain, or sealed as iv, encryptedData and tag. */
export type ConfigSecret = string | { iv: string; encryptedData: string; tag: string };

/** Why a sealed secret could not be opened; the message names the secret, never its content. */
export class SecretUnreadableError extends Error {
  constructor(name: string, reason: string) {
    super(`the VPN secret ${name} cannot be read: ${reason}`);
    this.name = 'SecretUnreadableError';
  }
}

/**
 * The plain text of a config secret. A sealed one is AES-256-GCM with hex iv (12 bytes),
 * encryptedData and tag, the format of graph/common/secret-box.ts, under the gateway's secret
 * key (`secret.key` in the state directory, 64 hex characters; docs/edge.md "The gateway's own
 * network"). The agent does not import the cloud's SecretBox: the gateway only opens.
 */
export function openConfigSecret(name: string, secret: ConfigSecret, keyHex: string | null): string {
  if (typeof secret === 'string') {
    return secret;
  }
  if (keyHex === null) {
    throw new SecretUnreadableError(name, 'it is sealed and this gateway has no secret key (secret.key in the state directory)');
  }
  const key = Buffer.from(keyHex, 'hex');
  if (key.length !== 32) {
    throw new SecretUnreadableError(name, 'the gateway secret key must be 32 bytes (64 hex characters)');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(secret.iv, 'hex'));
    decipher.setAuthTag(Buffer.from(secret.tag, 'hex'));
    return Buffer.concat([decipher.update(Buffer.from(secret.encryptedData, 'hex')), decipher.final()]).toString('utf8');
  } catch {
    // GCM refuses a wrong key and a changed text alike; neither is worth more detail here.
    throw new SecretUnreadableError(name, 'it was not sealed with this gateway secret key, or it was changed');
  }
}
