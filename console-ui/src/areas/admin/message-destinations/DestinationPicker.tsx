import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import styled from 'styled-components';
import type { NamedReference } from '../../../../../contracts/references';
import { useDebouncedValue } from '../../../components/useDebouncedValue';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { kindText } from '../../../forwarding/destination-health';
import { kindOfGraphql } from '../../../forwarding/forwarding-enums';
import { useMessages } from '../../../i18n/messages';
import { FormPicker, PickerChosen } from '../pickers/picker.styles';
import { SearchResults } from '../pickers/SearchResults';
import { DestinationPickerDestinationsDocument } from './DestinationPicker.generated';

export interface DestinationPickerProps {
  /** Only destinations of this organisation are offered (a group forwards to its own organisation's). */
  organizationHashId: string;
  organizationName: string;
  value: NamedReference | null;
  onChange: (destination: NamedReference) => void;
  error?: string;
  disabled?: boolean;
}

/** Chooses one of an organisation's message destinations by searching names. */
export function DestinationPicker({ organizationHashId, organizationName, value, onChange, error, disabled = false }: DestinationPickerProps) {
  const t = useMessages();
  const [search, setSearch] = useState('');
  const trimmed = useDebouncedValue(search.trim());
  const searching = trimmed !== '' && !disabled;
  const { data, error: failure } = useQuery(DestinationPickerDestinationsDocument, { variables: { organizationHashId, filter: trimmed }, skip: !searching });
  useQueryErrorSnackbar(failure);
  return (
    <FormPicker role="group" aria-label={t('groupForwarding.picker')}>
      <span>{t('groupForwarding.picker')}</span>
      <PickerChosen data-testid="chosen-destination">
        {value === null ? t('groupForwarding.picker.none') : t('groupForwarding.picker.chosen', { name: value.name })}
      </PickerChosen>
      {!disabled && (
        <input
          aria-label={t('groupForwarding.picker.search')}
          placeholder={t('groupForwarding.picker.search')}
          maxLength={255}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      )}
      <Help>{t('groupForwarding.picker.help', { organization: organizationName })}</Help>
      {searching && (
        <SearchResults
          label={t('groupForwarding.picker.found')}
          found={data?.messageDestinations.rows}
          nothing={t('groupForwarding.picker.nothing')}
          itemKey={(destination) => destination.hashId}
          itemText={(destination) => `${destination.name} (${kindText(t, kindOfGraphql(destination.type))})`}
          isChosen={(destination) => destination.hashId === value?.hashId}
          onChoose={(destination) => {
            onChange({ hashId: destination.hashId, name: destination.name });
            setSearch('');
          }}
        />
      )}
      {error !== undefined && <Refusal role="alert">{error}</Refusal>}
    </FormPicker>
  );
}

const Help = styled.span`
  font-size: 12px;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Refusal = styled.span`
  font-size: 12px;
  color: ${({ theme }) => theme.colors.error};
`;
