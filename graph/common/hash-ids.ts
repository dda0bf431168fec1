import { createHmac } from 'node:crypto';
import { defaultOptions } from 'sqids';

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
 * Sqids' blocklist (its default words), asked in a few map lookups. Sqids 0.3 scans every word
 * of the list for every id it makes (about 20 µs an id); this answers the same question from an
 * index of the words by their first four letters. The rules are Sqids' own: words of fewer than
 * three letters, or with a letter outside the alphabet, are dropped; an id of at most three
 * letters, or a word of at most three, is blocked only when they are equal; a word holding a
 * digit only at the start or the end of the id; any other word anywhere in it. Case is ignored.
 */
export class Blocklist {
  private readonly words: Set<string>;
  /** Words of more than three letters without a digit, by their first four letters. */
  private readonly anywhere = new Map<string, string[]>();
  /** Words of more than three letters with a digit, by their length. */
  private readonly atEnds = new Map<number, Set<string>>();

  constructor(words: Iterable<string>, alphabet: string) {
    const letters = new Set(alphabet.toLowerCase());
    this.words = new Set([...words].map((word) => word.toLowerCase()).filter((word) => word.length >= 3 && [...word].every((c) => letters.has(c))));
    for (const word of this.words) {
      if (word.length <= 3) {
        continue;
      }
      if (/\d/.test(word)) {
        const sameLength = this.atEnds.get(word.length);
        if (sameLength) {
          sameLength.add(word);
        } else {
          this.atEnds.set(word.length, new Set([word]));
        }
      } else {
        const key = word.slice(0, 4);
        const list = this.anywhere.get(key);
        if (list) {
          list.push(word);
        } else {
          this.anywhere.set(key, [word]);
        }
      }
    }
  }

  blocks(id: string): boolean {
    const lower = id.toLowerCase();
    if (lower.length <= 3) {
      return this.words.has(lower);
    }
    for (const [length, words] of this.atEnds) {
      if (length <= lower.length && (words.has(lower.slice(0, length)) || words.has(lower.slice(lower.length - length)))) {
        return true;
      }
    }
    for (let start = 0; start + 4 <= lower.length; start += 1) {
      const candidates = this.anywhere.get(lower.slice(start, start + 4));
      if (candidates?.some((word) => lower.startsWith(word, start))) {
        return true;
      }
    }
    return false;
  }
}

/** Sqids' default words, as every alphabet here (the same letters) filters them. */
const defaultBlocklist = new Blocklist(defaultOptions.blocklist, baseAlphabet);

/** Sqids' shuffle of an alphabet: deterministic, each swap fixed by the letters it meets. */
function sqidsShuffle(alphabet: string): string {
  const chars = alphabet.split('');
  for (let i = 0, j = chars.length - 1; j > 0; i += 1, j -= 1) {
    const r = (i * j + (chars[i] as string).charCodeAt(0) + (chars[j] as string).charCodeAt(0)) % chars.length;
    const swap = chars[i] as string;
    chars[i] = chars[r] as string;
    chars[r] = swap;
  }
  return chars.join('');
}

/**
 * The Sqids 0.3 encoding (alphabet, minimum length, default blocklist) of lists of numbers, made
 * without its per-id costs: the rotated and shuffled alphabets an id uses are made once and kept,
 * and the blocklist is the indexed one above. Every id it makes is the one Sqids makes, so every
 * hash id handed out before still decodes to the same row (hash-ids.test.ts compares both).
 */
export class SqidsCoder {
  private readonly alphabet: string;
  private readonly length: number;
  /** Each letter's place in the alphabet, by char code; -1 for a char outside it. */
  private readonly places = new Int16Array(128).fill(-1);
  /** The alphabet rotated to each offset and reversed: where an id's encoding starts. */
  private readonly starts: string[];
  /**
   * Shuffles made so far, by the alphabet shuffled. Every id starts from one of the alphabet's
   * rotations and shuffles once per number it holds, so this holds a few per rotation (at most
   * the rotations times the length of the longest id decoded, 64 in HashIds.decode).
   */
  private readonly shuffles = new Map<string, string>();

  constructor(
    alphabet: string,
    private readonly minimumLength: number,
    private readonly blocklist: Blocklist = defaultBlocklist,
  ) {
    this.alphabet = sqidsShuffle(alphabet);
    this.length = alphabet.length;
    for (let i = 0; i < this.alphabet.length; i += 1) {
      this.places[this.alphabet.charCodeAt(i)] = i;
    }
    this.starts = Array.from({ length: this.length }, (_, offset) => [...(this.alphabet.slice(offset) + this.alphabet.slice(0, offset))].reverse().join(''));
  }

