import { useField } from 'formik';
import { useId, useState } from 'react';
import styled from 'styled-components';
import { useMessages } from '../../../i18n/messages';
import { useUserSearch } from './useUserSearch';

export interface UserPickerProps {
  /** The formik field holding the chosen user's hash id (null: nobody). */
  name: string;
  label: string;
  /** Offers "nobody" (null) too. */
  noneLabel?: string;
}

/** Chooses a user by searching names and emails (a formik field of the user's hash id). */
export function UserPicker({ name, label, noneLabel }: UserPickerProps) {
  const t = useMessages();
  const id = useId();
  const [field, , helpers] = useField<string | null>(name);
  const [filter, setFilter] = useState('');
  const { users, searched } = useUserSearch(filter);
  return (
    <Picker role="group" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`}>{label}</span>
      <input aria-label={t('user.search')} placeholder={t('user.search')} maxLength={255} value={filter} onChange={(event) => setFilter(event.target.value)} />
      <ul>
        {noneLabel !== undefined && (
          <li>
            <label>
              <input type="radio" name={`${id}-user`} checked={field.value === null} onChange={() => void helpers.setValue(null)} />
              {noneLabel}
            </label>
          </li>
        )}
        {users.length === 0 && searched && <li>{t('user.search.none')}</li>}
        {users.map((user) => (
          <li key={user.hashId}>
            <label>
              <input type="radio" name={`${id}-user`} checked={field.value === user.hashId} onChange={() => void helpers.setValue(user.hashId)} />
              {user.name} &lt;{user.email}&gt; — {user.organization.name}
            </label>
          </li>
        ))}
      </ul>
    </Picker>
  );
}

const Picker = styled.div`
  display: flex;
  flex-direction: column;
  gap: 4px;
  margin-bottom: 14px;
  > span {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
  input:not([type='radio']) {
    min-height: 36px;
    padding: 0 10px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: 6px;
  }
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
    max-height: 200px;
    overflow: auto;
  }
  li label {
    display: flex;
    gap: 8px;
    align-items: center;
    padding: 2px 0;
  }
`;
