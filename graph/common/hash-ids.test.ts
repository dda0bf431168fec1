import Sqids from 'sqids';
import { Blocklist, HashIds, SqidsCoder, entityTypes } from './hash-ids';

describe('hash ids', () => {
  const hashIds = new HashIds('a-test-secret-that-is-long-enough-000000');

  it('round-trip every entity type', () => {
    for (const type of entityTypes) {
      for (const id of [1, 2, 999, 2 ** 40]) {
        const hashId = hashIds.encode(type, id);
        expect(hashId).toMatch(/^[A-Za-z0-9]{8,}$/);
        expect(hashIds.decode(type, hashId)).toBe(id);
      }
    }
  });

  it('differ per entity type, so a hash id of the wrong type does not decode', () => {
    expect(hashIds.encode('user', 1)).not.toBe(hashIds.encode('organization', 1));
    const decodedAsAnotherType: string[] = [];
    for (let id = 1; id <= 1000; id += 1) {
      const organization = hashIds.encode('organization', id);
      for (const type of entityTypes.filter((candidate) => candidate !== 'organization')) {
        if (hashIds.decode(type, organization) !== null) {
          decodedAsAnotherType.push(`${organization} as ${type}`);
        }
      }
    }
    expect(decodedAsAnotherType).toEqual([]);
  });

  it('refuse tampered and malformed hash ids', () => {
    const hashId = hashIds.encode('device', 42);
    const tampered = `${hashId.slice(0, -1)}${hashId.endsWith('a') ? 'b' : 'a'}`;
    expect(hashIds.decode('device', tampered)).toBeNull();
    for (const bad of ['', '../etc', 'a'.repeat(65), 'abc def']) {
      expect(hashIds.decode('device', bad)).toBeNull();
    }
  });

  it('depend on the install secret', () => {
    expect(new HashIds('another-secret-that-is-long-enough-11111').encode('organization', 1)).not.toBe(hashIds.encode('organization', 1));
  });
});

describe('the hash id encoding', () => {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  /** A fixed sequence of numbers (a linear congruential generator), so every run checks the same ones. */
  function numbers(count: number, seed: number, below: number): number[] {
    let state = seed;
    return Array.from({ length: count }, () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return Math.floor((state / 2 ** 31) * below);
    });
  }

  it('keep the hash ids handed out before: the same encoding of each id', () => {
    const hashIds = new HashIds('a-test-secret-that-is-long-enough-000000');
    expect({
      organization: hashIds.encode('organization', 1),
      user: hashIds.encode('user', 42),
      session: hashIds.encode('session', 7),
      device: hashIds.encode('device', 2 ** 40),
      billingCharge: hashIds.encode('billingCharge', 123456789),
      alarm: hashIds.encode('alarm', Number.MAX_SAFE_INTEGER),
    }).toEqual({
      organization: 'f6HEx3u6',
      user: 'pX7SkeXY',
      session: 'PRgUHvhA',
      device: 'ZvhJ2edOwttar',
      billingCharge: 'QR77oWng4Qo',
      alarm: 'dRdpY39E9i8WyAl',
    });
    expect(hashIds.decode('organization', 'f6HEx3u6')).toBe(1);
    expect(hashIds.decode('alarm', 'dRdpY39E9i8WyAl')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('encode as Sqids 0.3 does with its default blocklist, regenerating the ids that hold a blocked word', () => {
    const shuffled = [...alphabet].reverse().join('');
    const ours = new SqidsCoder(shuffled, 8);
    const theirs = new Sqids({ alphabet: shuffled, minLength: 8 });
    const unblocked = new Sqids({ alphabet: shuffled, minLength: 8, blocklist: new Set() });
    const ids = numbers(6000, 1, 2 ** 40);
    const checks = numbers(6000, 2, 1_000_000);
    const differing: string[] = [];
    let regenerated = 0;
    ids.forEach((id, index) => {
      const pair = [id, checks[index] as number];
      const expected = theirs.encode(pair);
      if (ours.encode(pair) !== expected) {
        differing.push(`${pair.join(',')}: ${ours.encode(pair)} instead of ${expected}`);
      }
      if (unblocked.encode(pair) !== expected) {
        regenerated += 1;
      }
    });
    expect(differing).toEqual([]);
    // Some of these ids held a word of the default blocklist and were made again: that path is compared too.
    expect(regenerated).toBe(5);
  });

  it('regenerate as Sqids does every id a blocklist of words found in the ids blocks', () => {
    const unblocked = new Sqids({ alphabet, minLength: 8, blocklist: new Set() });
    const pairs = numbers(400, 3, 100_000).map((id, index) => [id, index * 37]);
    // Words taken from the ids themselves: a four-letter run inside, the first four letters (ends), and whole short ids.
    const words = new Set<string>();
    pairs.forEach((pair, index) => {
      const id = unblocked.encode(pair).toLowerCase();
      if (index % 3 === 0) {
        words.add(id.slice(2, 6));
      } else if (index % 3 === 1) {
        words.add(id.slice(0, 4));
      } else {
        words.add(id.slice(-5));
      }
    });
    const ours = new SqidsCoder(alphabet, 8, new Blocklist(words, alphabet));
    const theirs = new Sqids({ alphabet, minLength: 8, blocklist: words });
    const results = pairs.map((pair) => ({ ours: ours.encode(pair), theirs: theirs.encode(pair), first: unblocked.encode(pair) }));
    expect(results.filter((result) => result.ours !== result.theirs)).toEqual([]);
    expect(results.filter((result) => result.theirs !== result.first).length).toBe(324);
  });

  it('decode any string as Sqids does', () => {
    const ours = new SqidsCoder(alphabet, 8);
    const theirs = new Sqids({ alphabet, minLength: 8 });
    const encoded = numbers(500, 4, 2 ** 40).map((id, index) => theirs.encode([id, index]));
    const mangled = encoded.map(
      (id, index) => `${id.slice(0, index % id.length)}${alphabet.charAt(index % alphabet.length)}${id.slice((index % id.length) + 1)}`,
    );
    const odd = ['', 'a', 'aaaaaaaaaaaaaaaa', 'ab-cd', 'é', `${encoded[0] ?? ''}${encoded[1] ?? ''}`];
    const differing = [...encoded, ...mangled, ...odd].filter((id) => JSON.stringify(ours.decode(id)) !== JSON.stringify(theirs.decode(id)));
    expect(differing).toEqual([]);
    expect(ours.decode(theirs.encode([12, 34]))).toEqual([12, 34]);
  });

  it('block as Sqids does: short words only whole, words with a digit at either end, other words anywhere, case ignored', () => {
    const blocklist = new Blocklist(['Abc', 'ab1d', 'word', 'xy', 'naïve'], alphabet);
    expect(['ABC', 'abc', 'ab1dxxxx', 'xxxxAB1D', 'xxWordxx', 'word'].filter((id) => !blocklist.blocks(id))).toEqual([]);
    // A word of fewer than three letters, or with a letter outside the alphabet, is no word of the list.
    expect(['abcd', 'xabc', 'xxab1dxx', 'xy', 'xxxyxx', 'naïve', 'xxnaivexx', 'wor', 'worxd'].filter((id) => blocklist.blocks(id))).toEqual([]);
  });
});
