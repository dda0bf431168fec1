import { useQuery } from '@apollo/client/react';
import { useField } from 'formik';
import { useId, useState, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import * as yup from 'yup';
import { fleetLimits } from '../../../../../contracts/fleet';
import { emailSchema } from '../../../../../contracts/user';
import { apiErrorOfApollo } from '../../../api/apollo';
import { useDebouncedValue } from '../../../components/useDebouncedValue';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { OutageUserSearchDocument } from './OutageContactFields.generated';
import { useMessages } from '../../../i18n/messages';
import { FormPicker, PickerChips } from '../pickers/picker.styles';
import { SearchResults } from '../pickers/SearchResults';

/** A user told of outages, as the fields show them. */
export interface OutageUser {
  hashId: string;
  name: string;
  email: string;
}

/** The users of an answer as the fields hold them (without Apollo's __typename, so a form compares them by value). */
export function outageUsersOf(users: readonly OutageUser[]): OutageUser[] {
  return users.map(({ hashId, name, email }) => ({ hashId, name, email }));
}

/** The chosen users as a form's schema checks them: the contract's limit (the hash ids are the server's). */
export const outageUsersSchema = yup.array().max(fleetLimits.outageContacts);

const sameList = (one: readonly string[], other: readonly string[]) => one.length === other.length && one.every((value, index) => value === other[index]);

/** Each contact list that changed, whole (a save replaces a list): undefined for a list left as it was. */
export function changedContacts(
  before: { emails: readonly string[]; users: readonly OutageUser[] },
  after: { emails: string[]; users: readonly OutageUser[] },
): { emails?: string[]; userHashIds?: string[] } {
  const hashIdsBefore = before.users.map((user) => user.hashId);
  const userHashIds = after.users.map((user) => user.hashId);
  return {
    ...(sameList(before.emails, after.emails) ? {} : { emails: after.emails }),
    ...(sameList(hashIdsBefore, userHashIds) ? {} : { userHashIds }),
  };
}

/** The text naming a user in a list of contacts. */
export const userText = (user: OutageUser) => `${user.name} <${user.email}>`;

/**
 * The users a refused save names (user_has_no_access carries their hash ids), by name where the
 * form knows them; null when the failure is another one.
 */
export function usersWithoutAccess(error: unknown, known: readonly OutageUser[]): string[] | null {
  const apiError = apiErrorOfApollo(error);
  if (apiError === null || !apiError.is('user_has_no_access')) {
    return null;
  }
  const hashIds = (apiError.details as { hashIds?: unknown } | null | undefined)?.hashIds;
  return (Array.isArray(hashIds) ? hashIds : []).map((hashId) => {
    const user = known.find((candidate) => candidate.hashId === hashId);
    return user === undefined ? String(hashId) : userText(user);
  });
}

/** The message naming the users a save was refused for. */
export function NoAccessRefusal({ users }: { users: readonly string[] }) {
  const t = useMessages();
  return (
    <Refusal role="alert" data-testid="user-has-no-access">
      {t('outage.noAccess', { users: users.join(', ') })}
    </Refusal>
  );
}

/** A formik field of outage emails: each added one checked by the spec's email rule, each removable. */
export function OutageEmailsField({ name, label, disabled = false }: { name: string; label: string; disabled?: boolean }) {
  const t = useMessages();
  const id = useId();
  const [field, meta, helpers] = useField<string[]>(name);
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const emails = field.value;

  const add = () => {
    let email: string;
    try {
      email = emailSchema.required().validateSync(draft);
    } catch (error) {
      setProblem(error instanceof yup.ValidationError ? error.message : String(error));
      return;
    }
    setProblem(undefined);
    setDraft('');
    if (!emails.some((known) => known.toLowerCase() === email.toLowerCase())) {
      void helpers.setValue([...emails, email]);
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter adds the email instead of sending the form.
    if (event.key === 'Enter') {
      event.preventDefault();
      add();
    }
  };
  // The schema's message about the list as a whole (too many); each email was checked as it was added.
  const shownProblem = problem ?? (typeof meta.error === 'string' ? meta.error : undefined);

  return (
    <FormPicker role="group" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`}>{label}</span>
      <PickerChips aria-label={label}>
        {emails.length === 0 && <None>{t('outage.none')}</None>}
        {emails.map((email) => (
          <li key={email}>
            {email}
            {!disabled && (
              <button
                type="button"
                aria-label={t('outage.remove', { contact: email })}
                onClick={() => void helpers.setValue(emails.filter((kept) => kept !== email))}
              >
                ×
              </button>
            )}
          </li>
        ))}
      </PickerChips>
      {!disabled && (
        <AddRow>
          <input
            type="email"
            aria-label={t('outage.email.new', { label })}
            placeholder={t('outage.email.placeholder')}
            maxLength={255}
            value={draft}
            aria-invalid={problem !== undefined}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onKeyDown}
          />
          <button type="button" onClick={add} disabled={draft.trim() === ''}>
            {t('outage.email.add')}
          </button>
        </AddRow>
      )}
      {shownProblem !== undefined && <Refusal role="alert">{shownProblem}</Refusal>}
    </FormPicker>
  );
}

export interface OutageUsersFieldProps {
  /** The formik field: the chosen users (their hash ids are what a save sends). */
  name: string;
  label: string;
  /** Only users of this organisation are offered; undefined offers every user; null offers none yet. */
  organizationHashId?: string | null;
  disabled?: boolean;
}

/** A formik field of outage users: found by name or email, each removable. */
export function OutageUsersField({ name, label, organizationHashId, disabled = false }: OutageUsersFieldProps) {
  const t = useMessages();
  const id = useId();
  const [field, , helpers] = useField<OutageUser[]>(name);
  const [search, setSearch] = useState('');
  const trimmed = useDebouncedValue(search.trim());
  const offered = organizationHashId !== null && !disabled;
  const { data, error } = useQuery(OutageUserSearchDocument, {
    variables: { filter: trimmed, organizationHashId },
    skip: trimmed === '' || !offered,
  });
  useQueryErrorSnackbar(error);
  const users = field.value;
  const found = data?.users.rows.filter((user) => !users.some((chosen) => chosen.hashId === user.hashId));

  return (
    <FormPicker role="group" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`}>{label}</span>
      <PickerChips aria-label={label}>
        {users.length === 0 && <None>{t('outage.none')}</None>}
        {users.map((user) => (
          <li key={user.hashId}>
            {userText(user)}
            {!disabled && (
              <button
                type="button"
                aria-label={t('outage.remove', { contact: user.name })}
                onClick={() => void helpers.setValue(users.filter((kept) => kept.hashId !== user.hashId))}
              >
                ×
              </button>
            )}
          </li>
        ))}
      </PickerChips>
      {organizationHashId === null && !disabled && <Hint>{t('outage.users.organizationFirst')}</Hint>}
      {offered && (
        <input
          aria-label={t('outage.users.search', { label })}
          placeholder={t('outage.users.search', { label })}
          maxLength={255}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      )}
      {offered && trimmed !== '' && (
        <SearchResults
          label={t('outage.users.results', { label })}
          found={found}
          nothing={t('outage.users.nothing')}
          itemKey={(user) => user.hashId}
          itemText={(user) => `${userText(user)} — ${user.organization.name}`}
          onChoose={(user) => {
            void helpers.setValue([...users, { hashId: user.hashId, name: user.name, email: user.email }]);
            setSearch('');
          }}
        />
      )}
    </FormPicker>
  );
}

/** An empty list's "none": text, not a chip. */
const None = styled.li`
  && {
    border: 0;
    padding: 0;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const AddRow = styled.div`
  display: flex;
  gap: 6px;
  input {
    flex: 1;
  }
  button {
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: 6px;
    background: none;
    padding: 0 12px;
    cursor: pointer;
    color: ${({ theme }) => theme.colors.primary};
  }
`;

const Hint = styled.span`
  font-size: 12px;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Refusal = styled.p`
  margin: 4px 0;
  font-size: 13px;
  color: ${({ theme }) => theme.colors.error};
`;
