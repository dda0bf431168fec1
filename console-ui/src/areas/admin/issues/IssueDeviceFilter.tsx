import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import styled from 'styled-components';
import { useDebouncedValue } from '../../../components/useDebouncedValue';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { AdminDeviceListDocument } from '../devices/AdminDeviceListScreen.generated';
import { useMessages } from '../../../i18n/messages';
import { PickerChosen, PickerFilter } from '../pickers/picker.styles';
import { SearchResults } from '../pickers/SearchResults';

/** Devices a search offers at once. */
const devicesFound = 8;

export interface IssueDeviceFilterProps {
  label: string;
  /** The chosen device's hash id (as the address names it), or undefined: any device. */
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}

/** The chosen device, by name once the device list answers it, else by hash id (a device gone, a hash id typed into the address). */
function ChosenDevice({ hashId }: { hashId: string }) {
  const t = useMessages();
  const { data, error } = useQuery(AdminDeviceListDocument, { variables: { hashId, rowsPerPage: 1 } });
  if (data === undefined && error === undefined) {
    return <PickerChosen>{t('issue.filter.device.loading')}</PickerChosen>;
  }
  const device = data?.devices.rows[0];
  return <PickerChosen>{t('issue.filter.device.chosen', { device: device === undefined ? hashId : `${device.name} (${device.identifier})` })}</PickerChosen>;
}

/**
 * The device filter of the staff issue list: a device found by searching names and identifiers
 * (the admin device list's own search), shown by name and kept as its hash id; clearing it
 * lists the issues of every device again.
 */
export function IssueDeviceFilter({ label, value, onChange }: IssueDeviceFilterProps) {
  const t = useMessages();
  const [search, setSearch] = useState('');
  const trimmed = useDebouncedValue(search.trim());
  const { data, error } = useQuery(AdminDeviceListDocument, { variables: { filter: trimmed, rowsPerPage: devicesFound }, skip: trimmed === '' });
  useQueryErrorSnackbar(error);

  return (
    <PickerFilter role="group" aria-label={label}>
      <span>{label}</span>
      {value === undefined ? (
        <PickerChosen>{t('issue.filter.device.any')}</PickerChosen>
      ) : (
        <ChosenRow>
          <ChosenDevice hashId={value} />
          <button type="button" onClick={() => onChange(undefined)}>
            {t('issue.filter.device.clear')}
          </button>
        </ChosenRow>
      )}
      <input
        aria-label={t('issue.filter.device.search')}
        placeholder={t('issue.filter.device.search')}
        maxLength={255}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      {trimmed !== '' && (
        <SearchResults
          label={t('issue.filter.device.results')}
          found={data?.devices.rows}
          nothing={t('issue.filter.device.none')}
          itemKey={(device) => device.hashId}
          itemText={(device) => `${device.name} (${device.identifier})${device.organization === null ? '' : ` — ${device.organization.name}`}`}
          isChosen={(device) => device.hashId === value}
          onChoose={(device) => onChange(device.hashId)}
        />
      )}
    </PickerFilter>
  );
}

const ChosenRow = styled.div`
  display: flex;
  gap: 6px;
  align-items: baseline;
  button {
    border: 0;
    background: none;
    padding: 0;
    cursor: pointer;
    color: ${({ theme }) => theme.colors.primary};
  }
`;
