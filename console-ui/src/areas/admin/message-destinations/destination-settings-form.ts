import { getIn, setIn } from 'formik';
import { ValidationError, type SchemaDescription, type SchemaInnerTypeDescription, type SchemaObjectDescription } from 'yup';
import { destinationSettingsSchemaOf, destinationSettingsSchemas, secretSettings, type DestinationKind } from '../../../../../contracts/forwarding';

/**
 * The settings form of each destination kind, read from the kind's schema in contracts/forwarding.ts
 * (its description: types, defaults, choices, limits) so that the form and the server check one
 * shape. Numbers are held as text while typed and become numbers when sent.
 */

/** Settings whose text spans lines (PEM certificates, private keys, host keys). */
const multilineSettings: ReadonlySet<string> = new Set(['tlsCaCertificate', 'privateKey', 'hostKey']);

interface FieldBase {
  name: string;
  required: boolean;
  /** Kept encrypted by the server and never returned (contracts secretSettings). */
  secret: boolean;
}

export type SettingField =
  | (FieldBase & { control: 'text'; multiline: boolean; defaultValue: string | null; maxLength: number | null })
  | (FieldBase & { control: 'number'; defaultValue: number | null; min: number | null; max: number | null })
  | (FieldBase & { control: 'boolean'; defaultValue: boolean })
  | (FieldBase & { control: 'select'; options: readonly (string | number)[]; defaultValue: string | number | null })
  /** A list of strings (kafka's brokers). */
  | (FieldBase & { control: 'list'; min: number; max: number | null })
  /** A list of records of strings (http's headers: name and value). */
  | (FieldBase & { control: 'records'; itemFields: readonly string[]; max: number | null });

/** A setting as the form holds it. */
export type SettingValue = string | boolean | string[] | Record<string, string>[];
export type SettingsValues = Record<string, SettingValue>;

type Described = SchemaDescription & { default?: unknown; innerType?: SchemaInnerTypeDescription; fields?: Record<string, unknown> };

const limitOf = (description: Described, test: 'min' | 'max'): number | null => {
  const found = description.tests.find((each) => each.name === test)?.params?.[test];
  return typeof found === 'number' ? found : null;
};

function fieldOf(name: string, description: Described, secret: boolean): SettingField {
  const required = !description.optional;
  const base = { name, required, secret };
  if (description.oneOf.length > 0) {
    const defaultValue = typeof description.default === 'string' || typeof description.default === 'number' ? description.default : null;
    return { ...base, control: 'select', options: description.oneOf as (string | number)[], defaultValue };
  }
  switch (description.type) {
    case 'number':
      return {
        ...base,
        control: 'number',
        defaultValue: typeof description.default === 'number' ? description.default : null,
        min: limitOf(description, 'min'),
        max: limitOf(description, 'max'),
      };
    case 'boolean':
      return { ...base, control: 'boolean', defaultValue: description.default === true };
    case 'array': {
      const inner = description.innerType as Described | undefined;
      if (inner?.type === 'object' && inner.fields !== undefined) {
        return { ...base, control: 'records', itemFields: Object.keys(inner.fields), max: limitOf(description, 'max') };
      }
      return { ...base, control: 'list', min: limitOf(description, 'min') ?? 0, max: limitOf(description, 'max') };
    }
    default:
      return {
        ...base,
        control: 'text',
        multiline: multilineSettings.has(name),
        defaultValue: typeof description.default === 'string' ? description.default : null,
        maxLength: limitOf(description, 'max'),
      };
  }
}

/** The fields of a kind's settings, in the schema's order. */
export function settingFieldsOf(kind: DestinationKind): SettingField[] {
  const description = destinationSettingsSchemas[kind].describe() as SchemaObjectDescription;
  const secrets = secretSettings[kind];
  return Object.entries(description.fields).map(([name, field]) => fieldOf(name, field as Described, secrets.includes(name)));
}

function initialValueOf(field: SettingField, saved: Record<string, unknown> | null): SettingValue {
  const value = saved?.[field.name];
  switch (field.control) {
    case 'boolean':
      return typeof value === 'boolean' ? value : field.defaultValue;
    case 'list':
      return Array.isArray(value) ? value.map(String) : field.required ? [''] : [];
    case 'records':
      return Array.isArray(value)
        ? value.map((record) => Object.fromEntries(field.itemFields.map((name) => [name, String((record as Record<string, unknown>)[name] ?? '')])))
        : [];
    case 'number':
    case 'select':
    case 'text':
      if (value !== undefined && value !== null) {
        return String(value);
      }
      return field.defaultValue === null ? '' : String(field.defaultValue);
  }
}

