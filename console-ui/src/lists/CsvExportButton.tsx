import { useState } from 'react';
import type { Page } from '../../../contracts/pagination';
import { Button } from '../components/Button';
import { useApolloErrorSnackbar } from '../components/useErrorSnackbar';
import { useMessages } from '../i18n/messages';
import { downloadCsv, toCsv, type CsvColumn } from './csv';
import { readPages } from './read-pages';

export interface CsvExportButtonProps<Row> {
  /** Reads one page of what the list shows (its filters applied), `rowsPerPage` rows. */
  loadPage: (offset: string | null, rowsPerPage: number) => Promise<Page<Row>>;
  columns: readonly CsvColumn<Row>[];
  /** The exported file's name, without .csv. */
  fileName: string;
  disabled?: boolean;
}

/**
 * Exports what a paged list shows as CSV: every row its filters match, not only the rows loaded
 * so far, read 500 at a time up to 10,000.
 */
export function CsvExportButton<Row>({ loadPage, columns, fileName, disabled = false }: CsvExportButtonProps<Row>) {
  const t = useMessages();
  const showError = useApolloErrorSnackbar();
  const [exporting, setExporting] = useState(false);
  const exportCsv = async () => {
    setExporting(true);
    try {
      downloadCsv(`${fileName}.csv`, toCsv(columns, await readPages(loadPage)));
    } catch (error) {
      showError(error);
    } finally {
      setExporting(false);
    }
  };
  return (
    <Button variant="text" loading={exporting} onClick={() => void exportCsv()} disabled={disabled}>
      {t('list.export')}
    </Button>
  );
}
