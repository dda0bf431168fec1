import { useState } from 'react';
import { useParams } from 'react-router-dom';
import * as yup from 'yup';
import { Button } from '../../../components/Button';
import { FormDialog } from '../../../components/FormDialog';
import { Panel } from '../../../components/ObjectFrame';
import { CheckboxField, TextField } from '../../../components/TextField';
import { useMessages } from '../../../i18n/messages';
import { usePermissions } from '../../../session/usePermissions';
import { Facts, SelectField } from './BillingParts';
import { useOrganizationBilling } from './useOrganizationBilling';

interface SettingsDraft {
  invoiceCustomerReference: string;
  invoiceFrequency: 'DAILY' | 'MONTHLY';
  requireLegalEntityPerDevice: boolean;
  requireCustomerReferencePerDevice: boolean;
  chargePeriod: string;
  runtime: string;
}

const months = yup
  .string()
  .test('months', 'Whole months, 1 or more', (value) => value === undefined || value === '' || (/^\d+$/.test(value) && Number(value) >= 1));
const settingsSchema = yup.object({
  invoiceCustomerReference: yup.string().max(255),
  chargePeriod: months,
  runtime: months.test('both', 'Give both months, or neither', function bothOrNeither(value) {
    const runtimeGiven = (value ?? '') !== '';
    const chargePeriodGiven = ((this.parent as { chargePeriod?: string }).chargePeriod ?? '') !== '';
    return runtimeGiven === chargePeriodGiven;
  }),
});

/** An organisation's invoice settings (/admin/organizations/{hashId}/billing/invoice-settings); Ops, Developer and Sales edit them. */
export function InvoiceSettingsTab() {
  const t = useMessages();
  const { hashId = '' } = useParams();
  const { may } = usePermissions();
  const { organization, save } = useOrganizationBilling(hashId);
  const [editing, setEditing] = useState(false);
  if (organization === undefined) {
    return <p>{t('billing.loading')}</p>;
  }
  const yesNo = (value: boolean) => (value ? t('billing.yes') : t('billing.no'));
  const defaults = organization.subscriptionDefaults;
  return (
    <Panel>
      <h2>{t('billing.settings.title')}</h2>
      <Facts
        rows={[
          [t('billing.settings.invoiceCustomerReference'), organization.invoiceCustomerReference ?? '—'],
          [t('billing.settings.invoiceFrequency'), organization.invoiceFrequency === 'DAILY' ? t('billing.settings.daily') : t('billing.settings.monthly')],
          [t('billing.settings.requireLegalEntityPerDevice'), yesNo(organization.requireLegalEntityPerDevice)],
          [t('billing.settings.requireCustomerReferencePerDevice'), yesNo(organization.requireCustomerReferencePerDevice)],
          [t('billing.settings.subscriptionDefaults'), defaults === null ? '—' : `${defaults.chargePeriod} / ${defaults.runtime}`],
        ]}
      />
      <Button permitted={may('organization.update')} onClick={() => setEditing(true)}>
        {t('billing.edit')}
      </Button>
      {editing && (
        <FormDialog<SettingsDraft>
          title={t('billing.settings.title')}
          initialValues={{
            invoiceCustomerReference: organization.invoiceCustomerReference ?? '',
            invoiceFrequency: organization.invoiceFrequency,
            requireLegalEntityPerDevice: organization.requireLegalEntityPerDevice,
            requireCustomerReferencePerDevice: organization.requireCustomerReferencePerDevice,
            chargePeriod: defaults === null ? '' : String(defaults.chargePeriod),
            runtime: defaults === null ? '' : String(defaults.runtime),
          }}
          validationSchema={settingsSchema}
          submitText={t('billing.settings.save')}
          onClose={() => setEditing(false)}
          onSubmit={async (values) => {
            const reference = values.invoiceCustomerReference.trim();
            const hasDefaults = values.chargePeriod !== '' && values.runtime !== '';
            await save({
              invoiceCustomerReference: reference === '' ? null : reference,
              invoiceFrequency: values.invoiceFrequency,
              requireLegalEntityPerDevice: values.requireLegalEntityPerDevice,
              requireCustomerReferencePerDevice: values.requireCustomerReferencePerDevice,
              subscriptionDefaults: hasDefaults ? { chargePeriod: Number(values.chargePeriod), runtime: Number(values.runtime) } : null,
            });
          }}
        >
          {() => (
            <>
              <TextField name="invoiceCustomerReference" label={t('billing.settings.invoiceCustomerReference')} maxLength={255} />
              <SelectField name="invoiceFrequency" label={t('billing.settings.invoiceFrequency')}>
                <option value="MONTHLY">{t('billing.settings.monthly')}</option>
                <option value="DAILY">{t('billing.settings.daily')}</option>
              </SelectField>
              <CheckboxField name="requireLegalEntityPerDevice" label={t('billing.settings.requireLegalEntityPerDevice')} />
              <CheckboxField name="requireCustomerReferencePerDevice" label={t('billing.settings.requireCustomerReferencePerDevice')} />
              <TextField name="chargePeriod" label={t('billing.settings.defaultChargePeriod')} inputMode="numeric" />
              <TextField name="runtime" label={t('billing.settings.defaultRuntime')} inputMode="numeric" />
            </>
          )}
        </FormDialog>
      )}
    </Panel>
  );
}
