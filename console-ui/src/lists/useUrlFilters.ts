import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';

export type FilterValues = Readonly<Partial<Record<string, string>>>;

/** The filters of the address, trimmed, in the order of `names`; empty ones left out. */
export function filtersOf(search: URLSearchParams, names: readonly string[]): FilterValues {
  const filters: Record<string, string> = {};
  for (const name of names) {
    const value = search.get(name)?.trim() ?? '';
    if (value !== '') {
      filters[name] = value;
    }
  }
  return filters;
}

export interface UrlFilters {
  /** What the list shows: the filters of the address. */
  applied: FilterValues;
  /** What the form holds until applied. */
  draft: FilterValues;
  setDraft: (name: string, value: string) => void;
  /** Puts the draft in the address (in the order of the names, so the same filters always read the same). */
  apply: (overrides?: FilterValues) => void;
  clear: () => void;
  /** The applied filters as one string: a list starts over when it changes. */
  key: string;
}

/**
 * A list's filters kept in the address, so that a link reopens the same view: the form edits a
 * draft, Search writes it to the address, the list reads the address. `names` is a constant of
 * the screen (its identity is kept).
 */
export function useUrlFilters(names: readonly string[]): UrlFilters {
  const [search, setSearch] = useSearchParams();
  const key = new URLSearchParams(Object.entries(filtersOf(search, names)) as [string, string][]).toString();
  // The key says all that applied reads: a new search with the same filters keeps the same object.
  const applied = useMemo(() => filtersOf(new URLSearchParams(key), names), [key, names]);
  const [draft, setDraftState] = useState<FilterValues>(applied);
  const [draftOf, setDraftOf] = useState(key);
  if (draftOf !== key) {
    // The address changed (back, forward, a link): the form shows what the list shows.
    setDraftOf(key);
    setDraftState(applied);
  }
  const setDraft = useCallback((name: string, value: string) => setDraftState((current) => ({ ...current, [name]: value })), []);
  const apply = useCallback(
    (overrides: FilterValues = {}) => {
      const next = new URLSearchParams();
      const values = { ...draft, ...overrides };
      for (const name of names) {
        const value = values[name]?.trim() ?? '';
        if (value !== '') {
          next.set(name, value);
        }
      }
      setDraftState(values);
      setSearch(next);
    },
    [draft, names, setSearch],
  );
  const clear = useCallback(() => {
    setDraftState({});
    setSearch(new URLSearchParams());
  }, [setSearch]);
  return { applied, draft, setDraft, apply, clear, key };
}
