import { ledgerAccounts } from '../../../../../contracts/billing';
import { FormDialog } from '../../../components/FormDialog';
import { useSnackbar } from '../../../components/Snackbars';
import { TextField } from '../../../components/TextField';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';
import { useMessages, type MessageKey } from '../../../i18n/messages';
import { SelectField } from './BillingParts';
import { chargeDraftSchema, chargeInputOf, emptyChargeDraft, type ChargeDraft } from './billing-form';
import { useAddBillingCharge } from './useAddBillingCharge';

/** The add-charge dialog: a manual charge in euro (sent in cents) of an organisation, of one of its devices when given. */
export function AddChargeDialog({
  organizationHashId,
  deviceHashId,
  onClose,
}: {
  organizationHashId: string;
  deviceHashId: string | null;
  onClose: () => void;
}) {
  const t = useMessages();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const add = useAddBillingCharge();
  return (
    <FormDialog<ChargeDraft>
      title={t('billing.add.title')}
      initialValues={emptyChargeDraft}
      validationSchema={chargeDraftSchema}
      submitText={t('billing.add.submit')}
      onClose={onClose}
      onSubmit={async (values) => {
        try {
          await add(chargeInputOf(values, organizationHashId, deviceHashId));
          snackbar.show({ tone: 'success', message: t('billing.add.added') });
        } catch (failure) {
          showError(failure);
          throw failure;
        }
      }}
    >
      {() => (
        <>
          <TextField name="description" label={t('billing.add.description')} maxLength={255} />
          <TextField name="amount" label={t('billing.add.amount')} help={t('billing.add.amountHelp')} inputMode="decimal" />
          <SelectField name="ledgerAccount" label={t('billing.add.ledgerAccount')}>
            {ledgerAccounts.map((account) => (
              <option key={account} value={account}>
                {t(`billing.ledger.${account}` as MessageKey)}
              </option>
            ))}
          </SelectField>
          <SelectField name="source" label={t('billing.add.source')}>
            <option value="manual">{t('billing.source.manual')}</option>
            <option value="shipment">{t('billing.source.shipment')}</option>
          </SelectField>
          <TextField name="billableAt" label={t('billing.add.billableAt')} type="datetime-local" />
        </>
      )}
    </FormDialog>
  );
}
