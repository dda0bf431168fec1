import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { Button } from '../../../components/Button';
import { Panel } from '../../../components/ObjectFrame';
import { useMessages } from '../../../i18n/messages';
import { usePermissions } from '../../../session/usePermissions';
import { AddChargeDialog } from './AddChargeDialog';
import { BillingChargeList } from './BillingChargeList';

/** An organisation's charges, of all its devices and of its own (/admin/organizations/{hashId}/billing/charges). */
export function OrganizationChargesTab() {
  const t = useMessages();
  const { hashId = '' } = useParams();
  const { may } = usePermissions();
  const [adding, setAdding] = useState(false);
  return (
    <Panel>
      <h2>{t('billing.charges.title')}</h2>
      <BillingChargeList organizationHashId={hashId} />
      <Button permitted={may('billingCharge.create')} onClick={() => setAdding(true)}>
        {t('billing.add.submit')}
      </Button>
      {adding && <AddChargeDialog organizationHashId={hashId} deviceHashId={null} onClose={() => setAdding(false)} />}
    </Panel>
  );
}
