import { useCallback, useEffect, useRef, useState } from 'react';
import type { Page } from '../../../contracts/pagination';

/** One page of a list as the API answers it (contracts/pagination.ts); `count` only where the API counts. */
export type CountedPage<Row> = Page<Row> & { count?: number | null };

export interface PagedRows<Row> {
  rows: readonly Row[];
  count: number | null;
  loading: boolean;
  error: unknown;
  /** Whether a page is left to load. */
  hasMore: boolean;
  /** Loads the next page, unless one is loading or the last one came. */
  loadMore: () => void;
}

/**
 * The rows of a paged list, loaded a page at a time as the list asks for more. A new `key` (the
 * filters) starts over; answers for an older key are dropped. Rows are kept here rather than in
 * Apollo's cache: normalising 10,000 devices would cost more than rendering them.
 */
export function usePagedRows<Row>(key: string, loadPage: (offset: string | null) => Promise<CountedPage<Row>>): PagedRows<Row> {
  const [state, setState] = useState<{
    key: string;
    rows: readonly Row[];
    next: string | null;
    done: boolean;
    count: number | null;
    loading: boolean;
    error: unknown;
  }>({
    key,
    rows: [],
    next: null,
    done: false,
    count: null,
    loading: true,
    error: null,
  });
  const generation = useRef(0);
  const loader = useRef(loadPage);
  loader.current = loadPage;

  const load = useCallback((forKey: string, offset: string | null, append: boolean) => {
    const mine = generation.current;
    setState((current) => ({ ...current, loading: true }));
    loader.current(offset).then(
      (page) => {
        if (mine !== generation.current) {
          return;
        }
        setState((current) => ({
          key: forKey,
          rows: append ? [...current.rows, ...page.rows] : page.rows,
          next: page.nextPageOffset,
          done: page.nextPageOffset === null,
          count: page.count ?? current.count,
          loading: false,
          error: null,
        }));
      },
      (error: unknown) => {
        if (mine === generation.current) {
          setState((current) => ({ ...current, loading: false, error }));
        }
      },
    );
  }, []);

  useEffect(() => {
    generation.current += 1;
    setState({ key, rows: [], next: null, done: false, count: null, loading: true, error: null });
    load(key, null, false);
  }, [key, load]);

  const loadMore = useCallback(() => {
    if (state.loading || state.done || state.next === null) {
      return;
    }
    load(state.key, state.next, true);
  }, [load, state.done, state.key, state.loading, state.next]);

  return { rows: state.rows, count: state.count, loading: state.loading, error: state.error, hasMore: !state.done && state.next !== null, loadMore };
}
