import { useQuery } from '@apollo/client/react';
import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button } from '../../../components/Button';
import { Panel } from '../../../components/ObjectFrame';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { durationText, kindText } from '../../../forwarding/destination-health';
import { kindOfGraphql, messageTypeOfGraphql } from '../../../forwarding/forwarding-enums';
import { useMessages, type MessageKey } from '../../../i18n/messages';
import { ShortList, type ShortListColumn } from '../../../lists/ShortList';
import { usePermissions } from '../../../session/usePermissions';
import { DeviceGroupDestinationsDocument, type DeviceGroupDestinationsQuery } from './DeviceGroupDestinationsTab.generated';
import { useDeviceGroup } from './device-group-outlet';

type Row = DeviceGroupDestinationsQuery['deviceGroupMessageDestinations']['rows'][number];

/**
 * The group's message-destinations tab: the destinations its devices' reports go to, with the
 * message types of each; a row opens that forwarding, Add forwards to another destination.
 */
export function DeviceGroupDestinationsTab() {
  const t = useMessages();
  const navigate = useNavigate();
  const { may } = usePermissions();
  const { group } = useDeviceGroup();
  const { data, error, refetch } = useQuery(DeviceGroupDestinationsDocument, {
    variables: { deviceGroupHashId: group.hashId },
    fetchPolicy: 'cache-and-network',
  });
  useQueryErrorSnackbar(error);
  const base = `/admin/device-groups/${group.hashId}/message-destinations`;
  const columns = useMemo<ShortListColumn<Row>[]>(
    () => [
      {
        header: t('groupForwarding.destination'),
        text: (row) => row.messageDestination.name,
        cell: (row) => <Link to={`${base}/${row.hashId}`}>{row.messageDestination.name}</Link>,
      },
      { header: t('groupForwarding.type'), text: (row) => kindText(t, kindOfGraphql(row.messageDestination.type)) },
      {
        header: t('groupForwarding.messageTypes'),
        text: (row) => row.messageTypes.map((type) => t(`forwarding.messageType.${messageTypeOfGraphql(type)}` as MessageKey)).join(', '),
      },
      {
        header: t('groupForwarding.minInterval'),
        text: (row) => (row.settings.minIntervalSeconds === 0 ? t('groupForwarding.minInterval.every') : durationText(t, row.settings.minIntervalSeconds)),
      },
    ],
    [t, base],
  );
  return (
    <Panel>
      <p>{t('groupForwarding.help', { organization: group.organization.name })}</p>
      <ShortList
        title={t('groupForwarding.title')}
        columns={columns}
        rows={data?.deviceGroupMessageDestinations.rows}
        rowKey={(row) => row.hashId}
        failed={error !== undefined}
        onRetry={() => void refetch()}
        empty={t('groupForwarding.empty')}
        exportName={`device-group-${group.hashId}-message-destinations`}
        actions={
          <Button permitted={may('groupForwarding.create')} onClick={() => void navigate(`${base}/add`)}>
            {t('groupForwarding.add')}
          </Button>
        }
      />
    </Panel>
  );
}
