import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Link, Outlet, useNavigate, useParams } from 'react-router-dom';
import styled from 'styled-components';
import { apiErrorOfApollo } from '../../../api/apollo';
import { Button } from '../../../components/Button';
import { LoadFailed } from '../../../components/LoadFailed';
import { useConfirm } from '../../../components/ConfirmDialog';
import { ObjectFrame } from '../../../components/ObjectFrame';
import { useSnackbar } from '../../../components/Snackbars';
import { useApolloErrorSnackbar, useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { DeleteDeviceGroupDocument, DeviceGroupDocument } from './DeviceGroupFrame.generated';
import { useMessages } from '../../../i18n/messages';
import { usePermissions } from '../../../session/usePermissions';
import type { DeviceGroup, DeviceGroupOutlet } from './device-group-outlet';

/** Why the server kept a group (not_empty, has_access) as the page says it; null for any other failure. */
function useDeleteRefusal(): (error: unknown, group: DeviceGroup) => string | null {
  const t = useMessages();
  return (error, group) => {
    const apiError = apiErrorOfApollo(error);
    if (apiError?.is('not_empty')) {
      const counted = (apiError.details as { deviceCount?: unknown } | null | undefined)?.deviceCount;
      const count = typeof counted === 'number' ? counted : group.deviceCount;
      return count === 1 ? t('deviceGroup.delete.notEmptyOne') : t('deviceGroup.delete.notEmpty', { count });
    }
    if (apiError?.is('has_access')) {
      return t('deviceGroup.delete.hasAccess');
    }
    return null;
  };
}

/**
 * A device group's page (/admin/device-groups/{hashId}): its name, its organisation, the tabs
 * (general, api-keys, message-destinations) and the tab shown; deleting it asks first, and a group
 * that still has devices or linked keys is kept, saying why.
 */
export function DeviceGroupFrame() {
  const t = useMessages();
  const { hashId = '' } = useParams();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const refusalOf = useDeleteRefusal();
  const { may } = usePermissions();
  // Read again each time the page opens: devices join and leave the group from their own pages.
  const { data, error, refetch } = useQuery(DeviceGroupDocument, { variables: { hashId }, fetchPolicy: 'cache-and-network' });
  useQueryErrorSnackbar(error);
  const [remove, { loading: deleting }] = useMutation(DeleteDeviceGroupDocument);
  const [refusal, setRefusal] = useState<string | null>(null);
  const group = data?.deviceGroup;

  if (group === undefined) {
    return error === undefined ? <p>{t('loading')}</p> : <LoadFailed message={t('deviceGroup.failed')} onRetry={() => void refetch()} />;
  }

  const onDelete = async () => {
    const confirmed = await confirm({
      type: 'danger',
      title: t('deviceGroup.delete.title'),
      message: t('deviceGroup.delete.message', { name: group.name }),
      confirmText: t('deviceGroup.delete.confirm'),
    });
    if (!confirmed) {
      return;
    }
    setRefusal(null);
    try {
      await remove({ variables: { hashId } });
      snackbar.show({ tone: 'success', message: t('deviceGroup.delete.done', { name: group.name }) });
      void navigate('/admin/device-groups');
    } catch (failure) {
      const refused = refusalOf(failure, group);
      if (refused === null) {
        showError(failure);
      } else {
        setRefusal(refused);
      }
    }
  };

  const base = `/admin/device-groups/${hashId}`;
  const outlet: DeviceGroupOutlet = { group, reload: refetch };
  return (
    <ObjectFrame
      title={group.name}
      subtitle={<Link to={`/admin/organizations/${group.organization.hashId}/general`}>{group.organization.name}</Link>}
      actions={
        <Button variant="danger" permitted={may('deviceGroup.delete')} loading={deleting} onClick={() => void onDelete()}>
          {t('deviceGroup.delete')}
        </Button>
      }
      tabs={[
        { to: `${base}/general`, label: t('deviceGroup.tab.general') },
        { to: `${base}/api-keys`, label: t('deviceGroup.tab.apiKeys') },
        { to: `${base}/message-destinations`, label: t('deviceGroup.tab.messageDestinations') },
      ]}
    >
      {refusal !== null && (
        <Refusal role="alert" data-testid="delete-refusal">
          {refusal}
        </Refusal>
      )}
      <Outlet context={outlet} />
    </ObjectFrame>
  );
}

const Refusal = styled.p`
  padding: 10px 14px;
  border: 1px solid ${({ theme }) => theme.colors.error};
  border-radius: ${({ theme }) => theme.radius}px;
  color: ${({ theme }) => theme.colors.error};
`;
