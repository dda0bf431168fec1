import { useApolloClient } from '@apollo/client/react';
import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { destinationKinds, destinationStates } from '../../../../../contracts/forwarding';
import { Button } from '../../../components/Button';
import { kindText, lagText, stateText, whenText } from '../../../forwarding/destination-health';
import { graphqlKindOf, kindOfGraphql } from '../../../forwarding/forwarding-enums';
import type { DestinationState } from '../../../graphql/schema-types';
import { useMessages, type MessageKey } from '../../../i18n/messages';
import { ListScreen, type ListColumn, type ListFilter, type ListPageLoader } from '../../../lists/ListScreen';
import { usePermissions } from '../../../session/usePermissions';
import { MessageDestinationListDocument, type MessageDestinationListScreen_DestinationFragment } from './MessageDestinationListScreen.generated';

type Row = MessageDestinationListScreen_DestinationFragment;

const isKind = (value: string | undefined): value is (typeof destinationKinds)[number] => destinationKinds.some((kind) => kind === value);
const isState = (value: string | undefined): value is (typeof destinationStates)[number] => destinationStates.some((state) => state === value);

/**
 * The staff message destination list (/admin/message-destinations): by name, organisation, kind
 * and state (in the address as the API and the REST list spell them: ?type=http&state=paused),
 * with each one's lag, delivered count and last success.
 */
export function MessageDestinationListScreen() {
  const t = useMessages();
  const client = useApolloClient();
  const navigate = useNavigate();
  const { may } = usePermissions();
  const loadPage = useCallback<ListPageLoader<Row>>(
    async (filters, offset, rowsPerPage) => {
      const { data } = await client.query({
        query: MessageDestinationListDocument,
        variables: {
          filter: filters.filter,
          organizationHashId: filters.organizationHashId,
          type: isKind(filters.type) ? graphqlKindOf(filters.type) : undefined,
          state: isState(filters.state) ? (filters.state.toUpperCase() as DestinationState) : undefined,
          offset,
          rowsPerPage,
        },
        fetchPolicy: 'no-cache',
      });
      return data?.messageDestinations ?? { rows: [], nextPageOffset: null };
    },
    [client],
  );
  const filters = useMemo<ListFilter[]>(
    () => [
      { name: 'filter', label: t('messageDestination.filter.filter') },
      { name: 'organizationHashId', label: t('messageDestination.filter.organizationHashId') },
      {
        name: 'type',
        label: t('messageDestination.filter.type'),
        options: [{ value: '', label: t('messageDestination.filter.any') }, ...destinationKinds.map((kind) => ({ value: kind, label: kindText(t, kind) }))],
      },
      {
        name: 'state',
        label: t('messageDestination.filter.state'),
        options: [
          { value: '', label: t('messageDestination.filter.any') },
          ...destinationStates.map((state) => ({ value: state, label: t(`forwarding.state.${state.toUpperCase()}` as MessageKey) })),
        ],
      },
    ],
    [t],
  );
  const columns = useMemo<ListColumn<Row>[]>(
    () => [
      { header: t('messageDestination.list.name'), width: 'minmax(140px, 2fr)', text: (row) => row.name },
      { header: t('messageDestination.list.type'), width: 'minmax(90px, 1fr)', text: (row) => kindText(t, kindOfGraphql(row.type)) },
      { header: t('messageDestination.list.organization'), width: 'minmax(120px, 2fr)', text: (row) => row.organization.name, optional: true },
      { header: t('messageDestination.list.state'), width: 'minmax(90px, 1fr)', text: (row) => stateText(t, row.health) },
      { header: t('messageDestination.list.lag'), width: 'minmax(110px, 1fr)', text: (row) => lagText(t, row.health) },
      { header: t('messageDestination.list.delivered'), width: '100px', text: (row) => String(row.health.deliveredCount), optional: true },
      { header: t('messageDestination.list.lastSuccess'), width: 'minmax(140px, 1fr)', text: (row) => whenText(t, row.health.lastSuccessAt), optional: true },
    ],
    [t],
  );

  return (
    <ListScreen
      title={t('messageDestinations.title')}
      filters={filters}
      columns={columns}
      loadPage={loadPage}
      rowKey={(row) => row.hashId}
      rowLink={(row) => `/admin/message-destinations/${row.hashId}/general`}
      exportName="message-destinations"
      empty={t('messageDestination.list.empty')}
      actions={
        <Button permitted={may('messageDestination.create')} onClick={() => navigate('/admin/message-destinations/add')}>
          {t('messageDestination.add')}
        </Button>
      }
    />
  );
}
