/** A column of an exported list: its header and the text of a row in it. */
export interface CsvColumn<Row> {
  header: string;
  text: (row: Row) => string;
}

// A cell a spreadsheet would read as a formula (=, +, -, @, tab, carriage return at the start) is
// prefixed with an apostrophe, so an exported name such as "=HYPERLINK(...)" stays text (OWASP CSV
// injection); a plain number such as -1.5 is left as it is.
const formulaStart = /^[=+\-@\t\r]/;
const plainNumber = /^[-+]?\d+(\.\d+)?([eE][-+]?\d+)?$/;

function cell(value: string): string {
  const safe = formulaStart.test(value) && !plainNumber.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** RFC 4180 text of `rows`: a header line, then one line per row, CRLF line ends. */
export function toCsv<Row>(columns: readonly CsvColumn<Row>[], rows: readonly Row[]): string {
  const lines = [columns.map((column) => cell(column.header)).join(',')];
  for (const row of rows) {
    lines.push(columns.map((column) => cell(column.text(row))).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Offers `text` to the browser as a download named `fileName` (UTF-8 with a byte order mark, which spreadsheet programs read as UTF-8). */
export function downloadCsv(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob(['\uFEFF', text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the blob to the download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
