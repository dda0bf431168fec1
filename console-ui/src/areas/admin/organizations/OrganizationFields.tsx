import { useField } from 'formik';
import { useId } from 'react';
import styled from 'styled-components';
import { invoiceFrequencies, organizationTypes } from '../../../../../contracts/organization';
import { limits } from '../../../../../contracts/limits';
import { CheckboxField, TextField } from '../../../components/TextField';
import { useMessages, type MessageKey } from '../../../i18n/messages';

interface SelectFieldProps {
  name: string;
  label: string;
  options: readonly { value: string; label: string }[];
}

/** A formik select with its label and the schema's message once touched. */
function SelectField({ name, label, options }: SelectFieldProps) {
  const [field, meta] = useField<string>(name);
  const id = useId();
  const error = meta.touched ? meta.error : undefined;
  return (
    <Field>
      <label htmlFor={id}>{label}</label>
      <select {...field} id={id} aria-invalid={error !== undefined} aria-describedby={error === undefined ? undefined : `${id}-note`}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error !== undefined && (
        <Note id={`${id}-note`} role="alert">
          {error}
        </Note>
      )}
    </Field>
  );
}

/**
 * The fields of an organisation (console.md section 3, billing aside) inside a formik form of
 * OrganizationValues; the provider organisation's type reads as such and does not change.
 */
export function OrganizationFields({ isProvider = false }: { isProvider?: boolean }) {
  const t = useMessages();
  const typeOptions = organizationTypes.map((type) => ({ value: type, label: t(`organizations.type.${type}` as MessageKey) }));
  return (
    <>
      <TextField name="name" label={t('organizations.field.name')} maxLength={limits.organizationNameLength} autoComplete="off" />
      {isProvider ? (
        <Field>
          <span>{t('organizations.field.type')}</span>
          <p data-testid="organization-provider-type">{t('organizations.type.provider')}</p>
        </Field>
      ) : (
        <SelectField name="type" label={t('organizations.field.type')} options={[{ value: '', label: t('organizations.type.choose') }, ...typeOptions]} />
      )}
      <TextField name="invoiceCustomerReference" label={t('organizations.field.invoiceCustomerReference')} maxLength={255} autoComplete="off" />
      <SelectField
        name="invoiceFrequency"
        label={t('organizations.field.invoiceFrequency')}
        options={invoiceFrequencies.map((frequency) => ({ value: frequency, label: t(`organizations.frequency.${frequency}` as MessageKey) }))}
      />
      <CheckboxField name="requireLegalEntityPerDevice" label={t('organizations.field.requireLegalEntityPerDevice')} />
      <CheckboxField name="requireCustomerReferencePerDevice" label={t('organizations.field.requireCustomerReferencePerDevice')} />
      <Months>
        <legend>{t('organizations.field.subscriptionDefaults')}</legend>
        <TextField name="subscriptionDefaults.chargePeriod" type="number" min={1} step={1} label={t('organizations.field.chargePeriod')} />
        <TextField
          name="subscriptionDefaults.runtime"
          type="number"
          min={1}
          step={1}
          label={t('organizations.field.runtime')}
          help={t('organizations.field.subscriptionDefaults.help')}
        />
      </Months>
    </>
  );
}

const Field = styled.div`
  display: flex;
  flex-direction: column;
  gap: 4px;
  margin-bottom: 14px;
  label,
  span {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
  p {
    margin: 0;
  }
  select {
    min-height: 38px;
    padding: 0 10px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: 6px;
    background: ${({ theme }) => theme.colors.surface};
  }
  select[aria-invalid='true'] {
    border-color: ${({ theme }) => theme.colors.error};
  }
`;

const Note = styled.span`
  font-size: 12px;
  font-weight: normal;
  color: ${({ theme }) => theme.colors.error};
`;

const Months = styled.fieldset`
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: 6px;
  padding: 8px 12px 0;
  margin: 4px 0 14px;
  legend {
    padding: 0 4px;
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
`;
