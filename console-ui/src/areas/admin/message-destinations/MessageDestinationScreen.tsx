import { useMutation, useQuery } from '@apollo/client/react';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router-dom';
import { LoadFailed } from '../../../components/LoadFailed';
import { ObjectFrame, Panel } from '../../../components/ObjectFrame';
import { useSnackbar } from '../../../components/Snackbars';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { kindText } from '../../../forwarding/destination-health';
import { kindOfGraphql, messageTypeOfGraphql } from '../../../forwarding/forwarding-enums';
import { useMessages, type MessageKey } from '../../../i18n/messages';
import { ShortList, type ShortListColumn } from '../../../lists/ShortList';
import { usePermissions } from '../../../session/usePermissions';
import { ObjectAuditLog } from '../audit/ObjectAuditLog';
import { destinationChanges, destinationFormValues } from './destination-form';
import { DestinationForm } from './DestinationForm';
import { DestinationHealthPanel } from './DestinationHealthPanel';
import {
  MessageDestinationDocument,
  MessageDestinationGroupsDocument,
  UpdateMessageDestinationDocument,
  type MessageDestinationGroupsQuery,
} from './MessageDestinationScreen.generated';

/**
 * A message destination's page (/admin/message-destinations/{hashId}/general): how delivery
 * stands (read again while open) with resume, its settings to edit (the kind fixed, secrets kept
 * unless retyped), the device groups forwarding to it, and its history.
 */
export function MessageDestinationScreen() {
  const t = useMessages();
  const { hashId = '' } = useParams();
  const { may } = usePermissions();
  const snackbar = useSnackbar();
  const { data, error, refetch } = useQuery(MessageDestinationDocument, { variables: { hashId }, fetchPolicy: 'cache-and-network' });
  useQueryErrorSnackbar(error);
  const [update] = useMutation(UpdateMessageDestinationDocument);
  const destination = data?.messageDestination;
  const kind = destination === undefined ? null : kindOfGraphql(destination.type);
  const initialValues = useMemo(
    () =>
      destination === undefined || kind === null
        ? null
        : destinationFormValues(kind, { ...destination, destination: destination.destination as Record<string, unknown> }),
    [destination, kind],
  );

  if (destination === undefined || kind === null || initialValues === null) {
    return error === undefined ? <p>{t('loading')}</p> : <LoadFailed message={t('messageDestination.failed')} onRetry={() => void refetch()} />;
  }

  return (
    <ObjectFrame
      title={destination.name}
      subtitle={
        <>
          {kindText(t, kind)} · <Link to={`/admin/organizations/${destination.organization.hashId}/general`}>{destination.organization.name}</Link>
        </>
      }
      tabs={[{ to: `/admin/message-destinations/${hashId}/general`, label: t('messageDestination.tab.general') }]}
    >
      <DestinationHealthPanel hashId={hashId} name={destination.name} />
      <Panel>
        <h2>{t('messageDestination.edit.title')}</h2>
        <DestinationForm
          kind={kind}
          initialValues={initialValues}
          secretsSet={destination.secretsSet}
          organization={() => (
            <p>
              {t('messageDestination.field.organization')}:{' '}
              <Link to={`/admin/organizations/${destination.organization.hashId}/general`}>{destination.organization.name}</Link>
            </p>
          )}
          onSubmit={async (values) => {
            await update({ variables: { hashId, input: destinationChanges(kind, initialValues, values, destination.secretsSet) } });
            await refetch();
            snackbar.show({ tone: 'success', message: t('messageDestination.edit.saved') });
          }}
          submitText={t('messageDestination.edit.save')}
          permitted={may('messageDestination.update')}
          onlyChanges
        />
      </Panel>
      <DestinationGroups hashId={hashId} />
      <Panel>
        <h2>{t('messageDestination.history')}</h2>
        <ObjectAuditLog objectType="MESSAGE_DESTINATIONS" hashId={hashId} label={t('messageDestination.history')} />
      </Panel>
    </ObjectFrame>
  );
}

type GroupRow = MessageDestinationGroupsQuery['deviceGroupMessageDestinations']['rows'][number];

/** The device groups forwarding here, each linked to its forwarding on the group's tab. */
function DestinationGroups({ hashId }: { hashId: string }) {
  const t = useMessages();
  const { data, error, refetch } = useQuery(MessageDestinationGroupsDocument, {
    variables: { messageDestinationHashId: hashId },
    fetchPolicy: 'cache-and-network',
  });
  useQueryErrorSnackbar(error);
  const columns = useMemo<ShortListColumn<GroupRow>[]>(
    () => [
      {
        header: t('messageDestination.groups.group'),
        text: (row) => row.deviceGroup.name,
        cell: (row) => <Link to={`/admin/device-groups/${row.deviceGroup.hashId}/message-destinations/${row.hashId}`}>{row.deviceGroup.name}</Link>,
      },
      {
        header: t('messageDestination.groups.messageTypes'),
        text: (row) => row.messageTypes.map((type) => t(`forwarding.messageType.${messageTypeOfGraphql(type)}` as MessageKey)).join(', '),
      },
    ],
    [t],
  );
  const rows = data?.deviceGroupMessageDestinations.rows;
  return (
    <Panel>
      <ShortList
        title={t('messageDestination.groups.title')}
        columns={columns}
        rows={rows}
        rowKey={(row) => row.hashId}
        failed={error !== undefined}
        onRetry={() => void refetch()}
        empty={t('messageDestination.groups.empty')}
        exportName={`message-destination-${hashId}-groups`}
        footer={
          rows !== undefined &&
          data?.deviceGroupMessageDestinations.nextPageOffset !== null && <p>{t('messageDestination.groups.more', { count: rows.length })}</p>
        }
      />
    </Panel>
  );
}
