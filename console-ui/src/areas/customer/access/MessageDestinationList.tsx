import { useApolloClient, useQuery } from '@apollo/client/react';
import { useMemo } from 'react';
import styled from 'styled-components';
import { CsvExportButton } from '../../../lists/CsvExportButton';
import { LoadFailed } from '../../../components/LoadFailed';
import { ShortTable } from '../../../lists/ShortList';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { kindText, lagText, stateText, whenText } from '../../../forwarding/destination-health';
import { kindOfGraphql } from '../../../forwarding/forwarding-enums';
import { useMessages } from '../../../i18n/messages';
import type { CsvColumn } from '../../../lists/csv';
import { CustomerMessageDestinationsDocument, type CustomerMessageDestinationsQuery } from './MessageDestinationList.generated';

type Row = CustomerMessageDestinationsQuery['messageDestinations']['rows'][number];

/** Destinations the tab shows at once; the export reads them all. */
const shownRows = 100;

/**
 * The message-destinations tab of access management: the systems the organisation's data is
 * forwarded to (like partnerships, who else receives it), each with its kind, state, lag and last
 * success; read-only, as Gridport's staff set destinations up (console.md section 6).
 */
export function MessageDestinationList() {
  const t = useMessages();
  const client = useApolloClient();
  const { data, error, refetch } = useQuery(CustomerMessageDestinationsDocument, { variables: { rowsPerPage: shownRows }, fetchPolicy: 'cache-and-network' });
  useQueryErrorSnackbar(error);
  const columns = useMemo<CsvColumn<Row>[]>(
    () => [
      { header: t('access.destinations.name'), text: (row) => row.name },
      { header: t('access.destinations.type'), text: (row) => kindText(t, kindOfGraphql(row.type)) },
      { header: t('access.destinations.state'), text: (row) => stateText(t, row.health) },
      { header: t('access.destinations.lag'), text: (row) => lagText(t, row.health) },
      { header: t('access.destinations.lastSuccess'), text: (row) => whenText(t, row.health.lastSuccessAt) },
    ],
    [t],
  );
  const rows = data?.messageDestinations.rows;
  return (
    <section aria-label={t('access.destinations.title')}>
      <Bar>
        <p data-testid="destinations-help">{t('access.destinations.help')}</p>
        <CsvExportButton
          loadPage={async (offset, rowsPerPage) => {
            const { data: page } = await client.query({
              query: CustomerMessageDestinationsDocument,
              variables: { offset, rowsPerPage },
              fetchPolicy: 'no-cache',
            });
            return page?.messageDestinations ?? { rows: [], nextPageOffset: null };
          }}
          columns={columns}
          fileName="message-destinations"
          disabled={rows === undefined}
        />
      </Bar>
      {rows === undefined ? (
        error === undefined ? (
          <p>{t('access.loading')}</p>
        ) : (
          <LoadFailed message={t('access.destinations.failed')} onRetry={() => void refetch()} />
        )
      ) : rows.length === 0 ? (
        <p>{t('access.destinations.empty')}</p>
      ) : (
        <ShortTable aria-label={t('access.destinations.title')}>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.header} scope="col">
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.hashId}>
                {columns.map((column) => (
                  <td key={column.header}>{column.text(row)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </ShortTable>
      )}
      {data !== undefined && data.messageDestinations.nextPageOffset !== null && <p>{t('access.destinations.more', { count: shownRows })}</p>}
    </section>
  );
}

const Bar = styled.div`
  display: flex;
  align-items: flex-start;
  justify-content: space-between;
  gap: 12px;
  p {
    margin-top: 0;
  }
`;
