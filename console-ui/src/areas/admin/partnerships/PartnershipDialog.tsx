import { Field, useField, type FormikHelpers } from 'formik';
import { useState } from 'react';
import * as yup from 'yup';
import { fleetLimits } from '../../../../../contracts/fleet';
import { partnershipCreateSchema } from '../../../../../contracts/partnership';
import type { NamedReference } from '../../../../../contracts/references';
import { apiErrorOfApollo } from '../../../api/apollo';
import { fieldErrorsOfRefusal } from '../../../api/field-refusals';
import { FormDialog } from '../../../components/FormDialog';
import { CheckboxField, TextField } from '../../../components/TextField';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';
import type { OrganizationPartnershipsTab_PartnershipFragment } from './OrganizationPartnershipsTab.generated';
import type { PartnershipRole } from '../../customer/access/PartnershipList.generated';
import { useMessages } from '../../../i18n/messages';
import { DevicePicker } from './DevicePicker';
import { OrganizationPicker } from '../organizations/OrganizationPicker';
import { Problem, SelectLabel } from './partnership.styles';
import { useCreatePartnership } from './useCreatePartnership';
import { useUpdatePartnership } from './useUpdatePartnership';

export interface PartnershipValues {
  partner: NamedReference | null;
  role: PartnershipRole;
  description: string;
  allDevices: boolean;
  devices: readonly NamedReference[];
}

const roles: readonly PartnershipRole[] = ['VIEWER', 'OPERATOR'];

/** The partnership contract's rules for the fields the dialog edits; a partnership that lists devices lists one at least. */
function schemaOf(t: ReturnType<typeof useMessages>, creating: boolean) {
  return yup.object({
    partner: creating ? yup.object().nullable().required(t('partnership.partner.required')) : yup.object().nullable(),
    description: partnershipCreateSchema.fields.description,
    devices: yup
      .array()
      .max(fleetLimits.partnershipDevices)
      .when('allDevices', { is: false, then: (devices) => devices.min(1, t('partnership.devices.required')) }),
  });
}

/** The form field a refused input's path names (partnerOrganizationHashId, description); any other (deviceHashIds[3]: a device that is not the owner's) is the device picker's. */
function partnershipFieldOf(path: string): keyof PartnershipValues {
  if (path.startsWith('partnerOrganizationHashId')) {
    return 'partner';
  }
  if (path === 'description' || path === 'role') {
    return path;
  }
  return 'devices';
}

/** Creating: the owner is the organisation whose tab this is. Editing: the partnership. */
export type PartnershipDialogSubject =
  { kind: 'create'; owner: NamedReference } | { kind: 'edit'; partnership: OrganizationPartnershipsTab_PartnershipFragment };

export interface PartnershipDialogProps {
  subject: PartnershipDialogSubject;
  onSaved: () => void;
  onClose: () => void;
}

/**
 * Creates a partnership of the owner with a partner found by name, or edits one's role,
 * description and devices (all the owner's, or those chosen in the device picker). The server's
 * refusals are shown in the dialog: already_configured above the fields, a device that is not
 * the owner's under the picker.
 */
export function PartnershipDialog({ subject, onSaved, onClose }: PartnershipDialogProps) {
  const t = useMessages();
  const showError = useApolloErrorSnackbar();
  const create = useCreatePartnership();
  const update = useUpdatePartnership();
  const [refusal, setRefusal] = useState<string | null>(null);
  const creating = subject.kind === 'create';
  const owner = creating ? subject.owner : subject.partnership.owner;
  const initialValues: PartnershipValues = creating
    ? { partner: null, role: 'VIEWER', description: '', allDevices: false, devices: [] }
    : {
        partner: subject.partnership.partner,
        role: subject.partnership.role,
        description: subject.partnership.description,
        allDevices: subject.partnership.allDevices,
        devices: subject.partnership.devices,
      };

  const save = async (values: PartnershipValues, helpers: FormikHelpers<PartnershipValues>) => {
    setRefusal(null);
    const deviceHashIds = values.allDevices ? [] : values.devices.map((device) => device.hashId);
    const fields = { role: values.role, description: values.description.trim(), allDevices: values.allDevices, deviceHashIds };
    try {
      if (subject.kind === 'create') {
        await create({ ownerOrganizationHashId: owner.hashId, partnerOrganizationHashId: values.partner?.hashId ?? '', ...fields });
      } else {
        await update(subject.partnership.hashId, fields);
      }
    } catch (error) {
      const fieldErrors = fieldErrorsOfRefusal(error, partnershipFieldOf);
      if (apiErrorOfApollo(error)?.is('already_configured')) {
        setRefusal(t('partnership.refusal.alreadyConfigured'));
      } else if (fieldErrors !== null) {
        for (const [field, message] of Object.entries(fieldErrors)) {
          helpers.setFieldError(field, message);
        }
      } else {
        showError(error);
      }
      throw error;
    }
    onSaved();
  };

  return (
    <FormDialog<PartnershipValues>
      title={creating ? t('partnership.create.title') : t('partnership.edit.title')}
      initialValues={initialValues}
      validationSchema={schemaOf(t, creating)}
      onSubmit={save}
      onClose={onClose}
      submitText={creating ? t('partnership.create.submit') : undefined}
    >
      {({ values }) => (
        <>
          {refusal !== null && <Problem role="alert">{refusal}</Problem>}
          <p>{t('partnership.owner', { name: owner.name })}</p>
          {creating ? (
            <PartnerField label={t('partnership.partner')} ownerHashId={owner.hashId} />
          ) : (
            <p>{t('partnership.partner.chosen', { name: subject.partnership.partner.name })}</p>
          )}
          <SelectLabel>
            {t('partnership.role')}
            <Field as="select" name="role">
              {roles.map((role) => (
                <option key={role} value={role}>
                  {t(`partnership.role.${role}`)}
                </option>
              ))}
            </Field>
          </SelectLabel>
          <TextField name="description" label={t('partnership.description')} maxLength={fleetLimits.partnershipDescriptionLength} />
          <CheckboxField name="allDevices" label={t('partnership.allDevices', { name: owner.name })} />
          {!values.allDevices && <DevicePicker name="devices" label={t('partnership.devices')} organizationHashId={owner.hashId} />}
        </>
      )}
    </FormDialog>
  );
}

/** The partner organisation, the dialog's `partner` field; the owner is not offered, as it cannot be its own partner. */
function PartnerField({ label, ownerHashId }: { label: string; ownerHashId: string }) {
  const [field, meta, helpers] = useField<NamedReference | null>('partner');
  return (
    <OrganizationPicker
      label={label}
      value={field.value}
      onChange={({ hashId, name }) => void helpers.setValue({ hashId, name })}
      error={meta.touched ? meta.error : undefined}
      excludeHashId={ownerHashId}
    />
  );
}
