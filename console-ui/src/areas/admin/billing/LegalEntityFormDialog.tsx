import { FormDialog } from '../../../components/FormDialog';
import { CheckboxField, TextField } from '../../../components/TextField';
import { useMessages } from '../../../i18n/messages';
import { legalEntityDraftSchema, type LegalEntityDraft } from './billing-form';

/** The legal-entity form: full details, or a Moneybird contact id alone; the EU tax-number rule is checked as typed. */
export function LegalEntityFormDialog({
  title,
  initialValues,
  onSubmit,
  onClose,
}: {
  title: string;
  initialValues: LegalEntityDraft;
  onSubmit: (values: LegalEntityDraft) => Promise<void>;
  onClose: () => void;
}) {
  const t = useMessages();
  return (
    <FormDialog<LegalEntityDraft> title={title} initialValues={initialValues} validationSchema={legalEntityDraftSchema} onClose={onClose} onSubmit={onSubmit}>
      {() => (
        <>
          <TextField
            name="accountingContactId"
            label={t('billing.legal.accountingContactId')}
            help={t('billing.legal.accountingContactHelp')}
            inputMode="numeric"
          />
          <TextField name="companyName" label={t('billing.legal.companyName')} maxLength={255} />
          <TextField name="address1" label={t('billing.legal.address1')} maxLength={255} />
          <TextField name="address2" label={t('billing.legal.address2')} maxLength={255} />
          <TextField name="zipcode" label={t('billing.legal.zipcode')} maxLength={32} />
          <TextField name="city" label={t('billing.legal.city')} maxLength={255} />
          <TextField name="country" label={t('billing.legal.country')} maxLength={2} />
          <TextField name="emails" label={t('billing.legal.emails')} help={t('billing.legal.emailsHelp')} />
          <TextField name="chamberOfCommerce" label={t('billing.legal.chamberOfCommerce')} maxLength={64} />
          <TextField name="taxNumber" label={t('billing.legal.taxNumber')} maxLength={64} />
          <CheckboxField name="isOrganizationDefault" label={t('billing.legal.isOrganizationDefault')} />
        </>
      )}
    </FormDialog>
  );
}
