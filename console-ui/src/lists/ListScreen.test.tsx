import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { ApiError } from '../api/api-error';
import { withListViewport } from '../test-support/devices';
import { renderWithProviders } from '../test-support/render';
import type * as csv from './csv';
import { downloadCsv } from './csv';
import { ListScreen, type ListColumn, type ListFilter, type ListPageLoader } from './ListScreen';

jest.mock('./csv', () => ({ ...jest.requireActual<typeof csv>('./csv'), downloadCsv: jest.fn() }));

withListViewport();

interface Row {
  hashId: string;
  name: string;
}

const filters: ListFilter[] = [
  { name: 'filter', label: 'Name' },
  {
    name: 'type',
    label: 'Type',
    options: [
      { value: '', label: 'Any' },
      { value: 'INSTALLER', label: 'Installer' },
    ],
  },
];
const columns: ListColumn<Row>[] = [
  { header: 'Name', width: '1fr', text: (row) => row.name },
  { header: 'Hash id', width: '1fr', text: (row) => row.hashId },
];

function renderList(path: string, loadPage: ListPageLoader<Row>) {
  const router = createMemoryRouter(
    [
      {
        path: '/things',
        element: (
          <ListScreen
            title="Things"
            filters={filters}
            columns={columns}
            loadPage={loadPage}
            rowKey={(row) => row.hashId}
            rowLink={(row) => `/things/${row.hashId}`}
            exportName="things"
            empty="No things match."
          />
        ),
      },
    ],
    { initialEntries: [path] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

const page = (rows: Row[], nextPageOffset: string | null = null) => ({ rows, nextPageOffset });

describe('ListScreen', () => {
  it('lists with the filters of the address, and Search puts the new ones in the address', async () => {
    const loadPage = jest.fn<ReturnType<ListPageLoader<Row>>, Parameters<ListPageLoader<Row>>>(async () => page([{ hashId: 'o1', name: 'Harbour' }]));
    const router = renderList('/things?filter=harb&type=INSTALLER&other=x', loadPage);
    expect(await screen.findByText('Harbour')).toBeInTheDocument();
    expect(loadPage).toHaveBeenLastCalledWith({ filter: 'harb', type: 'INSTALLER' }, null, null);
    expect(screen.getByLabelText('Name')).toHaveValue('harb');
    expect(screen.getByText('Harbour').closest('a')).toHaveAttribute('href', '/things/o1');

    await userEvent.clear(screen.getByLabelText('Name'));
    await userEvent.type(screen.getByLabelText('Name'), ' north ');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(router.state.location.search).toBe('?filter=north&type=INSTALLER'));
    await waitFor(() => expect(loadPage).toHaveBeenLastCalledWith({ filter: 'north', type: 'INSTALLER' }, null, null));

    // A choice in a select applies at once; clearing empties the address.
    await userEvent.selectOptions(screen.getByLabelText('Type'), '');
    await waitFor(() => expect(router.state.location.search).toBe('?filter=north'));
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByLabelText('Name')).toHaveValue('');
  });

  it('shows the empty text when nothing matches', async () => {
    renderList('/things', async () => page([]));
    expect(await screen.findByText('No things match.')).toBeInTheDocument();
  });

  it('shows a failed list with a retry that reads it again', async () => {
    let fail = true;
    const loadPage: ListPageLoader<Row> = async () => {
      if (fail) {
        throw new ApiError('request', 0, null, undefined, 'offline');
      }
      return page([{ hashId: 'o1', name: 'Harbour' }]);
    };
    renderList('/things', loadPage);
    expect(await screen.findByRole('alert')).toHaveTextContent('The list could not be loaded.');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Harbour')).toBeInTheDocument();
  });

  it('exports every row the filters match, reading the pages 500 at a time', async () => {
    const loadPage = jest.fn<ReturnType<ListPageLoader<Row>>, Parameters<ListPageLoader<Row>>>(async (_filters, offset) =>
      offset === null ? page([{ hashId: 'o1', name: 'Harbour, North' }], 'p2') : page([{ hashId: 'o2', name: '=cmd' }]),
    );
    renderList('/things?filter=h', loadPage);
    await screen.findByText('Harbour, North');
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(downloadCsv).toHaveBeenCalledTimes(1));
    expect(loadPage).toHaveBeenCalledWith({ filter: 'h' }, null, 500);
    expect(loadPage).toHaveBeenCalledWith({ filter: 'h' }, 'p2', 500);
    expect(downloadCsv).toHaveBeenCalledWith('things.csv', 'Name,Hash id\r\n"Harbour, North",o1\r\n\'=cmd,o2\r\n');
  });
});
