import { useQuery } from '@apollo/client/react';
import { useField } from 'formik';
import { useState } from 'react';
import type { NamedReference } from '../../../../../contracts/references';
import { useDebouncedValue } from '../../../components/useDebouncedValue';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { DevicePickerDevicesDocument } from './DevicePicker.generated';
import { useMessages } from '../../../i18n/messages';
import { FormPicker, PickerChips } from '../pickers/picker.styles';
import { SearchResults } from '../pickers/SearchResults';
import { Problem } from './partnership.styles';

export interface DevicePickerProps {
  /** The formik field holding the chosen devices. */
  name: string;
  label: string;
  /** Whose devices are offered: the partnership's owner. */
  organizationHashId: string;
}

/** Chooses some of an organisation's devices by searching names and identifiers; each chosen one can be removed again. */
export function DevicePicker({ name, label, organizationHashId }: DevicePickerProps) {
  const t = useMessages();
  const [field, meta, helpers] = useField<readonly NamedReference[]>(name);
  const [search, setSearch] = useState('');
  const trimmed = useDebouncedValue(search.trim());
  const { data, error } = useQuery(DevicePickerDevicesDocument, { variables: { organizationHashId, filter: trimmed }, skip: trimmed === '' });
  useQueryErrorSnackbar(error);
  const chosen = field.value;
  const isChosen = (hashId: string) => chosen.some((device) => device.hashId === hashId);
  const problem = meta.touched && typeof meta.error === 'string' ? meta.error : undefined;

  return (
    <FormPicker role="group" aria-label={label}>
      <span>{label}</span>
      {chosen.length === 0 ? (
        <span>{t('partnership.devices.noneChosen')}</span>
      ) : (
        <PickerChips aria-label={t('partnership.devices.chosen')}>
          {chosen.map((device) => (
            <li key={device.hashId}>
              {device.name}
              <button
                type="button"
                aria-label={t('partnership.devices.remove', { name: device.name })}
                onClick={() => void helpers.setValue(chosen.filter((other) => other.hashId !== device.hashId))}
              >
                ×
              </button>
            </li>
          ))}
        </PickerChips>
      )}
      <input
        aria-label={t('partnership.devices.search')}
        placeholder={t('partnership.devices.search')}
        maxLength={255}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      {trimmed !== '' && (
        <SearchResults
          label={t('partnership.devices.results')}
          found={data?.devices.rows}
          nothing={t('partnership.devices.noneFound')}
          itemKey={(device) => device.hashId}
          itemText={(device) => `${device.name} (${device.identifier})`}
          isChosen={(device) => isChosen(device.hashId)}
          onChoose={(device) =>
            void helpers.setValue(
              isChosen(device.hashId) ? chosen.filter((other) => other.hashId !== device.hashId) : [...chosen, { hashId: device.hashId, name: device.name }],
            )
          }
        />
      )}
      {problem !== undefined && <Problem role="alert">{problem}</Problem>}
    </FormPicker>
  );
}
