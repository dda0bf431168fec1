import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { Button } from '../../../components/Button';
import { Panel } from '../../../components/ObjectFrame';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { useDebouncedValue } from '../../../components/useDebouncedValue';
import { useMessages } from '../../../i18n/messages';
import { Table, when } from './BillingParts';
import { formatEuro } from './billing-form';
import { BillingInvoicesDocument } from './OrganizationInvoicesTab.generated';

/** An organisation's invoices, newest first, filtered by public id; each opens its detail. */
export function OrganizationInvoicesTab() {
  const t = useMessages();
  const { hashId = '' } = useParams();
  const [filter, setFilter] = useState('');
  const debounced = useDebouncedValue(filter, 300);
  const { data, error, fetchMore } = useQuery(BillingInvoicesDocument, {
    variables: { organizationHashId: hashId, filter: debounced.trim() === '' ? null : debounced.trim() },
    fetchPolicy: 'cache-and-network',
  });
  useQueryErrorSnackbar(error);
  const rows = data?.billingInvoices.rows;
  const next = data?.billingInvoices.nextPageOffset ?? null;
  return (
    <Panel>
      <h2>{t('billing.invoices.title')}</h2>
      <label>
        {t('billing.invoices.filter')} <input value={filter} onChange={(event) => setFilter(event.target.value)} />
      </label>
      {rows === undefined && <p>{t('billing.loading')}</p>}
      {rows !== undefined && rows.length === 0 && <p>{t('billing.invoices.empty')}</p>}
      {rows !== undefined && rows.length > 0 && (
        <Table aria-label={t('billing.invoices.title')}>
          <thead>
            <tr>
              <th>{t('billing.invoices.publicId')}</th>
              <th>{t('billing.invoices.date')}</th>
              <th>{t('billing.invoices.legalEntity')}</th>
              <th>{t('billing.invoices.customerReference')}</th>
              <th>{t('billing.invoices.periodEnd')}</th>
              <th className="amount">{t('billing.invoices.chargeCount')}</th>
              <th className="amount">{t('billing.invoices.total')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((invoice) => (
              <tr key={invoice.hashId}>
                <td>
                  <Link to={`/admin/organizations/${hashId}/billing/invoices/${invoice.hashId}`}>{invoice.publicId}</Link>
                </td>
                <td>{when(invoice.createdAt)}</td>
                <td>{invoice.billingLegalEntity?.name ?? '—'}</td>
                <td>{invoice.customerReference ?? '—'}</td>
                <td>{when(invoice.periodEnd)}</td>
                <td className="amount">{invoice.chargeCount}</td>
                <td className="amount">{formatEuro(invoice.charge)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {next !== null && (
        <Button
          variant="text"
          onClick={() =>
            void fetchMore({
              variables: { offset: next },
              // The next page goes after the rows shown, not in their place.
              updateQuery: (shown, { fetchMoreResult }) => ({
                ...fetchMoreResult,
                billingInvoices: { ...fetchMoreResult.billingInvoices, rows: [...shown.billingInvoices.rows, ...fetchMoreResult.billingInvoices.rows] },
              }),
            })
          }
        >
          {t('billing.charges.more')}
        </Button>
      )}
    </Panel>
  );
}
