import { createHmac } from 'node:crypto';
import Sqids from 'sqids';

/** Every entity whose id leaves the server. Each has its own alphabet, so ids of different types never match. */
export const entityTypes = [
  'organization',
  'user',
  'userInvite',
  'session',
  'apiKey',
  'auditLog',
  'device',
  'deviceGroup',
  'partnership',
  'messageDestination',
  'issue',
  'billingCharge',
  'billingInvoice',
  'billingLegalEntity',
  'mail',
  'contact',
  'issueMessage',
  'alarm',
  'deviceGroupMessageDestination',
] as const;
export type EntityType = (typeof entityTypes)[number];

const baseAlphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const minLength = 8;
/** At most this many encodings are remembered (a few MB). */
const encodingsKept = 100_000;

/** A deterministic shuffle of the alphabet, keyed by the install's secret and the entity type. */
function alphabetFor(secret: string, type: EntityType): string {
  const letters = baseAlphabet.split('');
  let stream = createHmac('sha256', secret).update(`hash-id:${type}`).digest();
  let position = 0;
  for (let i = letters.length - 1; i > 0; i -= 1) {
    if (position + 4 > stream.length) {
      stream = createHmac('sha256', secret).update(stream).digest();
      position = 0;
    }
    const j = stream.readUInt32BE(position) % (i + 1);
    position += 4;
    const swap = letters[i] as string;
    letters[i] = letters[j] as string;
    letters[j] = swap;
  }
  return letters.join('');
}

/**
 * Opaque, URL-safe ids (spec README, "Hash ids"). Decoding accepts only the canonical
 * encoding of one id, so a hash id of another type, or a tampered one, decodes to null.
 */
export class HashIds {
  private readonly coders: Map<EntityType, Sqids>;

  constructor(private readonly secret: string) {
    this.coders = new Map(entityTypes.map((type) => [type, new Sqids({ alphabet: alphabetFor(secret, type), minLength })]));
  }

  private coder(type: EntityType): Sqids {
    const coder = this.coders.get(type);
    if (!coder) {
      throw new Error(`unknown entity type ${type}`);
    }
    return coder;
  }

  /**
   * A keyed check number travels with the id: another type's hash id can decode under this
   * type's alphabet, but then its check does not match, so it names no row of this type.
   */
  private check(type: EntityType, id: number): number {
    return createHmac('sha256', this.secret).update(`${type}:${id}`).digest().readUInt32BE(0) % 1_000_000;
  }

  /**
   * Encodings made, by type and id: an encoding costs an HMAC and a Sqids pass (about 80 µs), and
   * a page of a list or a forwarded batch encodes hundreds. Emptied once it holds encodingsKept.
   */
  private readonly encoded = new Map<string, string>();

  encode(type: EntityType, id: number | string): string {
    const numeric = Number(id);
    const key = `${type}:${numeric}`;
    const known = this.encoded.get(key);
    if (known !== undefined) {
      return known;
    }
    const hashId = this.coder(type).encode([numeric, this.check(type, numeric)]);
    if (this.encoded.size >= encodingsKept) {
      this.encoded.clear();
    }
    this.encoded.set(key, hashId);
    return hashId;
  }

  /** The id behind a hash id of this type, or null when it is not one. */
  decode(type: EntityType, hashId: string): number | null {
    if (!/^[A-Za-z0-9]{1,64}$/.test(hashId)) {
      return null;
    }
    const coder = this.coder(type);
    const numbers = coder.decode(hashId);
    if (numbers.length !== 2) {
      return null;
    }
    const [id, check] = numbers as [number, number];
    if (!Number.isSafeInteger(id) || check !== this.check(type, id)) {
      return null;
    }
    return coder.encode([id, check]) === hashId ? id : null;
  }
}
