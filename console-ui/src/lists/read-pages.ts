import type { Page } from '../../../contracts/pagination';

/** The most rows a list reads at once (an export, a tab that shows all), and the page it reads them by: the API's most. */
export const readRowsMax = 10_000;
const readPageSize = 500;

/** Every row a paged list answers, page after page, up to `rowsMax`. */
export async function readPages<Row>(
  loadPage: (offset: string | null, rowsPerPage: number) => Promise<Page<Row>>,
  rowsMax: number = readRowsMax,
): Promise<Row[]> {
  const rows: Row[] = [];
  let offset: string | null = null;
  do {
    const page: Page<Row> = await loadPage(offset, readPageSize);
    rows.push(...page.rows);
    offset = page.nextPageOffset;
  } while (offset !== null && rows.length < rowsMax);
  return rows.slice(0, rowsMax);
}
