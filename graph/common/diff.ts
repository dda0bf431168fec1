import type { DiffEntry } from '../../contracts/audit-log';

/** JSON text with object keys sorted, so that equal values read alike whatever their key order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/**
 * Whether two values hold the same JSON: key order, undefined members and the object's realm
 * (rows read through the test database come from another one) do not count.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  return a === b || canonicalJson(a) === canonicalJson(b);
}

export type FieldType = 'number' | 'string' | 'id' | 'hidden' | 'boolean' | 'date' | 'json';

/** How each audited field of an object is shown in a diff. `hidden` fields never show their values. */
export type FieldTypes<T> = Partial<Record<keyof T & string, FieldType>>;

function asDate(value: unknown): string | null {
  if (value === null || value === undefined) {
    return null;
  }
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
}

function entry(type: FieldType, name: string, oldValue: unknown, newValue: unknown): DiffEntry {
  switch (type) {
    case 'hidden':
      return { type, name };
    case 'number':
      return { type, name, oldValue: (oldValue ?? null) as number | null, newValue: (newValue ?? null) as number | null };
    case 'boolean':
      return { type, name, oldValue: (oldValue ?? null) as boolean | null, newValue: (newValue ?? null) as boolean | null };
    case 'date':
      return { type, name, oldValue: asDate(oldValue), newValue: asDate(newValue) };
    case 'string':
    case 'id':
      return { type, name, oldValue: (oldValue ?? null) as string | null, newValue: (newValue ?? null) as string | null };
    case 'json':
      return { type, name, oldValue: oldValue ?? null, newValue: newValue ?? null };
  }
}

/**
 * The typed diff between two states of an object, one entry per audited field that changed.
 * `before` is null for a creation, `after` null for a deletion.
 */
export function diffObjects<T extends object>(fields: FieldTypes<T>, before: Partial<T> | null, after: Partial<T> | null): DiffEntry[] {
  const entries: DiffEntry[] = [];
  for (const [name, type] of Object.entries(fields) as [keyof T & string, FieldType][]) {
    const oldValue = before ? before[name] : null;
    const newValue = after ? after[name] : null;
    const normalise = (value: unknown) => (type === 'date' ? asDate(value) : (value ?? null));
    if (!sameJson(normalise(oldValue), normalise(newValue))) {
      entries.push(entry(type, name, oldValue, newValue));
    }
  }
  return entries;
}
