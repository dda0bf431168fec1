import { fireEvent, screen, within } from '@testing-library/react';
import { withListViewport } from '../test-support/devices';
import { inRouter, renderWithProviders } from '../test-support/render';
import { VirtualList, type VirtualListColumn } from './VirtualList';

withListViewport();

interface Fruit {
  id: string;
  name: string;
}

const columns: VirtualListColumn<Fruit>[] = [
  { header: 'Name', width: '1fr', cell: (row) => row.name },
  { header: 'Id', width: '80px', cell: (row) => row.id, optional: true },
];

const fruits = (count: number): Fruit[] => Array.from({ length: count }, (_, index) => ({ id: `f${index}`, name: `Fruit ${index}` }));

function renderList(rows: Fruit[], onNearEnd: () => void = () => undefined) {
  return renderWithProviders(
    inRouter(
      <VirtualList
        label="Fruits"
        rows={rows}
        columns={columns}
        rowKey={(row) => row.id}
        rowLink={(row) => `/fruits/${row.id}`}
        onNearEnd={onNearEnd}
        empty="No fruit"
      />,
    ),
  );
}

describe('the virtualised list', () => {
  it('lists rows of any kind as links under their column headers', () => {
    renderList(fruits(3));
    const table = screen.getByRole('table', { name: 'Fruits' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'Id']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual(['Fruit 0f0', 'Fruit 1f1', 'Fruit 2f2']);
    expect(rows[1]).toHaveAttribute('href', '/fruits/f1');
  });

  it('says what it holds when empty', () => {
    renderList([]);
    expect(screen.getByText('No fruit')).toBeInTheDocument();
  });

  it('renders only the rows in view and asks for more as the end comes near', () => {
    let asked = 0;
    renderList(fruits(1_000), () => {
      asked += 1;
    });
    const scroller = screen.getByTestId('virtual-list-scroller');
    // 10 rows in view (480 px of 48 px rows) and 12 more below.
    expect(scroller.querySelectorAll('[role="row"]')).toHaveLength(22);
    expect(asked).toBe(0);
    scroller.scrollTop = 960 * 48;
    fireEvent.scroll(scroller);
    expect(scroller.querySelector('[role="row"]')).toHaveTextContent(/^Fruit 9[0-9]{2}/);
    expect(asked).toBeGreaterThan(0);
  });
});
