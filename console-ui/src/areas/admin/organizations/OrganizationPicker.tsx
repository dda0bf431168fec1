import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import styled from 'styled-components';
import type { NamedReference } from '../../../../../contracts/references';
import { useDebouncedValue } from '../../../components/useDebouncedValue';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { useMessages } from '../../../i18n/messages';
import { FormPicker, PickerChosen } from '../pickers/picker.styles';
import { SearchResults } from '../pickers/SearchResults';
import { OrganizationPickerOrganizationsDocument } from './OrganizationPicker.generated';

/** A chosen organisation: whether it is the provider decides which rights fit its users. */
export interface PickedOrganization extends NamedReference {
  isProvider: boolean;
}

export interface OrganizationPickerProps {
  label: string;
  /** The chosen organisation (shown by name), or null. */
  value: NamedReference | null;
  onChange: (organization: PickedOrganization) => void;
  /** Offers to clear the choice; without it a choice can only be replaced. */
  onClear?: () => void;
  disabled?: boolean;
  /** A refusal to show under the picker (the form's message for a missing choice). */
  error?: string;
  /** An organisation not to offer (a partnership's owner, which cannot be its own partner). */
  excludeHashId?: string;
}

/**
 * Chooses an organisation by searching names (the organisation list's own search, asked once
 * typing pauses). A controlled field: the caller keeps the choice, in formik or in state.
 */
export function OrganizationPicker({ label, value, onChange, onClear, disabled = false, error, excludeHashId }: OrganizationPickerProps) {
  const t = useMessages();
  const [search, setSearch] = useState('');
  const trimmed = useDebouncedValue(search.trim());
  const searching = trimmed !== '' && !disabled;
  const { data, error: failure } = useQuery(OrganizationPickerOrganizationsDocument, { variables: { filter: trimmed }, skip: !searching });
  useQueryErrorSnackbar(failure);
  const found = data?.organizations.rows.filter((organization) => organization.hashId !== excludeHashId);

  return (
    <FormPicker role="group" aria-label={label}>
      <span>{label}</span>
      <Chosen>
        <PickerChosen data-testid="chosen-organization">
          {value === null ? t('organizationPicker.none') : t('organizationPicker.chosen', { name: value.name })}
        </PickerChosen>
        {value !== null && onClear !== undefined && !disabled && (
          <button type="button" onClick={onClear}>
            {t('organizationPicker.clear')}
          </button>
        )}
      </Chosen>
      {!disabled && (
        <input
          aria-label={t('organizationPicker.search')}
          placeholder={t('organizationPicker.search')}
          maxLength={255}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      )}
      {searching && (
        <SearchResults
          label={t('organizationPicker.results')}
          found={found}
          nothing={t('organizationPicker.nothing')}
          itemKey={(organization) => organization.hashId}
          itemText={(organization) => organization.name}
          isChosen={(organization) => organization.hashId === value?.hashId}
          onChoose={(organization) => {
            onChange({ hashId: organization.hashId, name: organization.name, isProvider: organization.isProvider });
            setSearch('');
          }}
        />
      )}
      {error !== undefined && <Refusal role="alert">{error}</Refusal>}
    </FormPicker>
  );
}

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
