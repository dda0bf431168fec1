import { useQuery } from '@apollo/client/react';
import { Link, useParams } from 'react-router-dom';
import { Panel } from '../../../components/ObjectFrame';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { useMessages } from '../../../i18n/messages';
import { Facts, Table, when } from './BillingParts';
import { formatEuro } from './billing-form';
import { BillingInvoiceDocument } from './InvoiceScreen.generated';

/** One invoice (/admin/organizations/{hashId}/billing/invoices/{invoiceHashId}): its charges, totals per ledger account, and its PDF. */
export function InvoiceScreen() {
  const t = useMessages();
  const { hashId = '', invoiceHashId = '' } = useParams();
  const { data, error } = useQuery(BillingInvoiceDocument, { variables: { hashId: invoiceHashId } });
  useQueryErrorSnackbar(error);
  const back = <Link to={`/admin/organizations/${hashId}/billing/invoices`}>{t('billing.invoice.back')}</Link>;
  const invoice = data?.billingInvoice;
  if (invoice === undefined) {
    return (
      <Panel>
        <p>{t('billing.loading')}</p>
        {back}
      </Panel>
    );
  }
  return (
    <>
      <Panel>
        <h2>{invoice.publicId}</h2>
        <Facts
          rows={[
            [t('billing.invoices.date'), when(invoice.createdAt)],
            [t('billing.invoices.periodEnd'), when(invoice.periodEnd)],
            [t('billing.invoices.legalEntity'), invoice.billingLegalEntity?.name ?? '—'],
            [t('billing.invoices.customerReference'), invoice.customerReference ?? '—'],
            [t('billing.invoices.total'), formatEuro(invoice.charge)],
          ]}
        />
        <p>
          <a href={invoice.pdfUrl} target="_blank" rel="noreferrer" data-testid="invoice-pdf">
            {t('billing.invoice.pdf')}
          </a>
        </p>
        {back}
      </Panel>
      <Panel>
        <h2>{t('billing.invoice.totals')}</h2>
        <Table aria-label={t('billing.invoice.totals')}>
          <tbody>
            <tr>
              <td>{t('billing.ledger.hardware')}</td>
              <td className="amount">{formatEuro(invoice.totals.hardware)}</td>
            </tr>
            <tr>
              <td>{t('billing.ledger.saas')}</td>
              <td className="amount">{formatEuro(invoice.totals.saas)}</td>
            </tr>
            <tr>
              <td>{t('billing.ledger.consultancy')}</td>
              <td className="amount">{formatEuro(invoice.totals.consultancy)}</td>
            </tr>
            <tr>
              <th>{t('billing.invoices.total')}</th>
              <th className="amount">{formatEuro(invoice.charge)}</th>
            </tr>
          </tbody>
        </Table>
      </Panel>
      <Panel>
        <h2>{t('billing.invoice.charges')}</h2>
        <Table aria-label={t('billing.invoice.charges')}>
          <thead>
            <tr>
              <th>{t('billing.charges.date')}</th>
              <th>{t('billing.charges.device')}</th>
              <th>{t('billing.charges.description')}</th>
              <th>{t('billing.charges.ledgerAccount')}</th>
              <th className="amount">{t('billing.charges.amount')}</th>
            </tr>
          </thead>
          <tbody>
            {invoice.charges.map((charge) => (
              <tr key={charge.hashId}>
                <td>{when(charge.billableAt)}</td>
                <td>{charge.device === null ? '—' : <Link to={`/admin/devices/${charge.device.hashId}/billing/charges`}>{charge.device.name}</Link>}</td>
                <td>{charge.description}</td>
                <td>{charge.ledgerAccount}</td>
                <td className="amount">{formatEuro(charge.charge)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </Panel>
    </>
  );
}
