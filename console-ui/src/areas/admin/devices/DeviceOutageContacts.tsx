import { Form, Formik } from 'formik';
import { useState } from 'react';
import * as yup from 'yup';
import { deviceUpdateSchema, fleetLimits } from '../../../../../contracts/fleet';
import { Button } from '../../../components/Button';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';
import { Panel } from '../../../devices/DeviceFrame';
import { issuesOfRefusal } from '../../../devices/refusals';
import type { DeviceOutageContacts_DeviceFragment, DeviceUpdateInput } from '../../../graphql/operations';
import { useMessages } from '../../../i18n/messages';
import { NoAccessRefusal, OutageEmailsField, OutageUsersField, usersWithoutAccess, type OutageUser } from './OutageContactFields';
import type { DeviceSave } from './useUpdateDeviceSettings';

interface Values {
  outageEmails: string[];
  outageUsers: OutageUser[];
}

/** The rules of updateDevice (contracts/fleet.ts) for the contacts, with the users as the form holds them. */
const schema = deviceUpdateSchema.pick(['outageEmails']).shape({ outageUsers: yup.array().max(fleetLimits.outageContacts) });

function valuesOf(device: DeviceOutageContacts_DeviceFragment): Values {
  return {
    outageEmails: [...device.outageEmails],
    outageUsers: device.outageUsers.map(({ hashId, name, email }) => ({ hashId, name, email })),
  };
}

const sameList = (one: readonly string[], other: readonly string[]) => one.length === other.length && one.every((value, index) => value === other[index]);

/** Only the lists that changed, each whole, as updateDevice takes them. */
export function outageChanges(before: Values, after: Values): DeviceUpdateInput {
  const input: DeviceUpdateInput = {};
  if (!sameList(before.outageEmails, after.outageEmails)) {
    input.outageEmails = after.outageEmails;
  }
  const userHashIds = after.outageUsers.map((user) => user.hashId);
  if (
    !sameList(
      before.outageUsers.map((user) => user.hashId),
      userHashIds,
    )
  ) {
    input.outageUsersHashIds = userHashIds;
  }
  return input;
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
