import { useCallback, useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import styled from 'styled-components';
import { Button } from '../components/Button';
import { LoadFailed } from '../components/LoadFailed';
import { FilterActions, FilterForm } from '../components/FilterForm';
import { useApolloErrorSnackbar } from '../components/useErrorSnackbar';
import { VirtualList, type VirtualListColumn } from '../components/VirtualList';
import { usePagedRows, type CountedPage } from '../devices/usePagedRows';
import { useMessages } from '../i18n/messages';
import { CsvExportButton } from './CsvExportButton';
import { useUrlFilters, type FilterValues } from './useUrlFilters';

/** A filter of a list, named as in the API and in the address. */
export interface ListFilter {
  name: string;
  label: string;
  /** The choices of a select (the first usually "any", value ''); a text field otherwise. */
  options?: readonly { value: string; label: string }[];
}

/** A column of a list: as a VirtualList column, with the text it exports (and shows, unless `cell` is given). */
export interface ListColumn<Row> extends Omit<VirtualListColumn<Row>, 'cell'> {
  text: (row: Row) => string;
  cell?: (row: Row) => ReactNode;
}

/** Loads one page of the list for the applied filters; `rowsPerPage` null leaves the size to the loader. */
export type ListPageLoader<Row> = (filters: FilterValues, offset: string | null, rowsPerPage: number | null) => Promise<CountedPage<Row>>;

export interface ListScreenProps<Row> {
  title: string;
  filters: readonly ListFilter[];
  columns: readonly ListColumn<Row>[];
  loadPage: ListPageLoader<Row>;
  rowKey: (row: Row) => string;
  rowLink: (row: Row) => string;
  /** The exported file's name, without .csv. */
  exportName: string;
  empty: string;
  /** Controls beside the title (Add, ...). */
  actions?: ReactNode;
}

/**
 * A staff list: its filters kept in the address (a link reopens the same view), the rows
 * virtualised and loaded a page at a time, a CSV export of every row the filters match (up to
 * 10,000), and an empty and an error state with a retry.
 */
export function ListScreen<Row>({ title, filters, columns, loadPage, rowKey, rowLink, exportName, empty, actions }: ListScreenProps<Row>) {
  const t = useMessages();
  const showError = useApolloErrorSnackbar();
  const names = useMemo(() => filters.map((filter) => filter.name), [filters]);
  const url = useUrlFilters(names);
  const [reads, setReads] = useState(0);
  const load = useCallback((offset: string | null) => loadPage(url.applied, offset, null), [loadPage, url.applied]);
  const list = usePagedRows<Row>(`${url.key}#${reads}`, load);
  useEffect(() => {
    if (list.error !== null) {
      showError(list.error);
    }
  }, [list.error, showError]);

  const shown = useMemo<VirtualListColumn<Row>[]>(() => columns.map((column) => ({ ...column, cell: column.cell ?? column.text })), [columns]);
  const failed = list.error !== null && list.rows.length === 0;
  return (
    <section>
      <Title>
        <h1>{title}</h1>
        <Actions>
          <CsvExportButton
            loadPage={(offset, rowsPerPage) => loadPage(url.applied, offset, rowsPerPage)}
            columns={columns}
            fileName={exportName}
            disabled={failed}
          />
          {actions}
        </Actions>
      </Title>
      {filters.length > 0 && (
        <FilterForm
          aria-label={t('list.filters', { title })}
          onSubmit={(event: FormEvent) => {
            // Enter in a field searches too.
            event.preventDefault();
            url.apply();
          }}
        >
          {filters.map((filter) => (
            <label key={filter.name}>
              <span>{filter.label}</span>
              {filter.options === undefined ? (
                <input
                  name={filter.name}
                  maxLength={255}
                  value={url.draft[filter.name] ?? ''}
                  onChange={(event) => url.setDraft(filter.name, event.target.value)}
                />
              ) : (
                <select
                  name={filter.name}
                  value={url.draft[filter.name] ?? ''}
                  // A choice applies at once, as people expect of a select.
                  onChange={(event) => url.apply({ [filter.name]: event.target.value })}
                >
                  {filter.options.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
              )}
            </label>
          ))}
          <FilterActions>
            <Button onClick={() => url.apply()}>{t('list.search')}</Button>
            <Button variant="text" onClick={url.clear}>
              {t('list.clear')}
            </Button>
          </FilterActions>
        </FilterForm>
      )}
      {failed ? (
        <LoadFailed message={t('list.failed')} onRetry={() => setReads((count) => count + 1)} />
      ) : (
        <VirtualList
          label={title}
          rows={list.rows}
          columns={shown}
          rowKey={rowKey}
          rowLink={rowLink}
          onNearEnd={list.loadMore}
          empty={list.loading ? t('loading') : empty}
        />
      )}
    </section>
  );
}

const Title = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  flex-wrap: wrap;
`;

const Actions = styled.div`
  display: flex;
  gap: 8px;
`;
