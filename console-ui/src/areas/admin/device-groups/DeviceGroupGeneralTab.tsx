import { useMutation, useQuery } from '@apollo/client/react';
import { Form, Formik } from 'formik';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { deviceGroupUpdateSchema } from '../../../../../contracts/device-group';
import { fleetLimits } from '../../../../../contracts/fleet';
import { Button } from '../../../components/Button';
import { Panel } from '../../../components/ObjectFrame';
import { useSnackbar } from '../../../components/Snackbars';
import { TextField } from '../../../components/TextField';
import { useApolloErrorSnackbar, useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import {
  DeviceGroupDevicesDocument,
  UpdateDeviceGroupDocument,
  type DeviceGroupDevicesQuery,
  type DeviceGroupUpdateInput,
} from './DeviceGroupGeneralTab.generated';
import { useMessages } from '../../../i18n/messages';
import { ShortList, type ShortListColumn } from '../../../lists/ShortList';
import { usePermissions } from '../../../session/usePermissions';
import { ObjectAuditLog } from '../audit/ObjectAuditLog';
import {
  changedContacts,
  NoAccessRefusal,
  OutageEmailsField,
  outageUsersOf,
  outageUsersSchema,
  OutageUsersField,
  usersWithoutAccess,
  type OutageUser,
} from '../devices/OutageContactFields';
import { useDeviceGroup, type DeviceGroup } from './device-group-outlet';

interface Values {
  name: string;
  deviceOutageEmails: string[];
  deviceOutageUsers: OutageUser[];
}

/** The rules of updateDeviceGroup (contracts/device-group.ts), with the users as the form holds them. */
const schema = deviceGroupUpdateSchema.pick(['name', 'deviceOutageEmails']).shape({ deviceOutageUsers: outageUsersSchema });

function valuesOf(group: DeviceGroup): Values {
  return {
    name: group.name,
    deviceOutageEmails: [...group.deviceOutageEmails],
    deviceOutageUsers: outageUsersOf(group.deviceOutageUsers),
  };
}

/** Only what changed, as updateDeviceGroup takes it (each list whole). */
export function deviceGroupChanges(before: Values, after: Values): DeviceGroupUpdateInput {
  const changed = changedContacts(
    { emails: before.deviceOutageEmails, users: before.deviceOutageUsers },
    { emails: after.deviceOutageEmails, users: after.deviceOutageUsers },
  );
  return {
    ...(after.name.trim() === before.name ? {} : { name: after.name.trim() }),
    ...(changed.emails === undefined ? {} : { deviceOutageEmails: changed.emails }),
    ...(changed.userHashIds === undefined ? {} : { deviceOutageUsersHashIds: changed.userHashIds }),
  };
}

/** The group's general tab: its name and outage contacts (editable), its organisation, its devices and its history. */
export function DeviceGroupGeneralTab() {
  const t = useMessages();
  const { group, reload } = useDeviceGroup();
  const { may } = usePermissions();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const [update] = useMutation(UpdateDeviceGroupDocument);
  const [refused, setRefused] = useState<string[] | null>(null);
  const permitted = may('deviceGroup.update');
  const initial = valuesOf(group);

  return (
    <>
      <Panel>
        <h2>{t('deviceGroup.general.title')}</h2>
        <Organization>
          {t('deviceGroup.field.organization')}: <Link to={`/admin/organizations/${group.organization.hashId}/general`}>{group.organization.name}</Link>
        </Organization>
        <Formik<Values>
          initialValues={initial}
          enableReinitialize
          validationSchema={schema}
          onSubmit={async (values) => {
            setRefused(null);
            try {
              await update({ variables: { hashId: group.hashId, input: deviceGroupChanges(initial, values) } });
              await reload();
              snackbar.show({ tone: 'success', message: t('deviceGroup.general.saved') });
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
          {({ dirty, isSubmitting }) => (
            <Form noValidate aria-label={t('deviceGroup.general.title')}>
              <TextField name="name" label={t('deviceGroup.field.name')} maxLength={fleetLimits.deviceGroupNameLength} disabled={!permitted} />
              <OutageEmailsField name="deviceOutageEmails" label={t('outage.emails')} disabled={!permitted} />
              <OutageUsersField name="deviceOutageUsers" label={t('outage.users')} organizationHashId={group.organizationHashId} disabled={!permitted} />
              {refused !== null && <NoAccessRefusal users={refused} />}
              <Button type="submit" permitted={permitted} disabled={!dirty} loading={isSubmitting}>
                {t('deviceGroup.general.save')}
              </Button>
            </Form>
          )}
        </Formik>
      </Panel>
      <GroupDevices hashId={group.hashId} />
      <Panel>
        <h2>{t('deviceGroup.history')}</h2>
        <ObjectAuditLog objectType="DEVICE_GROUPS" hashId={group.hashId} label={t('deviceGroup.history')} />
      </Panel>
    </>
  );
}

type GroupDevice = DeviceGroupDevicesQuery['devices']['rows'][number];

/** The devices in the group, each linked to its page; exported as CSV. Devices join a group from their settings tab. */
function GroupDevices({ hashId }: { hashId: string }) {
  const t = useMessages();
  // Read again each time the tab opens: devices move in and out from their own pages.
  const { data, error, refetch } = useQuery(DeviceGroupDevicesDocument, {
    variables: { deviceGroupHashId: hashId },
    fetchPolicy: 'cache-and-network',
  });
  useQueryErrorSnackbar(error);
  const columns: ShortListColumn<GroupDevice>[] = [
    { header: t('device.list.name'), text: (device) => device.name, cell: (device) => <Link to={`/admin/devices/${device.hashId}`}>{device.name}</Link> },
    { header: t('device.list.identifier'), text: (device) => device.identifier },
    { header: t('device.list.state'), text: (device) => t(device.isOnline ? 'device.online' : 'device.offline') },
  ];
  return (
    <Panel>
      <ShortList
        title={t('deviceGroup.devices.title')}
        columns={columns}
        rows={data?.devices.rows}
        rowKey={(device) => device.hashId}
        failed={error !== undefined}
        onRetry={() => void refetch()}
        empty={t('deviceGroup.devices.empty')}
        exportName={`device-group-${hashId}-devices`}
        footer={
          (data?.devices.nextPageOffset ?? null) !== null && (
            <p>
              <Link to={`/admin/devices?deviceGroupHashId=${encodeURIComponent(hashId)}`}>{t('deviceGroup.devices.more')}</Link>
            </p>
          )
        }
      />
    </Panel>
  );
}

const Organization = styled.p`
  margin-top: 0;
`;
