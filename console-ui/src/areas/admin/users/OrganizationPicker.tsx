import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { useDebouncedValue } from '../../../components/useDebouncedValue';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { OrganizationPickerOrganizationsDocument } from './OrganizationPicker.generated';
import { useMessages } from '../../../i18n/messages';
import { PickerChosen, PickerFilter, PickerResults } from '../issues/picker.styles';

/** Organisations a search offers at once. */
const organizationsFound = 8;

export interface PickedOrganization {
  hashId: string;
  name: string;
  isProvider: boolean;
}

export interface OrganizationPickerProps {
  label: string;
  /** The chosen organisation, or null. */
  value: PickedOrganization | null;
  onChange: (organization: PickedOrganization) => void;
  disabled?: boolean;
}

/**
 * Chooses an organisation by searching names (the `organizations` query). The form keeps the
 * organisation itself, not only its hash id: whether it is the provider's decides which rights fit.
 */
export function OrganizationPicker({ label, value, onChange, disabled = false }: OrganizationPickerProps) {
  const t = useMessages();
  const [search, setSearch] = useState('');
  const trimmed = useDebouncedValue(search.trim());
  const found = useQuery(OrganizationPickerOrganizationsDocument, { variables: { filter: trimmed, rowsPerPage: organizationsFound }, skip: trimmed === '' });
  useQueryErrorSnackbar(found.error);
  const organizations = trimmed === '' ? [] : (found.data?.organizations.rows ?? []);

  return (
    <PickerFilter role="group" aria-label={label}>
      <span>{label}</span>
      <PickerChosen data-testid="organization-chosen">
        {value === null ? t('user.organizationPicker.nothingChosen') : t('user.organizationPicker.chosen', { name: value.name })}
      </PickerChosen>
      <input
        aria-label={t('user.organizationPicker.search')}
        placeholder={t('user.organizationPicker.search')}
        maxLength={255}
        value={search}
        disabled={disabled}
        onChange={(event) => setSearch(event.target.value)}
      />
      {trimmed !== '' && !disabled && (
        <PickerResults aria-label={t('user.organizationPicker.search')}>
          {organizations.length === 0 && found.data !== undefined && <li>{t('user.organizationPicker.none')}</li>}
          {organizations.map((organization) => (
            <li key={organization.hashId}>
              <button type="button" aria-pressed={organization.hashId === value?.hashId} onClick={() => onChange(organization)}>
                {organization.name}
              </button>
            </li>
          ))}
        </PickerResults>
      )}
    </PickerFilter>
  );
}
