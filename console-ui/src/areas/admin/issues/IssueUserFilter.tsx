import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { IssueUserFilterUserDocument } from './IssueUserFilter.generated';
import { useMessages } from '../../../i18n/messages';
import { PickerChosen, PickerFilter } from '../pickers/picker.styles';
import { SearchResults } from '../pickers/SearchResults';
import { useUserSearch } from './useUserSearch';

/** What a user filter of the issue list holds, as the address and the API name it: me, none, or a user's hash id. */
export type IssueUserFilterValue = string | undefined;

type Mode = 'any' | 'me' | 'none' | 'user';

function modeOf(value: IssueUserFilterValue, choosing: boolean): Mode {
  if (value === 'me' || value === 'none') {
    return value;
  }
  return value !== undefined || choosing ? 'user' : 'any';
}

export interface IssueUserFilterProps {
  /** The filter's name (assignee, subscriber): its select is named so. */
  name: string;
  label: string;
  value: IssueUserFilterValue;
  onChange: (value: IssueUserFilterValue) => void;
  /** Offers "nobody" (none) too: an issue has no assignee, yet always may have no subscriber to look for. */
  allowNone?: boolean;
}

/** The chosen user, by name when the API lets us read them, else by hash id. */
function ChosenUser({ hashId }: { hashId: string }) {
  const t = useMessages();
  const { data, error } = useQuery(IssueUserFilterUserDocument, { variables: { hashId } });
  const user = data?.user;
  if (user === undefined) {
    return <PickerChosen>{error === undefined ? t('issue.filter.user.loading') : t('issue.filter.user.chosen', { user: hashId })}</PickerChosen>;
  }
  return <PickerChosen>{t('issue.filter.user.chosen', { user: `${user.name} <${user.email}>` })}</PickerChosen>;
}

/**
 * A user filter of the staff issue list (assignee, subscriber): anyone, me, nobody (when offered),
 * or a user found by searching names and emails, as the assign dialog finds them.
 */
export function IssueUserFilter({ name, label, value, onChange, allowNone = false }: IssueUserFilterProps) {
  const t = useMessages();
  const [choosing, setChoosing] = useState(false);
  const [search, setSearch] = useState('');
  const mode = modeOf(value, choosing);
  const { users, searched } = useUserSearch(search, { skip: mode !== 'user' });
  const chosen = mode === 'user' ? value : undefined;

  const choose = (next: Mode) => {
    setChoosing(next === 'user');
    onChange(next === 'me' || next === 'none' ? next : undefined);
  };

  return (
    <PickerFilter>
      <label>
        <span>{label}</span>
        <select name={name} value={mode} onChange={(event) => choose(event.target.value as Mode)}>
          <option value="any">{t('issue.filter.any')}</option>
          <option value="me">{t('issue.filter.user.me')}</option>
          {allowNone && <option value="none">{t('issue.filter.user.none')}</option>}
          <option value="user">{t('issue.filter.user.user')}</option>
        </select>
      </label>
      {mode === 'user' && (
        <>
          {chosen !== undefined && <ChosenUser hashId={chosen} />}
          <input
            aria-label={t('issue.filter.user.search', { filter: label })}
            placeholder={t('user.search')}
            maxLength={255}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
          <SearchResults
            label={t('issue.filter.user.results', { filter: label })}
            found={searched ? users : undefined}
            nothing={t('user.search.none')}
            itemKey={(user) => user.hashId}
            itemText={(user) => `${user.name} <${user.email}> — ${user.organization.name}`}
            isChosen={(user) => user.hashId === chosen}
            onChoose={(user) => onChange(user.hashId)}
          />
        </>
      )}
    </PickerFilter>
  );
}
