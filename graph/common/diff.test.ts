import { diffObjects, type FieldTypes } from './diff';

interface Thing {
  name: string | null;
  count: number;
  enabled: boolean;
  startsAt: Date | null;
  settings: Record<string, unknown> | null;
  ownerHashId: string | null;
  password: string | null;
}

const fields: FieldTypes<Thing> = {
  name: 'string',
  count: 'number',
  enabled: 'boolean',
  startsAt: 'date',
  settings: 'json',
  ownerHashId: 'id',
  password: 'hidden',
};

describe('typed diffs', () => {
  const before: Thing = {
    name: 'a',
    count: 1,
    enabled: false,
    startsAt: new Date('2026-01-01T00:00:00Z'),
    settings: { x: 1 },
    ownerHashId: 'abc',
    password: 'old secret',
  };

  it('list each changed field with its type, and never the values of a hidden one', () => {
    const after: Thing = {
      name: 'b',
      count: 2,
      enabled: true,
      startsAt: new Date('2026-02-01T00:00:00Z'),
      settings: { x: 2 },
      ownerHashId: null,
      password: 'new secret',
    };
    const diff = diffObjects(fields, before, after);
    expect(diff).toEqual([
      { type: 'string', name: 'name', oldValue: 'a', newValue: 'b' },
      { type: 'number', name: 'count', oldValue: 1, newValue: 2 },
      { type: 'boolean', name: 'enabled', oldValue: false, newValue: true },
      { type: 'date', name: 'startsAt', oldValue: '2026-01-01T00:00:00.000Z', newValue: '2026-02-01T00:00:00.000Z' },
      { type: 'json', name: 'settings', oldValue: { x: 1 }, newValue: { x: 2 } },
      { type: 'id', name: 'ownerHashId', oldValue: 'abc', newValue: null },
      { type: 'hidden', name: 'password' },
    ]);
    expect(JSON.stringify(diff)).not.toContain('secret');
  });

  it('leave out fields that did not change, comparing dates and json by value', () => {
    const same: Thing = { ...before, startsAt: new Date(before.startsAt?.getTime() ?? 0), settings: { x: 1 } };
    expect(diffObjects(fields, before, same)).toEqual([]);
  });

  it('show a creation as every set field from null, and a deletion as every field to null', () => {
    expect(diffObjects({ name: 'string', count: 'number' } as FieldTypes<Thing>, null, before)).toEqual([
      { type: 'string', name: 'name', oldValue: null, newValue: 'a' },
      { type: 'number', name: 'count', oldValue: null, newValue: 1 },
    ]);
    expect(diffObjects({ enabled: 'boolean' } as FieldTypes<Thing>, before, null)).toEqual([
      { type: 'boolean', name: 'enabled', oldValue: false, newValue: null },
    ]);
  });
});
