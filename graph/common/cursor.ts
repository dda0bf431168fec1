import type { Model, QueryBuilder } from 'objection';
import type { Page } from '../../contracts/pagination';
import { GridportError } from '../../contracts/errors';

/**
 * Opaque pagination cursors (spec README, "Pagination"): the sort key of the last row of a
 * page, base64url-encoded. A cursor that does not decode is `invalid_offset`.
 */
export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify({ v: 1, k: key })).toString('base64url');
}

export function decodeCursor(cursor: string, shape: readonly ('string' | 'number')[]): (string | number)[] {
  const invalid = () => new GridportError('invalid_offset', { offset: cursor });
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) {
    throw invalid();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const key = (parsed as { v?: unknown; k?: unknown } | null)?.k;
  if ((parsed as { v?: unknown }).v !== 1 || !Array.isArray(key) || key.length !== shape.length) {
    throw invalid();
  }
  shape.forEach((type, index) => {
    const value: unknown = key[index];
    const ok = type === 'number' ? typeof value === 'number' && Number.isSafeInteger(value) : typeof value === 'string';
    if (!ok) {
      throw invalid();
    }
  });
  return key as (string | number)[];
}

/**
 * One page of a query, newest first, keyed by id: the rows after the cursor in `offset`, and
 * the cursor of the page after it (null on the last page).
 */
export async function pageRowsById<M extends Model & { id: number }>(
  builder: QueryBuilder<M, M[]>,
  query: { offset?: string | undefined; rowsPerPage: number },
  /** The id column, qualified when the query joins tables. */
  idColumn = 'id',
): Promise<Page<M>> {
  void builder.orderBy(idColumn, 'desc').limit(query.rowsPerPage + 1);
  if (query.offset) {
    const [lastId] = decodeCursor(query.offset, ['number']);
    void builder.where(idColumn, '<', lastId as number);
  }
  const rows = await builder;
  const page = rows.slice(0, query.rowsPerPage);
  const last = page[page.length - 1];
  return { rows: page, nextPageOffset: rows.length > query.rowsPerPage && last ? encodeCursor([last.id]) : null };
}

/** pageRowsById, each row presented as it leaves. */
export async function pageById<M extends Model & { id: number }, V>(
  builder: QueryBuilder<M, M[]>,
  query: { offset?: string | undefined; rowsPerPage: number },
  present: (row: M) => V,
  idColumn = 'id',
): Promise<Page<V>> {
  const page = await pageRowsById(builder, query, idColumn);
  return { rows: page.rows.map(present), nextPageOffset: page.nextPageOffset };
}
