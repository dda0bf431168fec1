import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Button } from '../../../components/Button';
import { Panel } from '../../../components/ObjectFrame';
import { useSnackbar } from '../../../components/Snackbars';
import { useApolloErrorSnackbar, useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { useMessages } from '../../../i18n/messages';
import { usePermissions } from '../../../session/usePermissions';
import { Table } from './BillingParts';
import { emptyLegalEntityDraft, legalEntityInputOf } from './billing-form';
import { BillingLegalEntitiesDocument } from './LegalEntitiesTab.generated';
import { LegalEntityFormDialog } from './LegalEntityFormDialog';
import { useCreateBillingLegalEntity } from './useCreateBillingLegalEntity';

/** An organisation's legal entities (/admin/organizations/{hashId}/billing/legal-entities); each opens its detail. */
export function LegalEntitiesTab() {
  const t = useMessages();
  const { hashId = '' } = useParams();
  const navigate = useNavigate();
  const { may } = usePermissions();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const { data, error } = useQuery(BillingLegalEntitiesDocument, { variables: { organizationHashId: hashId }, fetchPolicy: 'cache-and-network' });
  useQueryErrorSnackbar(error);
  const create = useCreateBillingLegalEntity();
  const [creating, setCreating] = useState(false);
  const rows = data?.billingLegalEntities.rows;
  return (
    <Panel>
      <h2>{t('billing.legal.title')}</h2>
      {rows === undefined && <p>{t('billing.loading')}</p>}
      {rows !== undefined && rows.length === 0 && <p>{t('billing.legal.empty')}</p>}
      {rows !== undefined && rows.length > 0 && (
        <Table aria-label={t('billing.legal.title')}>
          <thead>
            <tr>
              <th>{t('billing.legal.companyName')}</th>
              <th>{t('billing.legal.country')}</th>
              <th>{t('billing.legal.taxNumber')}</th>
              <th>{t('billing.legal.accountingContactId')}</th>
              <th>{t('billing.legal.default')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((entity) => (
              <tr key={entity.hashId}>
                <td>
                  <Link to={`/admin/organizations/${hashId}/billing/legal-entities/${entity.hashId}`}>{entity.companyName}</Link>
                </td>
                <td>{entity.country}</td>
                <td>{entity.taxNumber ?? '—'}</td>
                <td>{entity.accountingContactId ?? '—'}</td>
                <td>{entity.isOrganizationDefault ? t('billing.yes') : ''}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <Button permitted={may('billingLegalEntity.create')} onClick={() => setCreating(true)}>
        {t('billing.legal.create')}
      </Button>
      {creating && (
        <LegalEntityFormDialog
          title={t('billing.legal.createTitle')}
          initialValues={emptyLegalEntityDraft}
          onClose={() => setCreating(false)}
          onSubmit={async (values) => {
            try {
              const entity = await create({ organizationHashId: hashId, ...legalEntityInputOf(values) });
              if (entity !== undefined) {
                snackbar.show({ tone: 'success', message: t('billing.legal.created', { name: entity.companyName }) });
                navigate(`/admin/organizations/${hashId}/billing/legal-entities/${entity.hashId}`);
              }
            } catch (failure) {
              showError(failure);
              throw failure;
            }
          }}
        />
      )}
    </Panel>
  );
}
