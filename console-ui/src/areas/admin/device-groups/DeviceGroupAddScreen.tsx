import { useMutation } from '@apollo/client/react';
import { Form, Formik } from 'formik';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import styled from 'styled-components';
import { deviceGroupCreateSchema } from '../../../../../contracts/device-group';
import { fleetLimits } from '../../../../../contracts/fleet';
import { Button } from '../../../components/Button';
import { UnsavedChangesGuard } from '../../../components/FormDialog';
import { Panel } from '../../../components/ObjectFrame';
import { TextField } from '../../../components/TextField';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';
import { CreateDeviceGroupDocument } from './DeviceGroupAddScreen.generated';
import { useMessages } from '../../../i18n/messages';
import { usePermissions } from '../../../session/usePermissions';
import { OrganizationPicker, type PickedOrganization } from '../organizations/OrganizationPicker';
import { NoAccessRefusal, OutageEmailsField, outageUsersSchema, OutageUsersField, usersWithoutAccess, type OutageUser } from '../devices/OutageContactFields';

interface Values {
  name: string;
  organizationHashId: string;
  deviceOutageEmails: string[];
  deviceOutageUsers: OutageUser[];
}

const initialValues: Values = { name: '', organizationHashId: '', deviceOutageEmails: [], deviceOutageUsers: [] };

/** The rules of createDeviceGroup (contracts/device-group.ts), with the users as the form holds them. */
const deviceGroupFormSchema = deviceGroupCreateSchema
  .pick(['name', 'organizationHashId', 'deviceOutageEmails'])
  .shape({ deviceOutageUsers: outageUsersSchema });

/**
 * A new device group (/admin/device-groups/add): its name, organisation (for good) and outage
 * contacts; the users must be able to see its devices (user_has_no_access names those who cannot).
 */
export function DeviceGroupAddScreen() {
  const t = useMessages();
  const navigate = useNavigate();
  const { may } = usePermissions();
  const showError = useApolloErrorSnackbar();
  const [create] = useMutation(CreateDeviceGroupDocument);
  const [organization, setOrganization] = useState<PickedOrganization | null>(null);
  const [refused, setRefused] = useState<string[] | null>(null);
  const [created, setCreated] = useState(false);
  const permitted = may('deviceGroup.create');

  return (
    <section>
      <h1>{t('deviceGroup.add.title')}</h1>
      <Panel>
        <Formik<Values>
          initialValues={initialValues}
          validationSchema={deviceGroupFormSchema}
          onSubmit={async (values) => {
            setRefused(null);
            try {
              const { data } = await create({
                variables: {
                  input: {
                    name: values.name.trim(),
                    organizationHashId: values.organizationHashId,
                    deviceOutageEmails: values.deviceOutageEmails,
                    deviceOutageUsersHashIds: values.deviceOutageUsers.map((user) => user.hashId),
                  },
                },
              });
              if (data !== undefined) {
                setCreated(true);
                void navigate(`/admin/device-groups/${data.createDeviceGroup.hashId}/general`);
              }
            } catch (error) {
              const users = usersWithoutAccess(error, values.deviceOutageUsers);
              if (users === null) {
                showError(error);
              } else {
                setRefused(users);
              }
            }
          }}
        >
          {({ values, errors, touched, submitCount, dirty, isSubmitting, setValues, setFieldTouched }) => (
            <Form noValidate aria-label={t('deviceGroup.add.title')}>
              <UnsavedChangesGuard active={dirty && !isSubmitting && !created} />
              <TextField name="name" label={t('deviceGroup.field.name')} maxLength={fleetLimits.deviceGroupNameLength} />
              <OrganizationPicker
                label={t('deviceGroup.field.organization')}
                value={organization}
                error={
                  errors.organizationHashId !== undefined && (touched.organizationHashId === true || submitCount > 0)
                    ? t('deviceGroup.add.organizationRequired')
                    : undefined
                }
                onChange={(chosen) => {
                  setOrganization(chosen);
                  // Outage users are users of the organisation: another organisation starts the list again.
                  void setValues({ ...values, organizationHashId: chosen.hashId, deviceOutageUsers: [] });
                  void setFieldTouched('organizationHashId', true, false);
                }}
              />
              <OutageEmailsField name="deviceOutageEmails" label={t('outage.emails')} />
              <OutageUsersField name="deviceOutageUsers" label={t('outage.users')} organizationHashId={organization?.hashId ?? null} />
              {refused !== null && <NoAccessRefusal users={refused} />}
              <Actions>
                <Button variant="text" onClick={() => void navigate('/admin/device-groups')}>
                  {t('action.cancel')}
                </Button>
                <Button type="submit" permitted={permitted} loading={isSubmitting}>
                  {t('deviceGroup.add.submit')}
                </Button>
              </Actions>
            </Form>
          )}
        </Formik>
      </Panel>
    </section>
  );
}

const Actions = styled.div`
  display: flex;
  gap: 8px;
`;
