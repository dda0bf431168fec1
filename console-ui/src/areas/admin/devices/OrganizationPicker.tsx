import { useQuery } from '@apollo/client/react';
import { useId, useState } from 'react';
import styled from 'styled-components';
import { useDebouncedValue } from '../../../components/useDebouncedValue';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { OrganizationPickerOrganizationsDocument } from './OrganizationPicker.generated';
import { useMessages } from '../../../i18n/messages';
import { PickerChosen, PickerFilter, PickerResults } from '../issues/picker.styles';

/** An organisation as a picker shows it. */
export interface ChosenOrganization {
  hashId: string;
  name: string;
}

export interface OrganizationPickerProps {
  label: string;
  value: ChosenOrganization | null;
  onChange: (organization: ChosenOrganization | null) => void;
  /** Offers to clear the choice, under this text ("No organisation"); without it a choice stays. */
  clearLabel?: string;
  disabled?: boolean;
  /** A refusal to show under the picker (the form's message for a missing choice). */
  error?: string;
}

/**
 * Chooses an organisation by searching names (the organisation list's own search, asked once
 * typing pauses); the choice is shown by name and kept as its hash id by the caller.
 */
export function OrganizationPicker({ label, value, onChange, clearLabel, disabled = false, error }: OrganizationPickerProps) {
  const t = useMessages();
  const id = useId();
  const [search, setSearch] = useState('');
  const trimmed = useDebouncedValue(search.trim());
  const { data, error: failure } = useQuery(OrganizationPickerOrganizationsDocument, { variables: { filter: trimmed }, skip: trimmed === '' || disabled });
  useQueryErrorSnackbar(failure);
  const found = trimmed === '' ? [] : (data?.organizations.rows ?? []);

  return (
    <Picker role="group" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`}>{label}</span>
      <Chosen>
        <PickerChosen data-testid="chosen-organization">{value === null ? t('organizationPicker.none') : value.name}</PickerChosen>
        {value !== null && clearLabel !== undefined && !disabled && (
          <button type="button" onClick={() => onChange(null)}>
            {clearLabel}
          </button>
        )}
      </Chosen>
      {!disabled && (
        <input
          aria-label={t('organizationPicker.search', { label })}
          placeholder={t('organizationPicker.search', { label })}
          maxLength={255}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      )}
      {trimmed !== '' && !disabled && (
        <PickerResults aria-label={t('organizationPicker.results', { label })}>
          {found.length === 0 && data !== undefined && <li>{t('organizationPicker.nothing')}</li>}
          {found.map((organization) => (
            <li key={organization.hashId}>
              <button
                type="button"
                aria-pressed={organization.hashId === value?.hashId}
                onClick={() => {
                  onChange({ hashId: organization.hashId, name: organization.name });
                  setSearch('');
                }}
              >
                {organization.name}
              </button>
            </li>
          ))}
        </PickerResults>
      )}
      {error !== undefined && <Refusal role="alert">{error}</Refusal>}
    </Picker>
  );
}

const Picker = styled(PickerFilter)`
  font-size: inherit;
  margin-bottom: 14px;
  max-width: 480px;
  > span:first-child {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
  input {
    min-height: 36px;
    padding: 0 10px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: 6px;
  }
`;

const Chosen = styled.div`
  display: flex;
  gap: 8px;
  align-items: baseline;
  button {
    border: 0;
    background: none;
    padding: 0;
    cursor: pointer;
    color: ${({ theme }) => theme.colors.primary};
  }
`;

const Refusal = styled.span`
  font-size: 12px;
  color: ${({ theme }) => theme.colors.error};
`;