/**
 * The form's values for a kind: a saved destination's settings (secrets are never returned, so
 * they start empty), or the kind's defaults for a new one.
 */
export function settingsFormValues(kind: DestinationKind, saved: Record<string, unknown> | null = null): SettingsValues {
  return Object.fromEntries(settingFieldsOf(kind).map((field) => [field.name, initialValueOf(field, saved)]));
}

const isBlankRecord = (record: Record<string, string>) => Object.values(record).every((value) => value.trim() === '');

/** Whether a secret field was left empty (and so keeps what the server holds). */
export function secretLeftEmpty(field: SettingField, value: SettingValue | undefined): boolean {
  if (field.control === 'records') {
    return !Array.isArray(value) || (value as Record<string, string>[]).every(isBlankRecord);
  }
  return value === undefined || value === '';
}

/** One field's value as the schema takes it; undefined leaves it out (the default applies, or a kept secret stays). */
function settingOf(field: SettingField, value: SettingValue | undefined): unknown {
  switch (field.control) {
    case 'boolean':
      return value === true;
    case 'list':
      return (Array.isArray(value) ? (value as string[]) : []).filter((entry) => entry.trim() !== '');
    case 'records':
      return (Array.isArray(value) ? (value as Record<string, string>[]) : []).filter((record) => !isBlankRecord(record));
    case 'number': {
      const text = typeof value === 'string' ? value.trim() : '';
      return text === '' ? undefined : Number(text);
    }
    case 'select': {
      const text = typeof value === 'string' ? value : '';
      if (text === '') {
        return undefined;
      }
      return typeof field.options[0] === 'number' ? Number(text) : text;
    }
    case 'text': {
      const text = typeof value === 'string' ? value : '';
      return text.trim() === '' && !field.required ? undefined : text;
    }
  }
}

/**
 * A kind's settings as createMessageDestination and updateMessageDestination take them (`type`
 * and the kind's fields). Secrets in `keptSecrets` (those the server holds) left empty are
 * left out, so the server keeps them.
 */
export function settingsOfForm(
  kind: DestinationKind,
  values: SettingsValues,
  keptSecrets: readonly string[] = [],
): Record<string, unknown> & { type: DestinationKind } {
  const settings: Record<string, unknown> & { type: DestinationKind } = { type: kind };
  for (const field of settingFieldsOf(kind)) {
    const value = values[field.name];
    if (field.secret && keptSecrets.includes(field.name) && secretLeftEmpty(field, value)) {
      continue;
    }
    const setting = settingOf(field, value);
    if (setting !== undefined) {
      settings[field.name] = setting;
    }
  }
  return settings;
}

/**
 * The form field a settings issue belongs to: the setting it names first (`headers[1].name` is
 * the headers field's), under `prefix`; `prefix` alone for an issue of the whole.
 */
export function fieldPathOf(path: string, prefix = 'destination'): string {
  const setting = /^[A-Za-z0-9_-]+/.exec(path)?.[0];
  return setting === undefined ? prefix : `${prefix}.${setting}`;
}

/** Stands in for a kept secret while the form checks the rest (the server checks the kept value itself). */
const keptPlaceholder = (field: SettingField): unknown => (field.control === 'records' ? [] : 'kept');

/**
 * The form's messages for a kind's settings under `prefix` (`destination`), by the kind's own
 * schema; empty when they pass.
 */
export function settingsErrors(kind: DestinationKind, values: SettingsValues, keptSecrets: readonly string[] = [], prefix = 'destination'): object {
  const settings = settingsOfForm(kind, values, keptSecrets);
  for (const field of settingFieldsOf(kind)) {
    if (field.secret && keptSecrets.includes(field.name) && settings[field.name] === undefined) {
      settings[field.name] = keptPlaceholder(field);
    }
  }
  try {
    destinationSettingsSchemaOf(kind).validateSync(settings, { abortEarly: false });
    return {};
  } catch (error) {
    if (!(error instanceof ValidationError)) {
      throw error;
    }
    let errors: object = {};
    for (const issue of error.inner.length > 0 ? error.inner : [error]) {
      // One message a setting, shown under it (an entry of a list names its index in the message).
      const path = fieldPathOf(issue.path ?? '', prefix);
      if (getIn(errors, path) === undefined) {
        errors = setIn(errors, path, issue.errors[0] ?? issue.message);
      }
    }
    return errors;
  }
}
