import * as yup from 'yup';
import { paginationQuery } from './pagination';
import type { NamedReference } from './references';

/** Kinds of objects the audit log records changes of; plural snake_case as their tables. */
export const auditObjectTypes = [
  'devices',
  'message_destinations',
  'issues',
  'organizations',
  'users',
  'api_keys',
  'contacts',
  'device_groups',
  'partnerships',
  'billing_legal_entities',
  'billing_charges',
  'billing_invoices',
] as const;
export type AuditObjectType = (typeof auditObjectTypes)[number];

/** Change types (console.md section 3, "Audit log row"). */
export const auditChangeTypes = [
  'controllerCreate',
  'controllerUpdate',
  'controllerDelete',
  'messageFromDevice',
  'controllerDeviceShipped',
  'controllerMessageToDevice',
  'controllerUserPasswordReset',
  'controller2faChanges',
  'deviceGatewayMonitoring',
  'deviceGatewayMessageToDevice',
] as const;
export type AuditChangeType = (typeof auditChangeTypes)[number];

/** A field that changed, typed by what it holds. Hidden fields (secrets) carry no values. */
export type DiffEntry =
  | { type: 'number'; name: string; oldValue: number | null; newValue: number | null }
  | { type: 'string'; name: string; oldValue: string | null; newValue: string | null }
  | { type: 'id'; name: string; oldValue: string | null; newValue: string | null }
  | { type: 'hidden'; name: string }
  | { type: 'boolean'; name: string; oldValue: boolean | null; newValue: boolean | null }
  | { type: 'date'; name: string; oldValue: string | null; newValue: string | null }
  | { type: 'json'; name: string; oldValue: unknown; newValue: unknown }
  | { type: 'link'; name: string; objectType: string; oldHashId: string | null; newHashId: string | null }
  | { type: 'link-many'; name: string; objectType: string; addedHashIds: string[]; removedHashIds: string[] }
  | { type: 'message-to-device'; name: string; message: unknown };

export type DiffEntryType = DiffEntry['type'];

export const auditLogQuerySchema = yup
  .object({
    ...paginationQuery,
    objectType: yup.string().oneOf(auditObjectTypes).optional(),
    objectHashId: yup.string().trim().max(64).optional(),
    transactionIdentifier: yup.string().trim().uuid().optional(),
  })
  .exact()
  .test('object-hash-id-needs-type', function needsObjectType(value) {
    if (value.objectHashId !== undefined && value.objectType === undefined) {
      return this.createError({ path: 'objectHashId', message: 'objectHashId needs objectType' });
    }
    return true;
  });

export type AuditLogQuery = yup.InferType<typeof auditLogQuerySchema>;

export interface AuditLogRowView {
  hashId: string;
  transactionIdentifier: string;
  objectHashId: string;
  objectType: AuditObjectType;
  changeType: AuditChangeType;
  diff: DiffEntry[];
  user: NamedReference | null;
  actorName: string;
  createdAt: string;
}

export const auditLogRowSchema = yup.object({
  hashId: yup.string().required(),
  transactionIdentifier: yup.string().required(),
  objectHashId: yup.string().required(),
  objectType: yup.string().oneOf(auditObjectTypes).required(),
  changeType: yup.string().oneOf(auditChangeTypes).required(),
  diff: yup.array(yup.object()).required(),
  user: yup.object({ hashId: yup.string().required(), name: yup.string().required() }).nullable().default(null),
  actorName: yup.string().required(),
  createdAt: yup.string().required(),
});
