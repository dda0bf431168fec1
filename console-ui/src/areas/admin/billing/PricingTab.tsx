import { FieldArray } from 'formik';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { Button } from '../../../components/Button';
import { FormDialog } from '../../../components/FormDialog';
import { Panel } from '../../../components/ObjectFrame';
import { TextField } from '../../../components/TextField';
import { useMessages } from '../../../i18n/messages';
import { usePermissions } from '../../../session/usePermissions';
import { Actions, Facts, SelectField, Table, euro, when } from './BillingParts';
import { defaultMonthlyRates, defaultTiers, pricingDraftOf, pricingDraftSchema, pricingOfDraft, rateField, rateKeys, type PricingDraft } from './billing-form';
import { useOrganizationBilling } from './useOrganizationBilling';

const defaultTiersText = defaultTiers.map((tier) => `${tier.volume}: ${tier.discount} %`).join(', ');

/**
 * An organisation's pricing (/admin/organizations/{hashId}/billing/pricing): usage with its own
 * rates (the defaults shown beside them), its tiers and expiry, or legacy; and the monthly
 * forecast at that pricing. Ops, Developer and Sales edit it.
 */
export function PricingTab() {
  const t = useMessages();
  const { hashId = '' } = useParams();
  const { may } = usePermissions();
  const { organization, forecast, save } = useOrganizationBilling(hashId);
  const [editing, setEditing] = useState(false);
  if (organization === undefined) {
    return <p>{t('billing.loading')}</p>;
  }
  const draft = pricingDraftOf(organization.pricing);
  return (
    <>
      <Panel>
        <h2>{t('billing.pricing.title')}</h2>
        <Facts
          rows={[
            [t('billing.pricing.type'), draft.type === 'legacy' ? t('billing.pricing.legacy') : t('billing.pricing.usage')],
            [t('billing.pricing.expiresAt'), draft.expiresAt === '' ? '—' : when(new Date(draft.expiresAt).toISOString())],
          ]}
        />
        {draft.type === 'usage' && (
          <>
            <Table aria-label={t('billing.pricing.rates')}>
              <thead>
                <tr>
                  <th>{t('billing.usage.key')}</th>
                  <th className="amount">{t('billing.pricing.rates')}</th>
                </tr>
              </thead>
              <tbody>
                {rateKeys.map((key) => (
                  <tr key={key}>
                    <td>
                      <code>{key}</code>
                    </td>
                    <td className="amount">
                      {(draft.rates[rateField(key)] ?? '') === '' ? `${euro(defaultMonthlyRates[key])} (default)` : euro(Number(draft.rates[rateField(key)]))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
            <h3>{t('billing.pricing.tiers')}</h3>
            {draft.tiers.length === 0 ? (
              <p>{t('billing.pricing.tiersDefault', { tiers: defaultTiersText })}</p>
            ) : (
              <ul aria-label={t('billing.pricing.tiers')}>
                {draft.tiers.map((tier) => (
                  <li key={tier.volume}>
                    {tier.volume}: {tier.discount} %
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
        <Button permitted={may('organization.update')} onClick={() => setEditing(true)}>
          {t('billing.edit')}
        </Button>
      </Panel>
      {forecast !== undefined && (
        <Panel>
          <h2>{t('billing.forecast.title')}</h2>
          <Facts
            rows={[
              [t('billing.forecast.devices'), forecast.deviceCount],
              [t('billing.forecast.units'), forecast.unitCount],
              [t('billing.forecast.discount'), `${forecast.discount} %`],
              [t('billing.forecast.beforeDiscount'), euro(forecast.monthlyPriceBeforeDiscount)],
              [t('billing.forecast.monthlyPrice'), <span data-testid="forecast-monthly">{euro(forecast.monthlyPrice)}</span>],
            ]}
          />
        </Panel>
      )}
      {editing && (
        <FormDialog<PricingDraft>
          title={t('billing.pricing.title')}
          initialValues={draft}
          validationSchema={pricingDraftSchema}
          submitText={t('billing.pricing.save')}
          onClose={() => setEditing(false)}
          onSubmit={async (values) => save({ pricing: pricingOfDraft(values) })}
        >
          {(form) => (
            <>
              <SelectField name="type" label={t('billing.pricing.type')}>
                <option value="usage">{t('billing.pricing.usage')}</option>
                <option value="legacy">{t('billing.pricing.legacy')}</option>
              </SelectField>
              {form.values.type === 'usage' && (
                <>
                  <TextField name="expiresAt" label={t('billing.pricing.expiresAt')} type="datetime-local" />
                  <h3>{t('billing.pricing.tiers')}</h3>
                  {form.values.tiers.length === 0 && <p>{t('billing.pricing.tiersDefault', { tiers: defaultTiersText })}</p>}
                  <FieldArray name="tiers">
                    {(tiers) => (
                      <>
                        {form.values.tiers.map((_, index) => (
                          <Actions key={index}>
                            <TextField name={`tiers.${index}.volume`} label={t('billing.pricing.volume', { index: index + 1 })} inputMode="numeric" />
                            <TextField name={`tiers.${index}.discount`} label={t('billing.pricing.discount', { index: index + 1 })} inputMode="decimal" />
                            <Button variant="text" onClick={() => tiers.remove(index)}>
                              {t('billing.pricing.removeTier', { index: index + 1 })}
                            </Button>
                          </Actions>
                        ))}
                        <Button variant="text" onClick={() => tiers.push({ volume: '', discount: '' })}>
                          {t('billing.pricing.addTier')}
                        </Button>
                      </>
                    )}
                  </FieldArray>
                  <h3>{t('billing.pricing.rates')}</h3>
                  {rateKeys.map((key) => (
                    <TextField
                      key={key}
                      name={`rates.${rateField(key)}`}
                      label={t('billing.pricing.rate', { key, rate: euro(defaultMonthlyRates[key]) })}
                      placeholder={String(defaultMonthlyRates[key])}
                      inputMode="decimal"
                    />
                  ))}
                </>
              )}
            </>
          )}
        </FormDialog>
      )}
    </>
  );
}
