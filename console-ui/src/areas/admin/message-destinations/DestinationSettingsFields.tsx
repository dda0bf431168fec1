import { useField, useFormikContext } from 'formik';
import { useId, useMemo } from 'react';
import styled from 'styled-components';
import type { DestinationKind } from '../../../../../contracts/forwarding';
import { CheckboxField, TextAreaField, TextField } from '../../../components/TextField';
import { useMessages, type MessageKey, type Translate } from '../../../i18n/messages';
import { settingFieldsOf, type SettingField } from './destination-settings-form';

export interface DestinationSettingsFieldsProps {
  kind: DestinationKind;
  /** Where the settings sit in the form's values. */
  prefix?: string;
  /**
   * Editing a saved destination: the secrets the server holds (an empty field keeps them).
   * Null for a new destination.
   */
  secretsSet: readonly string[] | null;
  disabled?: boolean;
}

/** Settings whose meaning their label alone does not say. */
const settingHelp: Partial<Record<string, MessageKey>> = {
  apiVersion: 'messageDestination.setting.apiVersion.help',
  routingKey: 'messageDestination.setting.routingKey.help',
  exchange: 'messageDestination.setting.exchange.help',
  hostKey: 'messageDestination.setting.hostKey.help',
  endpoint: 'messageDestination.setting.endpoint.help',
  tlsCaCertificate: 'messageDestination.setting.tlsCaCertificate.help',
  format: 'messageDestination.setting.format.help',
  table: 'messageDestination.setting.table.help',
  entityPath: 'messageDestination.setting.entityPath.help',
  sessionId: 'messageDestination.setting.sessionId.help',
  url: 'messageDestination.setting.url.help',
};

const labelOf = (t: Translate, name: string) => t(`messageDestination.setting.${name}` as MessageKey);

/** What a field says under it: its default, or for a secret of a saved destination whether one is kept. */
function helpOf(t: Translate, field: SettingField, secretsSet: readonly string[] | null): string | undefined {
  if (field.secret && secretsSet !== null) {
    return secretsSet.includes(field.name) ? t('messageDestination.secret.set') : t('messageDestination.secret.notSet');
  }
  if (field.secret) {
    return t('messageDestination.secret.help');
  }
  const ownKey = settingHelp[field.name];
  const own = ownKey === undefined ? undefined : t(ownKey);
  if ((field.control === 'number' || field.control === 'select') && field.defaultValue !== null) {
    const defaultText = t('messageDestination.default', { value: String(field.defaultValue) });
    return own === undefined ? defaultText : `${own} ${defaultText}`;
  }
  return own;
}

/**
 * The settings of one destination kind, each field drawn from the kind's schema in
 * contracts/forwarding.ts: text, numbers (the default said under them), switches, choices (the
 * file format, the HTTP method), lists (Kafka's brokers, HTTP's headers); secrets are password
 * inputs that a saved destination never fills.
 */
export function DestinationSettingsFields({ kind, prefix = 'destination', secretsSet, disabled = false }: DestinationSettingsFieldsProps) {
  const t = useMessages();
  const fields = useMemo(() => settingFieldsOf(kind), [kind]);
  return (
    <>
      {fields.map((field) => {
        const name = `${prefix}.${field.name}`;
        const label = labelOf(t, field.name) + (field.required ? '' : ` ${t('messageDestination.optional')}`);
        const help = helpOf(t, field, secretsSet);
        switch (field.control) {
          case 'boolean':
            return <CheckboxField key={field.name} name={name} label={labelOf(t, field.name)} disabled={disabled} />;
          case 'select':
            return <SettingSelect key={field.name} name={name} label={label} field={field} help={help} disabled={disabled} />;
          case 'list':
            return <SettingList key={field.name} name={name} label={label} field={field} disabled={disabled} />;
          case 'records':
            return <SettingRecords key={field.name} name={name} label={label} field={field} help={help} disabled={disabled} />;
          case 'number':
            return (
              <TextField
                key={field.name}
                name={name}
                label={label}
                help={help}
                inputMode="numeric"
                disabled={disabled}
                placeholder={field.defaultValue === null ? undefined : String(field.defaultValue)}
              />
            );
          case 'text':
            if (field.multiline) {
              return (
                <TextAreaField
                  key={field.name}
                  name={name}
                  label={label}
                  help={help}
                  rows={4}
                  spellCheck={false}
                  autoComplete="off"
                  disabled={disabled}
                  maxLength={field.maxLength ?? undefined}
                />
              );
            }
            return (
              <TextField
                key={field.name}
                name={name}
                label={label}
                help={help}
                type={field.secret ? 'password' : 'text'}
                autoComplete={field.secret ? 'new-password' : 'off'}
                spellCheck={false}
                disabled={disabled}
                maxLength={field.maxLength ?? undefined}
              />
            );
        }
      })}
    </>
  );
}

/** The message of a list field: shown once the field was left or the form sent. */
function useListError(name: string): string | undefined {
  const [, meta] = useField(name);
  const { submitCount } = useFormikContext();
  const error: unknown = meta.error;
  if (!(meta.touched || submitCount > 0)) {
    return undefined;
  }
  return typeof error === 'string' ? error : undefined;
}

interface SettingControlProps<Field extends SettingField> {
  name: string;
  label: string;
  field: Field;
  help?: string;
  disabled: boolean;
}

