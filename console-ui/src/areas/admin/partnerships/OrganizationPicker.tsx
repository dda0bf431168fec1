import { useQuery } from '@apollo/client/react';
import { useField } from 'formik';
import { useState } from 'react';
import type { NamedReference } from '../../../../../contracts/references';
import { useDebouncedValue } from '../../../components/useDebouncedValue';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { OrganizationPickerOrganizationsDocument } from './OrganizationPicker.generated';
import { useMessages } from '../../../i18n/messages';
import { PickerChosen, PickerFilter, PickerResults } from '../issues/picker.styles';
import { Problem } from './partnership.styles';

export interface OrganizationPickerProps {
  /** The formik field holding the chosen organisation (null: none yet). */
  name: string;
  label: string;
  /** An organisation not to offer (the owner, which cannot be its own partner). */
  excludeHashId: string;
}

/** Chooses an organisation by searching names, asked once typing pauses (a formik field of the organisation). */
export function OrganizationPicker({ name, label, excludeHashId }: OrganizationPickerProps) {
  const t = useMessages();
  const [field, meta, helpers] = useField<NamedReference | null>(name);
  const [search, setSearch] = useState('');
  const trimmed = useDebouncedValue(search.trim());
  const { data, error } = useQuery(OrganizationPickerOrganizationsDocument, { variables: { filter: trimmed }, skip: trimmed === '' });
  useQueryErrorSnackbar(error);
  const organizations = trimmed === '' ? [] : (data?.organizations.rows ?? []).filter((organization) => organization.hashId !== excludeHashId);
  const problem = meta.touched ? meta.error : undefined;

  return (
    <PickerFilter role="group" aria-label={label}>
      <span>{label}</span>
      <PickerChosen>{field.value === null ? t('partnership.partner.none') : t('partnership.partner.chosen', { name: field.value.name })}</PickerChosen>
      <input
        aria-label={t('partnership.partner.search')}
        placeholder={t('partnership.partner.search')}
        maxLength={255}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      {trimmed !== '' && (
        <PickerResults aria-label={t('partnership.partner.results')}>
          {organizations.length === 0 && data !== undefined && <li>{t('partnership.partner.noneFound')}</li>}
          {organizations.map((organization) => (
            <li key={organization.hashId}>
              <button
                type="button"
                aria-pressed={organization.hashId === field.value?.hashId}
                onClick={() => void helpers.setValue({ hashId: organization.hashId, name: organization.name })}
              >
                {organization.name}
              </button>
            </li>
          ))}
        </PickerResults>
      )}
      {problem !== undefined && <Problem role="alert">{problem}</Problem>}
    </PickerFilter>
  );
}
