import { useMutation, useQuery } from '@apollo/client/react';
import { Form, Formik } from 'formik';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import styled from 'styled-components';
import { Button } from '../../../components/Button';
import { useConfirm } from '../../../components/ConfirmDialog';
import { UnsavedChangesGuard } from '../../../components/FormDialog';
import { LoadFailed } from '../../../components/LoadFailed';
import { Panel } from '../../../components/ObjectFrame';
import { useSnackbar } from '../../../components/Snackbars';
import { useApolloErrorSnackbar, useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { kindText } from '../../../forwarding/destination-health';
import { graphqlMessageTypeOf, kindOfGraphql, messageTypeOfGraphql } from '../../../forwarding/forwarding-enums';
import { useMessages } from '../../../i18n/messages';
import { usePermissions } from '../../../session/usePermissions';
import {
  DeviceGroupDestinationDocument,
  RemoveDeviceGroupDestinationDocument,
  UpdateDeviceGroupDestinationDocument,
} from './DeviceGroupDestinationScreen.generated';
import { useDeviceGroup } from './device-group-outlet';
import { groupForwardingRefusal } from './group-forwarding-refusal';
import { GroupForwardingFields, groupForwardingFormSchema, groupForwardingSettingsOf, type GroupForwardingValues } from './GroupForwardingFields';

/**
 * One forwarding of the group (/admin/device-groups/{hashId}/message-destinations/{deviceGroupDestinationHashId}):
 * its message types and interval to change, or stopping it (asked first).
 */
export function DeviceGroupDestinationScreen() {
  const t = useMessages();
  const { deviceGroupDestinationHashId = '' } = useParams();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const { may } = usePermissions();
  const { group } = useDeviceGroup();
  const { data, error, refetch } = useQuery(DeviceGroupDestinationDocument, {
    variables: { hashId: deviceGroupDestinationHashId },
    fetchPolicy: 'cache-and-network',
  });
  useQueryErrorSnackbar(error);
  const [update] = useMutation(UpdateDeviceGroupDestinationDocument);
  const [remove, { loading: removing }] = useMutation(RemoveDeviceGroupDestinationDocument);
  const [refusal, setRefusal] = useState<string | null>(null);
  const forwarding = data?.deviceGroupMessageDestination;
  const initialValues = useMemo<GroupForwardingValues | null>(
    () =>
      forwarding === undefined
        ? null
        : { messageTypes: forwarding.messageTypes.map(messageTypeOfGraphql), minIntervalSeconds: String(forwarding.settings.minIntervalSeconds) },
    [forwarding],
  );
  const list = `/admin/device-groups/${group.hashId}/message-destinations`;

  if (forwarding === undefined || initialValues === null) {
    return error === undefined ? <p>{t('loading')}</p> : <LoadFailed message={t('groupForwarding.failed')} onRetry={() => void refetch()} />;
  }
  const name = forwarding.messageDestination.name;

  const onRemove = async () => {
    const confirmed = await confirm({
      type: 'danger',
      title: t('groupForwarding.remove.title', { name }),
      message: t('groupForwarding.remove.message'),
      confirmText: t('groupForwarding.remove'),
    });
    if (!confirmed) {
      return;
    }
    try {
      await remove({ variables: { hashId: forwarding.hashId } });
      snackbar.show({ tone: 'success', message: t('groupForwarding.removed', { name }) });
      void navigate(list);
    } catch (failure) {
      showError(failure);
    }
  };

  return (
    <Panel>
      <Title>
        <h2>{t('groupForwarding.edit.title', { name })}</h2>
        <Button variant="danger" permitted={may('groupForwarding.delete')} loading={removing} onClick={() => void onRemove()}>
          {t('groupForwarding.remove')}
        </Button>
      </Title>
      <p>
        {kindText(t, kindOfGraphql(forwarding.messageDestination.type))} ·{' '}
        <Link to={`/admin/message-destinations/${forwarding.messageDestination.hashId}/general`}>{t('groupForwarding.edit.openDestination')}</Link> ·{' '}
        <Link to={list}>{t('groupForwarding.back')}</Link>
      </p>
      <Formik<GroupForwardingValues>
        initialValues={initialValues}
        enableReinitialize
        validationSchema={groupForwardingFormSchema}
        onSubmit={async (values) => {
          setRefusal(null);
          try {
            await update({
              variables: {
                hashId: forwarding.hashId,
                input: { messageTypes: values.messageTypes.map(graphqlMessageTypeOf), settings: groupForwardingSettingsOf(values) },
              },
            });
            await refetch();
            snackbar.show({ tone: 'success', message: t('groupForwarding.edit.saved') });
          } catch (failure) {
            const refused = groupForwardingRefusal(t, failure);
            if (refused === null) {
              showError(failure);
            } else {
              setRefusal(refused);
            }
          }
        }}
      >
        {({ dirty, isSubmitting }) => (
          <Form noValidate aria-label={t('groupForwarding.edit.title', { name })}>
            <UnsavedChangesGuard active={dirty && !isSubmitting} />
            <GroupForwardingFields disabled={!may('groupForwarding.update')} />
            {refusal !== null && (
              <Refusal role="alert" data-testid="forwarding-refusal">
                {refusal}
              </Refusal>
            )}
            <Button type="submit" permitted={may('groupForwarding.update')} disabled={!dirty} loading={isSubmitting}>
              {t('groupForwarding.edit.save')}
            </Button>
          </Form>
        )}
      </Formik>
    </Panel>
  );
}

const Title = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
`;

const Refusal = styled.p`
  padding: 10px 14px;
  border: 1px solid ${({ theme }) => theme.colors.error};
  border-radius: ${({ theme }) => theme.radius}px;
  color: ${({ theme }) => theme.colors.error};
`;