  private shuffle(alphabet: string): string {
    let shuffled = this.shuffles.get(alphabet);
    if (shuffled === undefined) {
      shuffled = sqidsShuffle(alphabet);
      this.shuffles.set(alphabet, shuffled);
    }
    return shuffled;
  }

  /** `num` in the base of the alphabet after its first letter. */
  private toId(num: number, alphabet: string): string {
    const base = alphabet.length - 1;
    let id = '';
    let rest = num;
    do {
      id = alphabet.charAt(1 + (rest % base)) + id;
      rest = Math.floor(rest / base);
    } while (rest > 0);
    return id;
  }

  private toNumber(id: string, alphabet: string): number {
    const base = alphabet.length - 1;
    let num = 0;
    for (let i = 0; i < id.length; i += 1) {
      num = num * base + (alphabet.indexOf(id.charAt(i), 1) - 1);
    }
    return num;
  }

  encode(numbers: readonly number[]): string {
    if (numbers.some((num) => !Number.isSafeInteger(num) || num < 0)) {
      throw new Error(`Encoding supports numbers between 0 and ${Number.MAX_SAFE_INTEGER}`);
    }
    let first = numbers.length;
    numbers.forEach((num, index) => {
      first += this.alphabet.charCodeAt(num % this.length) + index;
    });
    for (let increment = 0; increment <= this.length; increment += 1) {
      const id = this.encodeAt(numbers, (first + increment) % this.length);
      if (!this.blocklist.blocks(id)) {
        return id;
      }
    }
    throw new Error('Reached max attempts to re-generate the ID');
  }

  private encodeAt(numbers: readonly number[], offset: number): string {
    let alphabet = this.starts[offset] as string;
    let id = this.alphabet.charAt(offset);
    numbers.forEach((num, index) => {
      id += this.toId(num, alphabet);
      if (index < numbers.length - 1) {
        id += alphabet.charAt(0);
        alphabet = this.shuffle(alphabet);
      }
    });
    if (this.minimumLength > id.length) {
      id += alphabet.charAt(0);
      while (this.minimumLength > id.length) {
        alphabet = this.shuffle(alphabet);
        id += alphabet.slice(0, Math.min(this.minimumLength - id.length, alphabet.length));
      }
    }
    return id;
  }

  decode(id: string): number[] {
    const numbers: number[] = [];
    for (let i = 0; i < id.length; i += 1) {
      const code = id.charCodeAt(i);
      if (code >= 128 || this.places[code] === -1) {
        return numbers;
      }
    }
    if (id === '') {
      return numbers;
    }
    let alphabet = this.starts[this.places[id.charCodeAt(0)] as number] as string;
    let rest = id.slice(1);
    while (rest.length > 0) {
      const separator = alphabet.charAt(0);
      const chunks = rest.split(separator);
      if (chunks[0] === '') {
        return numbers;
      }
      numbers.push(this.toNumber(chunks[0] as string, alphabet));
      if (chunks.length > 1) {
        alphabet = this.shuffle(alphabet);
      }
      rest = chunks.slice(1).join(separator);
    }
    return numbers;
  }
}

/**
 * Opaque, URL-safe ids (spec README, "Hash ids"): letters and digits in an alphabet of each
 * entity type shuffled by the install's secret, a keyed check number beside the id, and no word
 * of Sqids' blocklist (SqidsCoder, the Sqids 0.3 encoding). Decoding accepts only the canonical
 * encoding of one id, so a hash id of another type, or a tampered one, decodes to null.
 */
export class HashIds {
  private readonly coders: Map<EntityType, SqidsCoder>;

  constructor(private readonly secret: string) {
    this.coders = new Map(entityTypes.map((type) => [type, new SqidsCoder(alphabetFor(secret, type), minLength)]));
  }

  private coder(type: EntityType): SqidsCoder {
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
   * Encodings made, by type and id: an encoding costs an HMAC and a SqidsCoder pass (about 3 µs
   * on a quiet core), a lookup here a tenth of that, and a page of a list or a forwarded batch
   * encodes hundreds of ids seen before. Emptied once it holds encodingsKept.
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
