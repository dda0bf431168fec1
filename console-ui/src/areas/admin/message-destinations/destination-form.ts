import { getIn } from 'formik';
import * as yup from 'yup';
import type { ValidationIssue } from '../../../../../contracts/errors';
import {
  destinationMonitorSettingsSchema,
  messageDestinationCreateSchema,
  type DestinationKind,
  type DestinationMonitorSettings,
} from '../../../../../contracts/forwarding';
import { apiErrorOfApollo } from '../../../api/apollo';
import { changedContacts, outageUsersOf, outageUsersSchema, type OutageUser } from '../devices/OutageContactFields';
import { fieldPathOf, settingFieldsOf, settingsErrors, settingsFormValues, settingsOfForm, type SettingsValues } from './destination-settings-form';

/** A destination as the form holds it: the kind's settings under `destination`, numbers as typed. */
export interface DestinationFormValues {
  name: string;
  organizationHashId: string;
  destination: SettingsValues;
  outageEmails: string[];
  outageUsers: OutageUser[];
  monitorSettings: { enabled: boolean; maxLagSeconds: string };
}

/** A saved destination, as the edit form starts from it. */
export interface SavedDestination {
  name: string;
  organizationHashId: string;
  destination: Record<string, unknown>;
  outageEmails: readonly string[];
  outageUsers: readonly OutageUser[];
  monitorSettings: { enabled: boolean; maxLagSeconds?: number | null };
}

export function destinationFormValues(kind: DestinationKind, saved: SavedDestination | null = null): DestinationFormValues {
  return {
    name: saved?.name ?? '',
    organizationHashId: saved?.organizationHashId ?? '',
    destination: settingsFormValues(kind, saved?.destination ?? null),
    outageEmails: [...(saved?.outageEmails ?? [])],
    outageUsers: outageUsersOf(saved?.outageUsers ?? []),
    monitorSettings: {
      enabled: saved?.monitorSettings.enabled ?? true,
      maxLagSeconds:
        saved?.monitorSettings.maxLagSeconds === null || saved?.monitorSettings.maxLagSeconds === undefined ? '' : String(saved.monitorSettings.maxLagSeconds),
    },
  };
}

/** The fields besides the settings, by createMessageDestination's rules (contracts/forwarding.ts). */
export const destinationFormSchema = messageDestinationCreateSchema
  .pick(['name', 'organizationHashId', 'outageEmails'])
  .shape({ outageUsers: outageUsersSchema });

const monitorOf = (values: DestinationFormValues): DestinationMonitorSettings => {
  const lag = values.monitorSettings.maxLagSeconds.trim();
  return { enabled: values.monitorSettings.enabled, maxLagSeconds: lag === '' ? null : Number(lag) };
};

/** The settings and monitor messages (the rest is destinationFormSchema's); `keptSecrets` are those a saved destination holds. */
export function destinationFormErrors(kind: DestinationKind, values: DestinationFormValues, keptSecrets: readonly string[] = []): object {
  const errors = settingsErrors(kind, values.destination, keptSecrets);
  try {
    destinationMonitorSettingsSchema.validateSync(monitorOf(values));
    return errors;
  } catch (error) {
    if (!(error instanceof yup.ValidationError)) {
      throw error;
    }
    return { ...errors, monitorSettings: { [error.path ?? 'maxLagSeconds']: error.errors[0] ?? error.message } };
  }
}

/** What createMessageDestination takes. */
export function destinationCreateInput(kind: DestinationKind, values: DestinationFormValues) {
  return {
    name: values.name.trim(),
    organizationHashId: values.organizationHashId,
    outageEmails: values.outageEmails,
    outageUsersHashIds: values.outageUsers.map((user) => user.hashId),
    destination: settingsOfForm(kind, values.destination),
    monitorSettings: monitorOf(values),
  };
}

const sameJson = (one: unknown, other: unknown) => JSON.stringify(one) === JSON.stringify(other);

/** Only what changed, as updateMessageDestination takes it (the settings whole, kept secrets left out). */
export function destinationChanges(kind: DestinationKind, before: DestinationFormValues, after: DestinationFormValues, keptSecrets: readonly string[]) {
  const contacts = changedContacts({ emails: before.outageEmails, users: before.outageUsers }, { emails: after.outageEmails, users: after.outageUsers });
  const settingsBefore = settingsOfForm(kind, before.destination, keptSecrets);
  const settingsAfter = settingsOfForm(kind, after.destination, keptSecrets);
  const monitorAfter = monitorOf(after);
  return {
    ...(after.name.trim() === before.name ? {} : { name: after.name.trim() }),
    ...(contacts.emails === undefined ? {} : { outageEmails: contacts.emails }),
    ...(contacts.userHashIds === undefined ? {} : { outageUsersHashIds: contacts.userHashIds }),
    ...(sameJson(settingsBefore, settingsAfter) ? {} : { destination: settingsAfter }),
    ...(sameJson(monitorOf(before), monitorAfter) ? {} : { monitorSettings: monitorAfter }),
  };
}

/** The settings that name where the destination is, the first the kind has and the form filled: where an address refusal is shown. */
const addressSettings = ['url', 'endpoint', 'host', 'brokers', 'region'];

export interface DestinationRefusal {
  /** Messages at the form's fields, by formik path. */
  fields: Record<string, string>;
  /** Messages of no field of the form. */
  general: string[];
}

/**
 * The server's refusal of a save as the form shows it: payload_invalid issues at their fields
 * (`destination.port`, `destination.headers[0].name` at the headers), an address it may not
 * reach at the address field, changing_type under the form; null for any other failure.
 */
export function destinationRefusalOf(
  error: unknown,
  kind: DestinationKind,
  values: DestinationFormValues,
  texts: { addressNotAllowed: string; changingType: string },
): DestinationRefusal | null {
  const apiError = apiErrorOfApollo(error);
  if (apiError === null) {
    return null;
  }
  if (apiError.is('destination_address_not_allowed')) {
    const names = settingFieldsOf(kind).map((field) => field.name);
    const filled = addressSettings.filter((name) => names.includes(name) && (values.destination[name] ?? '') !== '');
    const at = filled[0] ?? addressSettings.find((name) => names.includes(name));
    return at === undefined ? { fields: {}, general: [texts.addressNotAllowed] } : { fields: { [`destination.${at}`]: texts.addressNotAllowed }, general: [] };
  }
  if (apiError.is('changing_type')) {
    return { fields: {}, general: [texts.changingType] };
  }
  if (!apiError.is('payload_invalid') || !Array.isArray(apiError.details)) {
    return null;
  }
  const refusal: DestinationRefusal = { fields: {}, general: [] };
  for (const issue of apiError.details as Partial<ValidationIssue>[]) {
    const path = typeof issue.path === 'string' ? issue.path : '';
    const message = typeof issue.message === 'string' ? issue.message : path;
    const field = path.startsWith('destination.') ? fieldPathOf(path.slice('destination.'.length)) : path.replace(/^outageUsersHashIds/, 'outageUsers');
    if (field !== 'destination' && getIn(values, field) !== undefined && refusal.fields[field] === undefined) {
      refusal.fields[field] = message;
    } else {
      refusal.general.push(path === '' ? message : `${message} (${path})`);
    }
  }
  return refusal;
}
