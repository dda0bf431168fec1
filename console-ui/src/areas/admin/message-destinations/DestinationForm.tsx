import { Form, Formik } from 'formik';
import { useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { forwardingLimits, type DestinationKind } from '../../../../../contracts/forwarding';
import { Button } from '../../../components/Button';
import { UnsavedChangesGuard } from '../../../components/FormDialog';
import { CheckboxField, TextField } from '../../../components/TextField';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';
import { kindText } from '../../../forwarding/destination-health';
import { useMessages } from '../../../i18n/messages';
import { NoAccessRefusal, OutageEmailsField, OutageUsersField, usersWithoutAccess } from '../devices/OutageContactFields';
import { destinationFormErrors, destinationFormSchema, destinationRefusalOf, type DestinationFormValues } from './destination-form';
import { DestinationSettingsFields } from './DestinationSettingsFields';

export interface DestinationFormProps {
  kind: DestinationKind;
  initialValues: DestinationFormValues;
  /** Editing: the secrets the server holds (empty fields keep them); null for a new destination. */
  secretsSet: readonly string[] | null;
  /**
   * The organisation: a picker on a new destination (it calls `choose` with the hash id, or
   * an empty one), its name on a saved one; the outage users are offered from it.
   */
  organization: (choose: (hashId: string) => void, error: string | undefined) => ReactNode;
  /** Saves; a refusal the form can place is shown at its fields, any other failure as its snackbar. */
  onSubmit: (values: DestinationFormValues) => Promise<void>;
  submitText: string;
  /** False when the user may not save: every field and the button disabled, with the "no permission" hint. */
  permitted: boolean;
  /** The button waits for a change (a saved destination). */
  onlyChanges?: boolean;
  /** Beside the save button (Cancel). */
  actions?: ReactNode;
  /** The form leaves the page on success (a new destination opens its own): no leave warning then. */
  leavesOnSuccess?: boolean;
}

/**
 * A message destination as a form on a page: its name and organisation, the kind (fixed once
 * created), the kind's settings drawn from its schema, outage contacts and its monitor. The
 * server's refusals show where they belong: an invalid setting at the setting, an address it may
 * not reach at the address, users without access by name.
 */
export function DestinationForm({
  kind,
  initialValues,
  secretsSet,
  organization,
  onSubmit,
  submitText,
  permitted,
  onlyChanges = false,
  actions,
  leavesOnSuccess = false,
}: DestinationFormProps) {
  const t = useMessages();
  const showError = useApolloErrorSnackbar();
  const [general, setGeneral] = useState<string[]>([]);
  const [refusedUsers, setRefusedUsers] = useState<string[] | null>(null);
  const [done, setDone] = useState(false);
  const kept = secretsSet ?? [];

  return (
    <Formik<DestinationFormValues>
      initialValues={initialValues}
      enableReinitialize
      validationSchema={destinationFormSchema}
      validate={(values) => destinationFormErrors(kind, values, kept)}
      onSubmit={async (values, helpers) => {
        setGeneral([]);
        setRefusedUsers(null);
        try {
          await onSubmit(values);
          setDone(leavesOnSuccess);
        } catch (error) {
          const users = usersWithoutAccess(error, values.outageUsers);
          if (users !== null) {
            setRefusedUsers(users);
            return;
          }
          const refusal = destinationRefusalOf(error, kind, values, {
            addressNotAllowed: t('messageDestination.refusal.addressNotAllowed'),
            changingType: t('messageDestination.refusal.changingType'),
          });
          if (refusal === null) {
            showError(error);
            return;
          }
          for (const [field, message] of Object.entries(refusal.fields)) {
            void helpers.setFieldTouched(field, true, false);
            helpers.setFieldError(field, message);
          }
          setGeneral(refusal.general);
        }
      }}
    >
      {(form) => (
        <Form noValidate aria-label={submitText}>
          <UnsavedChangesGuard active={form.dirty && !form.isSubmitting && !done} />
          <Fields disabled={!permitted}>
            <TextField name="name" label={t('messageDestination.field.name')} maxLength={forwardingLimits.destinationNameLength} />
            {organization(
              (hashId) => {
                // Outage users are users of the organisation: another organisation starts the list again.
                void form.setValues({ ...form.values, organizationHashId: hashId, outageUsers: [] });
                void form.setFieldTouched('organizationHashId', true, false);
              },
              form.errors.organizationHashId !== undefined && (form.touched.organizationHashId === true || form.submitCount > 0)
                ? t('messageDestination.add.organizationRequired')
                : undefined,
            )}
            <Kind>
              {t('messageDestination.field.type')}: <strong data-testid="destination-kind">{kindText(t, kind)}</strong>
            </Kind>
            <h3>{t('messageDestination.section.settings')}</h3>
            <DestinationSettingsFields kind={kind} secretsSet={secretsSet} disabled={!permitted} />
            <h3>{t('messageDestination.section.contacts')}</h3>
            <OutageEmailsField name="outageEmails" label={t('outage.emails')} disabled={!permitted} />
            <OutageUsersField
              name="outageUsers"
              label={t('outage.users')}
              organizationHashId={form.values.organizationHashId === '' ? null : form.values.organizationHashId}
              disabled={!permitted}
            />
            {refusedUsers !== null && <NoAccessRefusal users={refusedUsers} />}
            <h3>{t('messageDestination.section.monitor')}</h3>
            <CheckboxField name="monitorSettings.enabled" label={t('messageDestination.monitor.enabled')} />
            <TextField
              name="monitorSettings.maxLagSeconds"
              label={t('messageDestination.monitor.maxLagSeconds')}
              help={t('messageDestination.monitor.maxLagSeconds.help')}
              inputMode="numeric"
            />
          </Fields>
          {general.length > 0 && (
            <Refusals role="alert" data-testid="destination-refusals">
              {general.map((message, index) => (
                <li key={index}>{message}</li>
              ))}
            </Refusals>
          )}
          <Actions>
            {actions}
            <Button type="submit" permitted={permitted} disabled={onlyChanges && !form.dirty} loading={form.isSubmitting}>
              {submitText}
            </Button>
          </Actions>
        </Form>
      )}
    </Formik>
  );
}

const Fields = styled.fieldset`
  border: 0;
  padding: 0;
  margin: 0;
  max-width: 560px;
  h3 {
    margin: 18px 0 10px;
    font-size: 16px;
  }
`;

const Kind = styled.p`
  margin: 0 0 12px;
`;

const Refusals = styled.ul`
  color: ${({ theme }) => theme.colors.error};
  padding-left: 20px;
`;

const Actions = styled.div`
  display: flex;
  gap: 8px;
`;
