import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import * as yup from 'yup';
import { Button } from '../../../components/Button';
import { useConfirm } from '../../../components/ConfirmDialog';
import { FormDialog } from '../../../components/FormDialog';
import { useSnackbar } from '../../../components/Snackbars';
import { TextField } from '../../../components/TextField';
import { useApolloErrorSnackbar, useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { useMessages, type MessageKey } from '../../../i18n/messages';
import { usePermissions } from '../../../session/usePermissions';
import { BillingChargesDocument, type BillingChargeList_ChargeFragment } from './BillingChargeList.generated';
import { Actions, Table, when } from './BillingParts';
import { centsOfEuro, formatEuro } from './billing-form';
import { useRefundBillingCharge } from './useRefundBillingCharge';
import { useRemoveBillingCharge } from './useRemoveBillingCharge';

type Charge = BillingChargeList_ChargeFragment;

const refundSchema = yup.object({
  amount: yup
    .string()
    .test('euro', 'A positive amount in euro, such as 12,50', (value) => value === undefined || value.trim() === '' || (centsOfEuro(value) ?? 0) > 0),
  description: yup.string().max(255),
});

/** Whether a charge may be removed: a manual one (manual or shipment) not yet invoiced, and not a refund. */
export function removable(charge: Charge): boolean {
  return charge.reason === 'MANUALLY_ADDED' && charge.invoiceHashId === null && charge.refundOfHashId === null;
}

/**
 * Charges of an organisation or of one device, newest first: remove a manual uninvoiced one,
 * refund one (all or part). Ops and Developer write charges.
 */
export function BillingChargeList({ organizationHashId, deviceHashId }: { organizationHashId: string | null; deviceHashId?: string }) {
  const t = useMessages();
  const { may } = usePermissions();
  const confirm = useConfirm();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const variables = { organizationHashId: deviceHashId === undefined ? organizationHashId : null, deviceHashId: deviceHashId ?? null, rowsPerPage: 100 };
  const { data, error, refetch, fetchMore } = useQuery(BillingChargesDocument, { variables, fetchPolicy: 'cache-and-network' });
  useQueryErrorSnackbar(error);
  const remove = useRemoveBillingCharge();
  const refund = useRefundBillingCharge();
  const [refunding, setRefunding] = useState<Charge | null>(null);

  const rows = data?.billingCharges.rows;
  if (rows === undefined) {
    return <p>{t('billing.loading')}</p>;
  }
  const nextPageOffset = data?.billingCharges.nextPageOffset ?? null;

  const onRemove = async (charge: Charge) => {
    await confirm({
      type: 'danger',
      title: t('billing.charges.removeTitle'),
      message: t('billing.charges.removeMessage', { description: charge.description, amount: formatEuro(charge.charge) }),
      confirmText: t('billing.charges.remove'),
      waitForConfirm: true,
      onConfirm: async () => {
        try {
          await remove(charge.hashId);
          snackbar.show({ tone: 'success', message: t('billing.charges.removed') });
          await refetch();
        } catch (failure) {
          showError(failure);
        }
      },
    });
  };

  return (
    <>
      {rows.length === 0 ? (
        <p>{t('billing.charges.empty')}</p>
      ) : (
        <Table aria-label={t('billing.charges.title')}>
          <thead>
            <tr>
              <th>{t('billing.charges.date')}</th>
              {deviceHashId === undefined && <th>{t('billing.charges.device')}</th>}
              <th>{t('billing.charges.description')}</th>
              <th>{t('billing.charges.reason')}</th>
              <th>{t('billing.charges.ledgerAccount')}</th>
              <th className="amount">{t('billing.charges.amount')}</th>
              <th>{t('billing.charges.invoice')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((charge) => (
              <tr key={charge.hashId}>
                <td>{when(charge.billableAt)}</td>
                {deviceHashId === undefined && (
                  <td>{charge.device === null ? '—' : <Link to={`/admin/devices/${charge.device.hashId}/billing/charges`}>{charge.device.name}</Link>}</td>
                )}
                <td>
                  {charge.description}
                  {charge.from !== null && charge.to !== null && (
                    <small>
                      {' '}
                      ({when(charge.from)} – {when(charge.to)})
                    </small>
                  )}
                </td>
                <td>{charge.reason.toLowerCase().replace(/_/g, ' ')}</td>
                <td>{t(`billing.ledger.${charge.ledgerAccount.toLowerCase()}` as MessageKey)}</td>
                <td className="amount">
                  {formatEuro(charge.charge)}
                  {charge.refunded && <small> ({t('billing.charges.refunded')})</small>}
                </td>
                <td>
                  {charge.invoiceHashId === null || organizationHashId === null ? (
                    (charge.invoicePublicId ?? '—')
                  ) : (
                    <Link to={`/admin/organizations/${organizationHashId}/billing/invoices/${charge.invoiceHashId}`}>{charge.invoicePublicId}</Link>
                  )}
                </td>
                <td>
                  <Actions>
                    {removable(charge) && (
                      <Button variant="text" permitted={may('billingCharge.delete')} onClick={() => void onRemove(charge)}>
                        {t('billing.charges.remove')}
                      </Button>
                    )}
                    {charge.refundOfHashId === null && !charge.refunded && charge.charge > 0 && (
                      <Button variant="text" permitted={may('billingCharge.refund')} onClick={() => setRefunding(charge)}>
                        {t('billing.charges.refund')}
                      </Button>
                    )}
                  </Actions>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {nextPageOffset !== null && (
        <Button
          variant="text"
          onClick={() =>
            void fetchMore({
              variables: { offset: nextPageOffset },
              // The next page goes after the rows shown, not in their place.
              updateQuery: (shown, { fetchMoreResult }) => ({
                ...fetchMoreResult,
                billingCharges: { ...fetchMoreResult.billingCharges, rows: [...shown.billingCharges.rows, ...fetchMoreResult.billingCharges.rows] },
              }),
            })
          }
        >
          {t('billing.charges.more')}
        </Button>
      )}
      {refunding !== null && (
        <FormDialog
          title={t('billing.refund.title')}
          initialValues={{ amount: '', description: '' }}
          validationSchema={refundSchema}
          submitText={t('billing.refund.submit')}
          onClose={() => setRefunding(null)}
          onSubmit={async (values) => {
            try {
              const amount = values.amount.trim();
              const description = values.description.trim();
              await refund(refunding.hashId, {
                charge: amount === '' ? null : centsOfEuro(amount),
                description: description === '' ? null : description,
              });
              snackbar.show({ tone: 'success', message: t('billing.charges.refundedNotice') });
              await refetch();
            } catch (failure) {
              showError(failure);
              throw failure;
            }
          }}
        >
          {() => (
            <>
              <p>
                {refunding.description}: {formatEuro(refunding.charge)}
              </p>
              <TextField name="amount" label={t('billing.refund.amount')} inputMode="decimal" />
              <TextField name="description" label={t('billing.refund.description')} />
            </>
          )}
        </FormDialog>
      )}
    </>
  );
}
