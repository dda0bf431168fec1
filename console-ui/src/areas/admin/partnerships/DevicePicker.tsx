import { useQuery } from '@apollo/client/react';
import { useField } from 'formik';
import { useState } from 'react';
import styled from 'styled-components';
import type { NamedReference } from '../../../../../contracts/references';
import { useDebouncedValue } from '../../../components/useDebouncedValue';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { DevicePickerDevicesDocument } from './DevicePicker.generated';
import { useMessages } from '../../../i18n/messages';
import { PickerFilter, PickerResults } from '../issues/picker.styles';
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
  const devices = trimmed === '' ? [] : (data?.devices.rows ?? []);
  const problem = meta.touched && typeof meta.error === 'string' ? meta.error : undefined;

  return (
    <PickerFilter role="group" aria-label={label}>
      <span>{label}</span>
      {chosen.length === 0 ? (
        <span>{t('partnership.devices.noneChosen')}</span>
      ) : (
        <Chosen aria-label={t('partnership.devices.chosen')}>
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
        </Chosen>
      )}
      <input
        aria-label={t('partnership.devices.search')}
        placeholder={t('partnership.devices.search')}
        maxLength={255}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      {trimmed !== '' && (
        <PickerResults aria-label={t('partnership.devices.results')}>
          {devices.length === 0 && data !== undefined && <li>{t('partnership.devices.noneFound')}</li>}
          {devices.map((device) => (
            <li key={device.hashId}>
              <button
                type="button"
                aria-pressed={isChosen(device.hashId)}
                onClick={() =>
                  void helpers.setValue(
                    isChosen(device.hashId)
                      ? chosen.filter((other) => other.hashId !== device.hashId)
                      : [...chosen, { hashId: device.hashId, name: device.name }],
                  )
                }
              >
                {device.name} ({device.identifier})
              </button>
            </li>
          ))}
        </PickerResults>
      )}
      {problem !== undefined && <Problem role="alert">{problem}</Problem>}
    </PickerFilter>
  );
}

const Chosen = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-wrap: wrap;
  gap: 6px;
  li {
    display: inline-flex;
    align-items: center;
    gap: 4px;
    padding: 2px 8px;
    border-radius: 12px;
    background: ${({ theme }) => theme.colors.border};
  }
  button {
    border: 0;
    background: none;
    cursor: pointer;
    padding: 0 2px;
  }
`;
