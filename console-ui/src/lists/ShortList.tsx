import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Button } from '../components/Button';
import { LoadFailed } from '../components/LoadFailed';
import { useMessages } from '../i18n/messages';
import { downloadCsv, toCsv, type CsvColumn } from './csv';

/** A column of a short list: its header, the text it exports (and shows, unless `cell` is given). */
export interface ShortListColumn<Row> extends CsvColumn<Row> {
  cell?: (row: Row) => ReactNode;
}

export interface ShortListProps<Row> {
  title: string;
  columns: readonly ShortListColumn<Row>[];
  /** Undefined while loading. */
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => string;
  /** Whether loading failed; `onRetry` asks again. Rows that come with the page (no read of their own) leave both out. */
  failed?: boolean;
  onRetry?: () => void;
  empty: string;
  /** The exported file's name, without .csv. */
  exportName: string;
  /** Controls beside the title (Invite, ...). */
  actions?: ReactNode;
  /** Under the table: that more rows exist than are shown, with a link to the full list. */
  footer?: ReactNode;
  /** A last column of controls for each row (Unlink, Edit), under `header`; not exported. */
  rowActions?: { header: string; cell: (row: Row) => ReactNode };
}

/**
 * A short list inside a tab (an organisation's users, its invites): a plain table of what one
 * answer holds, with the CSV export of those rows, and an empty and an error state with a retry.
 * Long lists with filters are ListScreen's.
 */
export function ShortList<Row>({ title, columns, rows, rowKey, failed = false, onRetry, empty, exportName, actions, footer, rowActions }: ShortListProps<Row>) {
  const t = useMessages();
  return (
    <section aria-label={title}>
      <Title>
        <h2>{title}</h2>
        <Actions>
          <Button
            variant="text"
            disabled={rows === undefined || rows.length === 0}
            onClick={() => downloadCsv(`${exportName}.csv`, toCsv(columns, rows ?? []))}
          >
            {t('list.export')}
          </Button>
          {actions}
        </Actions>
      </Title>
      {failed && onRetry !== undefined && rows === undefined ? (
        <LoadFailed message={t('list.failed')} onRetry={onRetry} />
      ) : rows === undefined ? (
        <Message>{t('loading')}</Message>
      ) : rows.length === 0 ? (
        <Message>{empty}</Message>
      ) : (
        <ShortTable aria-label={title}>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.header} scope="col">
                  {column.header}
                </th>
              ))}
              {rowActions !== undefined && <th scope="col">{rowActions.header}</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column) => (
                  <td key={column.header}>{column.cell === undefined ? column.text(row) : column.cell(row)}</td>
                ))}
                {rowActions !== undefined && <td>{rowActions.cell(row)}</td>}
              </tr>
            ))}
          </tbody>
        </ShortTable>
      )}
      {footer}
    </section>
  );
}

const Title = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  flex-wrap: wrap;
  h2 {
    margin: 12px 0;
    font-size: 18px;
  }
`;

const Actions = styled.div`
  display: flex;
  gap: 8px;
`;

const Message = styled.p`
  color: ${({ theme }) => theme.colors.textMuted};
`;

/** The console's table of a few rows (no virtualisation): ShortList's, and that of short lists with controls of their own. */
export const ShortTable = styled.table`
  width: 100%;
  border-collapse: collapse;
  margin-bottom: 12px;
  th,
  td {
    text-align: left;
    vertical-align: top;
    padding: 8px;
    border-bottom: 1px solid ${({ theme }) => theme.colors.border};
    overflow-wrap: anywhere;
  }
  th {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;
