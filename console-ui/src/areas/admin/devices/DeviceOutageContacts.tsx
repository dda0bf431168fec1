import { Form, Formik } from 'formik';
import { useState } from 'react';
import { deviceUpdateSchema } from '../../../../../contracts/fleet';
import { Button } from '../../../components/Button';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';
import { Panel } from '../../../devices/DeviceFrame';
import { issuesOfRefusal } from '../../../devices/refusals';
import type { DeviceOutageContacts_DeviceFragment } from './DeviceOutageContacts.generated';
import type { DeviceUpdateInput } from './useUpdateDeviceSettings.generated';
import { useMessages } from '../../../i18n/messages';
import {
  changedContacts,
  NoAccessRefusal,
  OutageEmailsField,
  outageUsersOf,
  outageUsersSchema,
  OutageUsersField,
  usersWithoutAccess,
  type OutageUser,
} from './OutageContactFields';
import type { DeviceSave } from './useUpdateDeviceSettings';

interface Values {
  outageEmails: string[];
  outageUsers: OutageUser[];
}

/** The rules of updateDevice (contracts/fleet.ts) for the contacts, with the users as the form holds them. */
const schema = deviceUpdateSchema.pick(['outageEmails']).shape({ outageUsers: outageUsersSchema });

function valuesOf(device: DeviceOutageContacts_DeviceFragment): Values {
  return {
    outageEmails: [...device.outageEmails],
    outageUsers: outageUsersOf(device.outageUsers),
  };
}

/** Only the lists that changed, each whole, as updateDevice takes them. */
export function outageChanges(before: Values, after: Values): DeviceUpdateInput {
  const changed = changedContacts({ emails: before.outageEmails, users: before.outageUsers }, { emails: after.outageEmails, users: after.outageUsers });
  return {
    ...(changed.emails === undefined ? {} : { outageEmails: changed.emails }),
    ...(changed.userHashIds === undefined ? {} : { outageUsersHashIds: changed.userHashIds }),
  };
}

export interface DeviceOutageContactsProps {
  device: DeviceOutageContacts_DeviceFragment;
  permitted: boolean;
  save: DeviceSave;
}

/**
 * Who is told when the device goes offline: emails, and users who can see the device (staff, or
 * users of its organisation or partners while it is exposed to the customer); the server refuses
 * others with user_has_no_access, named here.
 */
export function DeviceOutageContacts({ device, permitted, save }: DeviceOutageContactsProps) {
  const t = useMessages();
  const showError = useApolloErrorSnackbar();
  const initial = valuesOf(device);
  const [refused, setRefused] = useState<string[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <Panel>
      <h2>{t('outage.title')}</h2>
      <Formik<Values>
        initialValues={initial}
        enableReinitialize
        validationSchema={schema}
        onSubmit={async (values) => {
          setRefused(null);
          setProblem(null);
          try {
            await save(outageChanges(initial, values));
          } catch (error) {
            const users = usersWithoutAccess(error, values.outageUsers);
            const issues = users === null ? issuesOfRefusal(error) : null;
            if (users !== null) {
              setRefused(users);
            } else if (issues !== null) {
              setProblem(issues.map((issue) => issue.message).join(' '));
            } else {
              showError(error);
            }
          }
        }}
      >
        {({ dirty, isSubmitting }) => (
          <Form noValidate aria-label={t('outage.title')}>
            <OutageEmailsField name="outageEmails" label={t('outage.emails')} disabled={!permitted} />
            <OutageUsersField name="outageUsers" label={t('outage.users')} disabled={!permitted} />
            {refused !== null && <NoAccessRefusal users={refused} />}
            {problem !== null && <p role="alert">{problem}</p>}
            <Button type="submit" permitted={permitted} disabled={!dirty} loading={isSubmitting}>
              {t('outage.save')}
            </Button>
          </Form>
        )}
      </Formik>
    </Panel>
  );
}
