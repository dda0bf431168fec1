import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** A secret encrypted at rest (the shape device-model.md section 3.1 gives encrypted secrets). */
export interface EncryptedSecret {
  iv: string;
  encryptedData: string;
  tag: string;
}

/** AES-256-GCM with the install's ENCRYPTION_KEY: secrets kept in the database are unreadable without it. */
export class SecretBox {
  private readonly key: Buffer;

  constructor(hexKey: string) {
    this.key = Buffer.from(hexKey, 'hex');
    if (this.key.length !== 32) {
      throw new Error('the encryption key must be 32 bytes (64 hex characters)');
    }
  }

  seal(plain: string): EncryptedSecret {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const encryptedData = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return { iv: iv.toString('hex'), encryptedData: encryptedData.toString('hex'), tag: cipher.getAuthTag().toString('hex') };
  }

  open(sealed: EncryptedSecret): string {
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(sealed.iv, 'hex'));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'hex'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.encryptedData, 'hex')), decipher.final()]).toString('utf8');
  }
}
