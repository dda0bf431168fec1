import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from '../../../components/Button';
import { useConfirm } from '../../../components/ConfirmDialog';
import { Panel } from '../../../components/ObjectFrame';
import { FormDialog } from '../../../components/FormDialog';
import { useSnackbar } from '../../../components/Snackbars';
import { CheckboxField, TextField } from '../../../components/TextField';
import { useApolloErrorSnackbar, useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { useMessages } from '../../../i18n/messages';
import { usePermissions } from '../../../session/usePermissions';
import { AddChargeDialog } from './AddChargeDialog';
import { BillingChargeList } from './BillingChargeList';
import { Actions, Facts, SelectField, SubTabs, Table, euro, when } from './BillingParts';
import type { DeviceInvoiceDetailsInput } from '../../../graphql/schema-types';
import { AdminDeviceBillingDocument, type DeviceBillingTab_DeviceFragment } from './DeviceBillingTab.generated';
import { BillingLegalEntitiesDocument } from './LegalEntitiesTab.generated';
import type { DeviceBillingSection } from './sections';
import { subscriptionDraftOf, subscriptionDraftSchema, subscriptionOfDraft, type SubscriptionDraft } from './billing-form';
import { useUpdateDeviceInvoiceDetails } from './useUpdateDeviceInvoiceDetails';

type Device = DeviceBillingTab_DeviceFragment;

interface Subscription {
  usage: boolean;
  chargePeriod: number;
  runtime: number;
  afterExpiration: { usage: boolean; chargePeriod: number; runtime: number } | null;
  startAt: string;
}

/**
 * A device's billing tab (/admin/devices/{hashId}/billing/...): its subscription and usage, its
 * invoice details (Ops and Sales edit both), its charges, and the add-charge dialog (Ops and
 * Developer).
 */
export function DeviceBillingTab({ hashId, section }: { hashId: string; section: DeviceBillingSection }) {
  const t = useMessages();
  const navigate = useNavigate();
  const { data, error } = useQuery(AdminDeviceBillingDocument, { variables: { hashId }, fetchPolicy: 'cache-and-network' });
  useQueryErrorSnackbar(error);
  const device = data?.device;
  const base = `/admin/devices/${hashId}/billing`;
  return (
    <>
      <SubTabs
        label={t('device.tab.billing')}
        tabs={[
          { to: `${base}/subscription`, label: t('device.billing.subscription') },
          { to: `${base}/invoicing`, label: t('device.billing.invoicing') },
          { to: `${base}/charges`, label: t('device.billing.charges') },
          { to: `${base}/add-charge`, label: t('device.billing.addCharge') },
        ]}
      />
      {device === undefined ? (
        <p>{t('billing.loading')}</p>
      ) : (
        <>
          {section === 'subscription' && <SubscriptionPanel device={device} />}
          {section === 'subscription' && <UsagePanel device={device} />}
          {section === 'invoicing' && <InvoicingPanel device={device} />}
          {(section === 'charges' || section === 'add-charge') && (
            <Panel>
              <h2>{t('billing.charges.title')}</h2>
              <BillingChargeList organizationHashId={device.organizationHashId} deviceHashId={device.hashId} />
              <ChargeButton device={device} onAdd={() => navigate(`${base}/add-charge`)} />
            </Panel>
          )}
          {section === 'add-charge' && device.organizationHashId !== null && (
            <AddChargeDialog organizationHashId={device.organizationHashId} deviceHashId={device.hashId} onClose={() => navigate(`${base}/charges`)} />
          )}
        </>
      )}
    </>
  );
}

function ChargeButton({ device, onAdd }: { device: Device; onAdd: () => void }) {
  const t = useMessages();
  const { may } = usePermissions();
  return (
    <Button permitted={may('billingCharge.create')} disabled={device.organizationHashId === null} onClick={onAdd}>
      {t('billing.add.submit')}
    </Button>
  );
}

/** Saves the device's invoice details or subscription and says so, or shows the refusal (and throws it for the caller). */
function useSaveInvoiceDetails(hashId: string) {
  const update = useUpdateDeviceInvoiceDetails();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const t = useMessages();
  return async (input: DeviceInvoiceDetailsInput) => {
    try {
      await update(hashId, input);
      snackbar.show({ tone: 'success', message: t('billing.saved') });
    } catch (failure) {
      showError(failure);
      throw failure;
    }
  };
}

function SubscriptionPanel({ device }: { device: Device }) {
  const t = useMessages();
  const { may } = usePermissions();
  const confirm = useConfirm();
  const [editing, setEditing] = useState(false);
  const save = useSaveInvoiceDetails(device.hashId);
  const subscription = device.subscription as Subscription | null;
  const yesNo = (value: boolean) => (value ? t('billing.yes') : t('billing.no'));
  const canEdit = may('device.updateInvoiceDetails');
  // Removing the subscription stops the automatic charges: it asks first, and stays open to try again if refused.
  const onRemove = () =>
    confirm({
      type: 'danger',
      title: t('billing.subscription.removeTitle'),
      message: t('billing.subscription.removeMessage'),
      confirmText: t('billing.subscription.remove'),
      waitForConfirm: true,
      onConfirm: async () => save({ subscription: null }),
    });
  return (
    <Panel>
      <h2>{t('billing.subscription.title')}</h2>
      {subscription === null ? (
        <p>{t('billing.subscription.none')}</p>
      ) : (
        <Facts
          rows={[
            [t('billing.subscription.usage'), yesNo(subscription.usage)],
            [t('billing.subscription.chargePeriod'), subscription.chargePeriod],
            [t('billing.subscription.runtime'), subscription.runtime],
            [t('billing.subscription.startAt'), when(subscription.startAt)],
            [
              t('billing.subscription.afterExpiration'),
              subscription.afterExpiration === null
                ? t('billing.subscription.afterNone')
                : `${yesNo(subscription.afterExpiration.usage)} · ${subscription.afterExpiration.chargePeriod} / ${subscription.afterExpiration.runtime}`,
            ],
            [t('billing.subscription.chargedUntil'), when(device.subscriptionChargedUntil)],
          ]}
        />
      )}
      <Actions>
        <Button permitted={canEdit} onClick={() => setEditing(true)}>
          {t('billing.subscription.edit')}
        </Button>
        {subscription !== null && (
          <Button variant="text" permitted={canEdit} onClick={() => void onRemove()}>
            {t('billing.subscription.remove')}
          </Button>
        )}
      </Actions>
      {editing && (
        <FormDialog<SubscriptionDraft>
          title={t('billing.subscription.edit')}
          initialValues={subscriptionDraftOf(device.subscription, device.organization?.subscriptionDefaults ?? null)}
          validationSchema={subscriptionDraftSchema}
          onClose={() => setEditing(false)}
          onSubmit={async (values) => save({ subscription: subscriptionOfDraft(values) })}
        >
          {(form) => (
            <>
              <CheckboxField name="usage" label={t('billing.subscription.usage')} />
              <TextField name="chargePeriod" label={t('billing.subscription.chargePeriod')} inputMode="numeric" />
              <TextField name="runtime" label={t('billing.subscription.runtime')} inputMode="numeric" />
              <TextField name="startAt" label={t('billing.subscription.startAt')} type="datetime-local" />
              <CheckboxField name="hasAfterExpiration" label={t('billing.subscription.afterExpiration')} />
              {form.values.hasAfterExpiration && (
                <>
                  <CheckboxField name="afterUsage" label={t('billing.subscription.afterUsage')} />
                  <TextField name="afterChargePeriod" label={t('billing.subscription.afterChargePeriod')} inputMode="numeric" />
                  <TextField name="afterRuntime" label={t('billing.subscription.afterRuntime')} inputMode="numeric" />
                </>
              )}
            </>
          )}
        </FormDialog>
      )}
    </Panel>
  );
}

function UsagePanel({ device }: { device: Device }) {
  const t = useMessages();
  const usage = device.billingUsage;
  if (usage === null) {
    return null;
  }
  const units = Object.entries(usage.units as Record<string, number>);
  return (
    <Panel>
      <h2>{t('billing.usage.title')}</h2>
      <Facts
        rows={[
          [t('billing.usage.unitCount'), usage.unitCount],
          [t('billing.usage.beforeDiscount'), euro(usage.monthlyPriceBeforeDiscount)],
          [t('billing.usage.monthlyPrice'), euro(usage.monthlyPrice)],
        ]}
      />
      {units.length === 0 ? (
        <p>{t('billing.usage.none')}</p>
      ) : (
        <Table aria-label={t('billing.usage.title')}>
          <thead>
            <tr>
              <th>{t('billing.usage.key')}</th>
              <th className="amount">{t('billing.usage.units')}</th>
            </tr>
          </thead>
          <tbody>
            {units.map(([key, count]) => (
              <tr key={key}>
                <td>
                  <code>{key}</code>
                </td>
                <td className="amount">{count}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Panel>
  );
}

function InvoicingPanel({ device }: { device: Device }) {
  const t = useMessages();
  const { may } = usePermissions();
  const [editing, setEditing] = useState(false);
  const save = useSaveInvoiceDetails(device.hashId);
  const organizationHashId = device.organizationHashId;
  const { data } = useQuery(BillingLegalEntitiesDocument, {
    variables: { organizationHashId: organizationHashId ?? '' },
    skip: organizationHashId === null || !editing,
  });
  const entities = data?.billingLegalEntities.rows ?? [];
  return (
    <Panel>
      <h2>{t('billing.invoicing.title')}</h2>
      {organizationHashId === null && <p>{t('billing.invoicing.noOrganization')}</p>}
      <Facts
        rows={[
          [t('billing.invoicing.customerReference'), device.invoiceCustomerReference ?? '—'],
          [t('billing.invoicing.legalEntity'), device.billingLegalEntity?.companyName ?? t('billing.invoicing.organizationDefault')],
          [t('billing.subscription.chargedUntil'), when(device.subscriptionChargedUntil)],
        ]}
      />
      <Button permitted={may('device.updateInvoiceDetails')} disabled={organizationHashId === null} onClick={() => setEditing(true)}>
        {t('billing.invoicing.edit')}
      </Button>
      {editing && (
        <FormDialog
          title={t('billing.invoicing.edit')}
          initialValues={{ customerReference: device.invoiceCustomerReference ?? '', legalEntity: device.billingLegalEntity?.hashId ?? '' }}
          onClose={() => setEditing(false)}
          onSubmit={async (values) =>
            save({
              invoiceCustomerReference: values.customerReference.trim() === '' ? null : values.customerReference.trim(),
              billingLegalEntityHashId: values.legalEntity === '' ? null : values.legalEntity,
            })
          }
        >
          {() => (
            <>
              <TextField name="customerReference" label={t('billing.invoicing.customerReference')} maxLength={255} />
              <SelectField name="legalEntity" label={t('billing.invoicing.legalEntity')}>
                <option value="">{t('billing.invoicing.organizationDefault')}</option>
                {entities.map((entity) => (
                  <option key={entity.hashId} value={entity.hashId}>
                    {entity.companyName} ({entity.country})
                  </option>
                ))}
              </SelectField>
            </>
          )}
        </FormDialog>
      )}
    </Panel>
  );
}
