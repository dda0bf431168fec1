import { useQuery } from '@apollo/client/react';
import { Form, Formik, useFormikContext } from 'formik';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { Button } from '../../../components/Button';
import { useApolloErrorSnackbar, useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { Panel } from '../../../devices/DeviceFrame';
import { issuesOfRefusal } from '../../../devices/refusals';
import { DevicePlacementGroupsDocument, type DevicePlacement_DeviceFragment } from './DevicePlacement.generated';
import type { DeviceUpdateInput } from './useUpdateDeviceSettings.generated';
import type { NamedReference } from '../../../../../contracts/references';
import { useMessages } from '../../../i18n/messages';
import { OrganizationPicker } from '../organizations/OrganizationPicker';
import type { DeviceSave } from './useUpdateDeviceSettings';

interface Values {
  organization: NamedReference | null;
  deviceGroupHashId: string | null;
}

function valuesOf(device: DevicePlacement_DeviceFragment): Values {
  return {
    organization: device.organization === null ? null : { hashId: device.organization.hashId, name: device.organization.name },
    deviceGroupHashId: device.deviceGroupHashId,
  };
}

/**
 * What updateDevice takes to move the device. A group belongs to one organisation, so a move to
 * another organisation always names the group too (none, or one of the new organisation's).
 */
export function placementChanges(before: Values, after: Values): DeviceUpdateInput {
  const input: DeviceUpdateInput = {};
  const organizationHashId = after.organization?.hashId ?? null;
  if (organizationHashId !== (before.organization?.hashId ?? null)) {
    input.organizationHashId = organizationHashId;
    input.deviceGroupHashId = after.deviceGroupHashId;
  } else if (after.deviceGroupHashId !== before.deviceGroupHashId) {
    input.deviceGroupHashId = after.deviceGroupHashId;
  }
  return input;
}

/** The group select: the chosen organisation's groups, and "no group". */
function GroupSelect({ device, disabled }: { device: DevicePlacement_DeviceFragment; disabled: boolean }) {
  const t = useMessages();
  const id = useId();
  const { values, setFieldValue } = useFormikContext<Values>();
  const organizationHashId = values.organization?.hashId ?? null;
  const { data, error } = useQuery(DevicePlacementGroupsDocument, {
    variables: { organizationHashId: organizationHashId ?? '' },
    skip: organizationHashId === null,
  });
  useQueryErrorSnackbar(error);
  // Until the groups are read, the device's own group stays nameable.
  const saved = device.deviceGroup !== null && organizationHashId === device.organizationHashId ? [device.deviceGroup] : [];
  const groups = data?.deviceGroups.rows ?? saved;
  return (
    <Field>
      <label htmlFor={id}>{t('device.placement.group')}</label>
      <select
        id={id}
        value={values.deviceGroupHashId ?? ''}
        disabled={disabled || organizationHashId === null}
        onChange={(event) => void setFieldValue('deviceGroupHashId', event.target.value === '' ? null : event.target.value)}
      >
        <option value="">{t('device.placement.noGroup')}</option>
        {groups.map((group) => (
          <option key={group.hashId} value={group.hashId}>
            {group.name}
          </option>
        ))}
      </select>
      {values.deviceGroupHashId !== null && <Link to={`/admin/device-groups/${values.deviceGroupHashId}/general`}>{t('device.placement.openGroup')}</Link>}
    </Field>
  );
}

export interface DevicePlacementProps {
  device: DevicePlacement_DeviceFragment;
  /** Whether the user may change the device. */
  permitted: boolean;
  save: DeviceSave;
}

/** The device's organisation and group: moved with updateDevice; a device in production keeps its organisation (in_production). */
export function DevicePlacement({ device, permitted, save }: DevicePlacementProps) {
  const t = useMessages();
  const initial = valuesOf(device);
  const showError = useApolloErrorSnackbar();
  const [refusal, setRefusal] = useState<string | null>(null);
  return (
    <Panel>
      <h2>{t('device.placement.title')}</h2>
      <Formik<Values>
        initialValues={initial}
        enableReinitialize
        onSubmit={async (values) => {
          setRefusal(null);
          try {
            await save(placementChanges(initial, values));
          } catch (error) {
            const issues = issuesOfRefusal(error);
            if (issues === null) {
              showError(error);
            } else {
              setRefusal(issues.map((issue) => issue.message).join(' '));
            }
          }
        }}
      >
        {({ values, setValues, dirty, isSubmitting }) => (
          <Form noValidate aria-label={t('device.placement.title')}>
            <OrganizationPicker
              label={t('device.placement.organization')}
              value={values.organization}
              disabled={!permitted}
              onChange={({ hashId, name }) => void setValues({ organization: { hashId, name }, deviceGroupHashId: null })}
              onClear={() => void setValues({ organization: null, deviceGroupHashId: null })}
            />
            {values.organization !== null && (
              <p>
                <Link to={`/admin/organizations/${values.organization.hashId}/general`}>{t('device.placement.openOrganization')}</Link>
              </p>
            )}
            <GroupSelect device={device} disabled={!permitted} />
            {refusal !== null && <Refusal role="alert">{refusal}</Refusal>}
            <Button type="submit" permitted={permitted} disabled={!dirty} loading={isSubmitting}>
              {t('device.placement.save')}
            </Button>
          </Form>
        )}
      </Formik>
    </Panel>
  );
}

const Field = styled.div`
  display: flex;
  flex-direction: column;
  gap: 4px;
  max-width: 480px;
  margin-bottom: 14px;
  label {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
  select {
    min-height: 36px;
    padding: 0 8px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: 6px;
  }
`;

const Refusal = styled.p`
  color: ${({ theme }) => theme.colors.error};
`;
