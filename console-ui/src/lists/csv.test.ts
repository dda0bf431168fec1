import { toCsv } from './csv';

interface Row {
  name: string;
  note: string;
}

const columns = [
  { header: 'Name', text: (row: Row) => row.name },
  { header: 'Note', text: (row: Row) => row.note },
];

describe('toCsv', () => {
  it('writes a header and a line per row, CRLF line ends', () => {
    expect(toCsv(columns, [{ name: 'Harbour', note: 'ok' }])).toBe('Name,Note\r\nHarbour,ok\r\n');
  });

  it('quotes commas, quotes and line breaks, doubling quotes', () => {
    expect(toCsv(columns, [{ name: 'A, B', note: 'say "hi"\nthen go' }])).toBe('Name,Note\r\n"A, B","say ""hi""\nthen go"\r\n');
  });

  it('keeps a cell that a spreadsheet would run as a formula as text', () => {
    expect(toCsv(columns, [{ name: '=HYPERLINK("http://x")', note: '-A1' }])).toBe('Name,Note\r\n"\'=HYPERLINK(""http://x"")",\'-A1\r\n');
    expect(toCsv(columns, [{ name: '@SUM(A1)', note: '+A1' }])).toBe("Name,Note\r\n'@SUM(A1),'+A1\r\n");
  });

  it('leaves plain numbers as numbers', () => {
    expect(toCsv(columns, [{ name: '-1.5', note: '+2e3' }])).toBe('Name,Note\r\n-1.5,+2e3\r\n');
  });

  it('writes only the header for no rows', () => {
    expect(toCsv(columns, [])).toBe('Name,Note\r\n');
  });
});
