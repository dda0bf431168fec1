import { Outlet, useParams } from 'react-router-dom';
import { useMessages } from '../../../i18n/messages';
import { SubTabs } from './BillingParts';

/**
 * An organisation's billing tab (/admin/organizations/{hashId}/billing/...): invoices, legal
 * entities, invoice settings, pricing and charges, each its own route.
 */
export function OrganizationBillingTab() {
  const t = useMessages();
  const { hashId = '' } = useParams();
  const base = `/admin/organizations/${hashId}/billing`;
  return (
    <>
      <SubTabs
        label={t('organizations.tab.billing')}
        tabs={[
          { to: `${base}/invoices`, label: t('billing.tab.invoices') },
          { to: `${base}/legal-entities`, label: t('billing.tab.legalEntities') },
          { to: `${base}/invoice-settings`, label: t('billing.tab.invoiceSettings') },
          { to: `${base}/pricing`, label: t('billing.tab.pricing') },
          { to: `${base}/charges`, label: t('billing.tab.charges') },
        ]}
      />
      <Outlet />
    </>
  );
}