function SettingSelect({ name, label, field, help, disabled }: SettingControlProps<Extract<SettingField, { control: 'select' }>>) {
  const t = useMessages();
  const [input, meta] = useField<string>(name);
  const id = useId();
  const error = meta.touched ? meta.error : undefined;
  const offerNone = !field.required && field.defaultValue === null;
  return (
    <Control>
      <label htmlFor={id}>{label}</label>
      <select {...input} id={id} disabled={disabled} aria-invalid={error !== undefined} aria-describedby={`${id}-note`}>
        {(offerNone || (field.required && input.value === '')) && (
          <option value="">{offerNone ? t('messageDestination.none') : t('messageDestination.choose')}</option>
        )}
        {field.options.map((option) => (
          <option key={String(option)} value={String(option)}>
            {String(option)}
          </option>
        ))}
      </select>
      {error !== undefined ? (
        <Note id={`${id}-note`} role="alert" $error>
          {error}
        </Note>
      ) : (
        <Note id={`${id}-note`}>{help}</Note>
      )}
    </Control>
  );
}

function SettingList({ name, label, field, disabled }: SettingControlProps<Extract<SettingField, { control: 'list' }>>) {
  const t = useMessages();
  const [input, , helpers] = useField<string[]>(name);
  const error = useListError(name);
  const entries = input.value;
  const set = (next: string[]) => void helpers.setValue(next);
  return (
    <Control role="group" aria-label={label}>
      <span>{label}</span>
      {entries.map((entry, index) => (
        <Row key={index}>
          <input
            aria-label={t('messageDestination.list.entry', { label, number: index + 1 })}
            value={entry}
            disabled={disabled}
            spellCheck={false}
            onChange={(event) => set(entries.map((each, at) => (at === index ? event.target.value : each)))}
            onBlur={() => void helpers.setTouched(true)}
          />
          {!disabled && (
            <button
              type="button"
              aria-label={t('messageDestination.list.remove', { label, number: index + 1 })}
              onClick={() => set(entries.filter((_, at) => at !== index))}
            >
              ×
            </button>
          )}
        </Row>
      ))}
      {!disabled && (field.max === null || entries.length < field.max) && (
        <AddButton type="button" onClick={() => set([...entries, ''])}>
          {t('messageDestination.list.add', { label })}
        </AddButton>
      )}
      {error !== undefined && (
        <Note role="alert" $error>
          {error}
        </Note>
      )}
    </Control>
  );
}

function SettingRecords({ name, label, field, help, disabled }: SettingControlProps<Extract<SettingField, { control: 'records' }>>) {
  const t = useMessages();
  const [input, , helpers] = useField<Record<string, string>[]>(name);
  const error = useListError(name);
  const records = input.value;
  const set = (next: Record<string, string>[]) => void helpers.setValue(next);
  const blank = () => Object.fromEntries(field.itemFields.map((each) => [each, '']));
  return (
    <Control role="group" aria-label={label}>
      <span>{label}</span>
      {records.map((record, index) => (
        <Row key={index}>
          {field.itemFields.map((part) => (
            <input
              key={part}
              aria-label={t('messageDestination.records.part', { label, number: index + 1, part: labelOf(t, `${field.name}.${part}`) })}
              placeholder={labelOf(t, `${field.name}.${part}`)}
              // The values of a secret list (an Authorization header) are typed like passwords.
              type={field.secret && part !== field.itemFields[0] ? 'password' : 'text'}
              autoComplete="off"
              spellCheck={false}
              value={record[part] ?? ''}
              disabled={disabled}
              onChange={(event) => set(records.map((each, at) => (at === index ? { ...each, [part]: event.target.value } : each)))}
              onBlur={() => void helpers.setTouched(true)}
            />
          ))}
          {!disabled && (
            <button
              type="button"
              aria-label={t('messageDestination.list.remove', { label, number: index + 1 })}
              onClick={() => set(records.filter((_, at) => at !== index))}
            >
              ×
            </button>
          )}
        </Row>
      ))}
      {!disabled && (field.max === null || records.length < field.max) && (
        <AddButton type="button" onClick={() => set([...records, blank()])}>
          {t('messageDestination.list.add', { label })}
        </AddButton>
      )}
      {error !== undefined ? (
        <Note role="alert" $error>
          {error}
        </Note>
      ) : (
        help !== undefined && <Note>{help}</Note>
      )}
    </Control>
  );
}

const Control = styled.div`
  display: flex;
  flex-direction: column;
  gap: 4px;
  margin-bottom: 14px;
  > label,
  > span:first-child {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
  select,
  input {
    min-height: 38px;
    padding: 0 10px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: 6px;
    background: ${({ theme }) => theme.colors.surface};
  }
`;

const Row = styled.div`
  display: flex;
  gap: 6px;
  input {
    flex: 1;
    min-width: 0;
  }
  button {
    border: 0;
    background: none;
    cursor: pointer;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const AddButton = styled.button`
  align-self: flex-start;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: 6px;
  background: none;
  padding: 6px 12px;
  cursor: pointer;
  color: ${({ theme }) => theme.colors.primary};
`;

const Note = styled.span<{ $error?: boolean }>`
  font-size: 12px;
  color: ${({ theme, $error }) => ($error ? theme.colors.error : theme.colors.textMuted)};
`;
