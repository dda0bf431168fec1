import { HashIds, entityTypes } from './hash-ids';

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
