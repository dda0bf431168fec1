import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Button } from '../../../components/Button';
import { useConfirm } from '../../../components/ConfirmDialog';
import { Panel } from '../../../components/ObjectFrame';
import { useSnackbar } from '../../../components/Snackbars';
import { useApolloErrorSnackbar, useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { useMessages } from '../../../i18n/messages';
import { usePermissions } from '../../../session/usePermissions';
import { Actions, Facts } from './BillingParts';
import { legalEntityInputOf, type LegalEntityDraft } from './billing-form';
import { BillingLegalEntityDocument, type LegalEntityScreen_EntityFragment } from './LegalEntityScreen.generated';
import { LegalEntityFormDialog } from './LegalEntityFormDialog';
import { useDeleteBillingLegalEntity } from './useDeleteBillingLegalEntity';
import { useUpdateBillingLegalEntity } from './useUpdateBillingLegalEntity';

function draftOf(entity: LegalEntityScreen_EntityFragment): LegalEntityDraft {
  return {
    accountingContactId: entity.accountingContactId ?? '',
    companyName: entity.companyName,
    address1: entity.address1 ?? '',
    address2: entity.address2 ?? '',
    zipcode: entity.zipcode ?? '',
    city: entity.city ?? '',
    country: entity.country,
    emails: entity.emails.join(', '),
    chamberOfCommerce: entity.chamberOfCommerce ?? '',
    taxNumber: entity.taxNumber ?? '',
    isOrganizationDefault: entity.isOrganizationDefault,
  };
}

/** One legal entity (/admin/organizations/{hashId}/billing/legal-entities/{billingLegalEntityHashId}): its details, edit and delete. */
export function LegalEntityScreen() {
  const t = useMessages();
  const { hashId = '', billingLegalEntityHashId = '' } = useParams();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const { may } = usePermissions();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const { data, error } = useQuery(BillingLegalEntityDocument, { variables: { hashId: billingLegalEntityHashId } });
  useQueryErrorSnackbar(error);
  const update = useUpdateBillingLegalEntity();
  const remove = useDeleteBillingLegalEntity();
  const [editing, setEditing] = useState(false);
  const list = `/admin/organizations/${hashId}/billing/legal-entities`;
  const entity = data?.billingLegalEntity;
  if (entity === undefined) {
    return (
      <Panel>
        <p>{t('billing.loading')}</p>
        <Link to={list}>{t('billing.legal.back')}</Link>
      </Panel>
    );
  }
  const onDelete = () =>
    confirm({
      type: 'danger',
      title: t('billing.legal.deleteTitle'),
      message: t('billing.legal.deleteMessage', { name: entity.companyName }),
      confirmText: t('billing.legal.delete'),
      waitForConfirm: true,
      onConfirm: async () => {
        try {
          await remove(entity.hashId);
          snackbar.show({ tone: 'success', message: t('billing.legal.deleted') });
          navigate(list);
        } catch (failure) {
          showError(failure);
        }
      },
    });
  return (
    <Panel>
      <h2>{entity.companyName}</h2>
      <Facts
        rows={[
          [t('billing.legal.address1'), [entity.address1, entity.address2].filter((line) => line !== null).join(', ') || '—'],
          [t('billing.legal.zipcode'), entity.zipcode ?? '—'],
          [t('billing.legal.city'), entity.city ?? '—'],
          [t('billing.legal.country'), entity.country],
          [t('billing.legal.emails'), entity.emails.join(', ') || '—'],
          [t('billing.legal.chamberOfCommerce'), entity.chamberOfCommerce ?? '—'],
          [t('billing.legal.taxNumber'), entity.taxNumber ?? '—'],
          [t('billing.legal.accountingContactId'), entity.accountingContactId ?? '—'],
          [t('billing.legal.isOrganizationDefault'), entity.isOrganizationDefault ? t('billing.yes') : t('billing.no')],
        ]}
      />
      <Actions>
        <Button permitted={may('billingLegalEntity.update')} onClick={() => setEditing(true)}>
          {t('billing.edit')}
        </Button>
        <Button variant="danger" permitted={may('billingLegalEntity.delete')} onClick={() => void onDelete()}>
          {t('billing.legal.delete')}
        </Button>
        <Link to={list}>{t('billing.legal.back')}</Link>
      </Actions>
      {editing && (
        <LegalEntityFormDialog
          title={t('billing.legal.editTitle')}
          initialValues={draftOf(entity)}
          onClose={() => setEditing(false)}
          onSubmit={async (values) => {
            const input = legalEntityInputOf(values);
            try {
              // An unchanged contact id is not sent again: it would fill the details in from Moneybird over the edits.
              const { accountingContactId, ...details } = input;
              const contactChanged = accountingContactId !== entity.accountingContactId;
              await update(entity.hashId, contactChanged ? input : details);
              snackbar.show({ tone: 'success', message: t('billing.saved') });
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
