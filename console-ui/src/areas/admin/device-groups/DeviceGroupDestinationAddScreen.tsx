import { useMutation } from '@apollo/client/react';
import { Form, Formik } from 'formik';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import styled from 'styled-components';
import * as yup from 'yup';
import type { NamedReference } from '../../../../../contracts/references';
import { Button } from '../../../components/Button';
import { UnsavedChangesGuard } from '../../../components/FormDialog';
import { Panel } from '../../../components/ObjectFrame';
import { useSnackbar } from '../../../components/Snackbars';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';
import { graphqlMessageTypeOf } from '../../../forwarding/forwarding-enums';
import { useMessages } from '../../../i18n/messages';
import { usePermissions } from '../../../session/usePermissions';
import { DestinationPicker } from '../message-destinations/DestinationPicker';
import { AddDeviceGroupDestinationDocument } from './DeviceGroupDestinationAddScreen.generated';
import { useDeviceGroup } from './device-group-outlet';
import { groupForwardingRefusal } from './group-forwarding-refusal';
import { GroupForwardingFields, groupForwardingFormSchema, groupForwardingSettingsOf, type GroupForwardingValues } from './GroupForwardingFields';

interface Values extends GroupForwardingValues {
  messageDestinationHashId: string;
}

const schema = groupForwardingFormSchema.shape({ messageDestinationHashId: yup.string().required() });

/**
 * Forwarding the group to one more destination (/admin/device-groups/{hashId}/message-destinations/add):
 * a destination of the group's organisation, the message types (at least one) and the interval;
 * a type already going to 3 destinations, or a destination already forwarded to, is refused clearly.
 */
export function DeviceGroupDestinationAddScreen() {
  const t = useMessages();
  const navigate = useNavigate();
  const { may } = usePermissions();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const { group } = useDeviceGroup();
  const [add] = useMutation(AddDeviceGroupDestinationDocument);
  const [destination, setDestination] = useState<NamedReference | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [added, setAdded] = useState(false);
  const list = `/admin/device-groups/${group.hashId}/message-destinations`;

  return (
    <Panel>
      <h2>{t('groupForwarding.add.title')}</h2>
      <Formik<Values>
        initialValues={{ messageDestinationHashId: '', messageTypes: [], minIntervalSeconds: '0' }}
        validationSchema={schema}
        onSubmit={async (values) => {
          setRefusal(null);
          try {
            await add({
              variables: {
                input: {
                  deviceGroupHashId: group.hashId,
                  messageDestinationHashId: values.messageDestinationHashId,
                  messageTypes: values.messageTypes.map(graphqlMessageTypeOf),
                  settings: groupForwardingSettingsOf(values),
                },
              },
            });
            setAdded(true);
            snackbar.show({ tone: 'success', message: t('groupForwarding.add.done', { name: destination?.name ?? '' }) });
            void navigate(list);
          } catch (error) {
            const refused = groupForwardingRefusal(t, error);
            if (refused === null) {
              showError(error);
            } else {
              setRefusal(refused);
            }
          }
        }}
      >
        {({ values, errors, touched, submitCount, dirty, isSubmitting, setFieldValue, setFieldTouched }) => (
          <Form noValidate aria-label={t('groupForwarding.add.title')}>
            <UnsavedChangesGuard active={dirty && !isSubmitting && !added} />
            <DestinationPicker
              organizationHashId={group.organizationHashId}
              organizationName={group.organization.name}
              value={destination}
              error={
                errors.messageDestinationHashId !== undefined && (touched.messageDestinationHashId === true || submitCount > 0)
                  ? t('groupForwarding.picker.required')
                  : undefined
              }
              onChange={(chosen) => {
                setDestination(chosen);
                setRefusal(null);
                void setFieldValue('messageDestinationHashId', chosen.hashId);
                void setFieldTouched('messageDestinationHashId', true, false);
              }}
            />
            <GroupForwardingFields />
            {refusal !== null && (
              <Refusal role="alert" data-testid="forwarding-refusal">
                {refusal}
              </Refusal>
            )}
            <Actions>
              <Button variant="text" onClick={() => void navigate(list)}>
                {t('action.cancel')}
              </Button>
              <Button
                type="submit"
                permitted={may('groupForwarding.create')}
                loading={isSubmitting}
                disabled={values.messageTypes.length === 0 && submitCount > 0}
              >
                {t('groupForwarding.add.submit')}
              </Button>
            </Actions>
          </Form>
        )}
      </Formik>
    </Panel>
  );
}

const Actions = styled.div`
  display: flex;
  gap: 8px;
`;

const Refusal = styled.p`
  padding: 10px 14px;
  border: 1px solid ${({ theme }) => theme.colors.error};
  border-radius: ${({ theme }) => theme.radius}px;
  color: ${({ theme }) => theme.colors.error};
`;
