import type { Knex } from 'knex';
import type { DiffEntry } from '../../../contracts/audit-log';
import {
  isCountryCode,
  legalEntityUpdateSchema,
  taxNumberRequired,
  type BillingLegalEntityView,
  type LegalEntityCreate,
  type LegalEntityListQuery,
  type LegalEntityUpdate,
} from '../../../contracts/billing';
import { GridportError } from '../../../contracts/errors';
import type { Page } from '../../../contracts/pagination';
import { issuesOf } from '../../../contracts/validation';
import { authorize, type Actor } from '../../common/context';
import { findByHashId } from '../../common/find-by-hash-id';
import { pageRowsById } from '../../common/cursor';
import { diffObjects, type FieldTypes } from '../../common/diff';
import type { HashIds } from '../../common/hash-ids';
import { containsPattern } from '../../common/like';
import { listOrganizationScope } from '../../common/tenancy';
import { write, type Write } from '../../common/write';
import type { IdentityDirectory } from '../../identity/services/directory.service';
import { BillingLegalEntityModel } from '../models/billing-legal-entity.model';
import type { ContactDetails, MoneybirdContacts } from './moneybird.client';
import { isoTime } from '../../common/timestamps';

/** The details of a legal entity, as stored. */
type Details = Pick<
  BillingLegalEntityModel,
  'companyName' | 'address1' | 'address2' | 'zipcode' | 'city' | 'country' | 'emails' | 'chamberOfCommerce' | 'taxNumber' | 'accountingContactId'
>;

const detailFields = ['companyName', 'address1', 'address2', 'zipcode', 'city', 'country', 'emails', 'chamberOfCommerce', 'taxNumber'] as const;

const auditedFields: FieldTypes<BillingLegalEntityModel> = {
  organizationId: 'number',
  companyName: 'string',
  address1: 'string',
  address2: 'string',
  zipcode: 'string',
  city: 'string',
  country: 'string',
  emails: 'json',
  chamberOfCommerce: 'string',
  taxNumber: 'string',
  accountingContactId: 'string',
};

/** Distinct emails regardless of case, as first given. */
function distinctEmails(emails: readonly string[]): string[] {
  const seen = new Set<string>();
  return emails.filter((email) => {
    const key = email.toLowerCase();
    if (seen.has(key)) {
      return false;
    }
    seen.add(key);
    return true;
  });
}

/** The details `given` names (undefined: not given), over `base`. */
function overlay(base: Partial<Details>, given: Partial<Record<keyof Details, unknown>>): Partial<Details> {
  const result: Partial<Details> = { ...base };
  for (const [field, value] of Object.entries(given) as [keyof Details, unknown][]) {
    if (value !== undefined) {
      Object.assign(result, { [field]: value });
    }
  }
  return result;
}

/** The details a Moneybird contact gives, without the ones it leaves empty (so they take nothing away). */
function contactOverlay(contact: ContactDetails): Partial<Details> {
  const details: Partial<Details> = {};
  for (const field of detailFields) {
    const value = contact[field];
    if (field === 'emails' ? contact.emails.length > 0 : value !== null) {
      Object.assign(details, { [field]: value });
    }
  }
  return details;
}

/**
 * The rules every legal entity meets, whether its details were given or came from Moneybird
 * (console.md section 5; docs/billing.md, "Legal entities"): a company name, the limits of
 * contracts/billing.ts (payload_invalid), an ISO 3166-1 alpha-2 country (country_invalid) and
 * the EU tax-number rule (tax_number_required_for_eu_countries).
 */
export function checkedDetails(details: Partial<Details>): Details {
  const issues = issuesOf(legalEntityUpdateSchema, Object.fromEntries(detailFields.map((field) => [field, details[field]])));
  if (!details.companyName) {
    issues.push({ path: 'companyName', message: 'companyName is a required field (the Moneybird contact has no name)' });
  }
  if (issues.length > 0) {
    throw new GridportError('payload_invalid', issues);
  }
  const country = (details.country ?? '').trim().toUpperCase();
  if (!isCountryCode(country)) {
    throw new GridportError('country_invalid', { country: details.country ?? null });
  }
  const taxNumber = details.taxNumber?.trim() || null;
  if (taxNumberRequired(country) && taxNumber === null) {
    throw new GridportError('tax_number_required_for_eu_countries', { country });
  }
  const optional = (value: string | null | undefined) => value?.trim() || null;
  return {
    companyName: (details.companyName ?? '').trim(),
    address1: optional(details.address1),
    address2: optional(details.address2),
    zipcode: optional(details.zipcode),
    city: optional(details.city),
    country,
    emails: distinctEmails((details.emails ?? []).map((email) => email.trim())),
    chamberOfCommerce: optional(details.chamberOfCommerce),
    taxNumber,
    accountingContactId: details.accountingContactId ?? null,
  };
}

/**
 * The legal entity behind `hashId` when it belongs to organisation `organizationId`, for other
 * services (a device's invoice details): not_found otherwise, another organisation's included.
 */
export async function legalEntityOfOrganization(db: Knex, hashIds: HashIds, hashId: string, organizationId: number): Promise<number> {
  const id = hashIds.decode('billingLegalEntity', hashId);
  // Shared lock: the legal entity is not deleted under the caller's transaction.
  const entity = id === null ? undefined : await BillingLegalEntityModel.query(db).findById(id).select('id', 'organization_id').forShare();
  if (!entity || Number(entity.organizationId) !== organizationId) {
    throw new GridportError('not_found', { billingLegalEntityHashId: hashId });
  }
  return Number(entity.id);
}

/**
 * Billing legal entities (console.md sections 3, 5 and 7; docs/billing.md, "Legal entities"):
 * the companies an organisation's invoices are addressed to, made from full details or from a
 * Moneybird contact (details given override the contact's), one of them the organisation's
 * default. An organisation's default, or one on an invoice, is not deleted (is_in_use); the
 * devices and uninvoiced charges naming a deleted one fall back to the organisation's default.
 */
export class LegalEntityService {
  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
    private readonly directory: IdentityDirectory,
    private readonly moneybird: MoneybirdContacts,
  ) {}

  private notFound(hashId: string): GridportError {
    return new GridportError('not_found', { billingLegalEntityHashId: hashId });
  }

  private async find(hashId: string, db: Knex, lock = false): Promise<BillingLegalEntityModel> {
    return findByHashId(BillingLegalEntityModel, db, this.hashIds, 'billingLegalEntity', hashId, { lock });
  }

  /** The default legal entity of each of these organisations. */
  private async defaultsOf(db: Knex, organizationIds: readonly number[]): Promise<Map<number, number | null>> {
    const rows = (await db('organizations')
      .whereIn('id', [...new Set(organizationIds)])
      .select('id', 'default_billing_legal_entity_id')) as {
      id: string | number;
      default_billing_legal_entity_id: string | number | null;
    }[];
    return new Map(rows.map((row) => [Number(row.id), row.default_billing_legal_entity_id === null ? null : Number(row.default_billing_legal_entity_id)]));
  }

  async present(entities: readonly BillingLegalEntityModel[], db: Knex = this.db): Promise<BillingLegalEntityView[]> {
    if (entities.length === 0) {
      return [];
    }
    const organizationIds = entities.map((entity) => Number(entity.organizationId));
    const [names, defaults] = await Promise.all([this.directory.organizationNames(db, organizationIds), this.defaultsOf(db, organizationIds)]);
    return entities.map((entity) => {
      const id = Number(entity.id);
      const organizationId = Number(entity.organizationId);
      return {
        hashId: this.hashIds.encode('billingLegalEntity', id),
        organization: { hashId: this.hashIds.encode('organization', organizationId), name: names.get(organizationId) ?? '' },
        companyName: entity.companyName,
        address1: entity.address1,
        address2: entity.address2,
        zipcode: entity.zipcode,
        city: entity.city,
        country: entity.country,
        emails: entity.emails,
        chamberOfCommerce: entity.chamberOfCommerce,
        taxNumber: entity.taxNumber,
        accountingContactId: entity.accountingContactId,
        isOrganizationDefault: defaults.get(organizationId) === id,
        createdAt: isoTime(new Date(entity.createdAt)),
        updatedAt: isoTime(new Date(entity.updatedAt)),
      };
    });
  }

  private async presentOne(entity: BillingLegalEntityModel, db: Knex = this.db): Promise<BillingLegalEntityView> {
    const [view] = await this.present([entity], db);
    if (!view) {
      throw this.notFound(this.hashIds.encode('billingLegalEntity', entity.id));
    }
    return view;
  }

  /**
   * Makes `entityId` the organisation's default (`makeDefault`) or, when it is the default, no
   * longer so; the organisation row is locked, so two writers never leave two defaults. Audited
   * on the organisation; answers whether the entity was the default before.
   */
  private async setDefault(w: Write, organizationId: number, entityId: number, makeDefault: boolean | undefined): Promise<{ before: boolean; after: boolean }> {
    const row = (await w.trx('organizations').where('id', organizationId).forUpdate().first('default_billing_legal_entity_id')) as
      { default_billing_legal_entity_id: string | number | null } | undefined;
    const current = row?.default_billing_legal_entity_id === null || row === undefined ? null : Number(row.default_billing_legal_entity_id);
    const before = current === entityId;
    if (makeDefault === undefined || makeDefault === before) {
      return { before, after: before };
    }
    const next = makeDefault ? entityId : null;
    await w.trx('organizations').where('id', organizationId).update({ default_billing_legal_entity_id: next, updated_at: new Date() });
    await w.audit({
      objectType: 'organizations',
      objectId: organizationId,
      organizationId,
      changeType: 'controllerUpdate',
      diff: [{ type: 'number', name: 'defaultBillingLegalEntityId', oldValue: current, newValue: next }],
    });
    return { before, after: makeDefault };
  }

  async create(actor: Actor, input: LegalEntityCreate): Promise<BillingLegalEntityView> {
    authorize(actor, 'billingLegalEntity.create');
    const organizationId = this.hashIds.decode('organization', input.organizationHashId);
    if (organizationId === null || !(await this.directory.organizationExists(this.db, organizationId))) {
      throw new GridportError('not_found', { organizationHashId: input.organizationHashId });
    }
    // Moneybird is asked before the transaction, so no lock waits on it.
    const fromContact = input.accountingContactId ? contactOverlay(await this.moneybird.contactDetails(input.accountingContactId)) : {};
    const given = {
      companyName: input.companyName,
      address1: input.address1 ?? undefined,
      address2: input.address2 ?? undefined,
      zipcode: input.zipcode ?? undefined,
      city: input.city ?? undefined,
      country: input.country,
      emails: input.emails.length > 0 ? input.emails : undefined,
      chamberOfCommerce: input.chamberOfCommerce ?? undefined,
      taxNumber: input.taxNumber ?? undefined,
    };
    const details = checkedDetails({ ...overlay(fromContact, given), accountingContactId: input.accountingContactId });
    const entity = await write(this.db, actor, async (w) => {
      if (!(await this.directory.organizationExists(w.trx, organizationId))) {
        throw new GridportError('not_found', { organizationHashId: input.organizationHashId });
      }
      const created = await BillingLegalEntityModel.query(w.trx).insertAndFetch({ organizationId, ...details });
      const { after } = await this.setDefault(w, organizationId, Number(created.id), input.isOrganizationDefault || undefined);
      await w.audit({
        objectType: 'billing_legal_entities',
        objectId: Number(created.id),
        organizationId,
        changeType: 'controllerCreate',
        diff: [...diffObjects(auditedFields, null, created), { type: 'boolean', name: 'isOrganizationDefault', oldValue: null, newValue: after }],
      });
      return created;
    });
    return this.presentOne(entity);
  }

  async get(actor: Actor, hashId: string): Promise<BillingLegalEntityView> {
    authorize(actor, 'billingLegalEntity.read');
    return this.presentOne(await this.find(hashId, this.db));
  }

  /** Legal entities newest first, of one organisation or all, by company name (contains, any case). */
  async list(actor: Actor, query: LegalEntityListQuery): Promise<Page<BillingLegalEntityView>> {
    authorize(actor, 'billingLegalEntity.list');
    const builder = BillingLegalEntityModel.query(this.db);
    const organizationId = listOrganizationScope(actor, this.hashIds, query.organizationHashId);
    if (organizationId !== null) {
      void builder.where('organization_id', organizationId);
    }
    if (query.filter) {
      void builder.whereILike('company_name', containsPattern(query.filter));
    }
    const page = await pageRowsById(builder, query);
    return { rows: await this.present(page.rows), nextPageOffset: page.nextPageOffset };
  }

  /**
   * Changes what is given. A Moneybird contact id given (again) fills the details in from the
   * contact, and the details given beside it override the contact's; null unlinks the contact.
   * The result meets the same rules as a new legal entity.
   */
  async update(actor: Actor, hashId: string, patch: LegalEntityUpdate): Promise<BillingLegalEntityView> {
    authorize(actor, 'billingLegalEntity.update');
    await this.find(hashId, this.db);
    const fromContact = patch.accountingContactId ? contactOverlay(await this.moneybird.contactDetails(patch.accountingContactId)) : {};
    const entity = await write(this.db, actor, async (w) => {
      const before = await this.find(hashId, w.trx, true);
      const merged = overlay(overlay(before, fromContact), { ...patch, isOrganizationDefault: undefined } as Partial<Record<keyof Details, unknown>>);
      const details = checkedDetails(merged);
      const changed = diffObjects(auditedFields, before, { ...before, ...details });
      const after =
        changed.length > 0 ? await BillingLegalEntityModel.query(w.trx).patchAndFetchById(before.id, { ...details, updatedAt: new Date() }) : before;
      const organizationId = Number(before.organizationId);
      const flag = await this.setDefault(w, organizationId, Number(before.id), patch.isOrganizationDefault);
      const diff: DiffEntry[] = [...changed];
      if (flag.before !== flag.after) {
        diff.push({ type: 'boolean', name: 'isOrganizationDefault', oldValue: flag.before, newValue: flag.after });
      }
      if (diff.length > 0) {
        await w.audit({ objectType: 'billing_legal_entities', objectId: Number(before.id), organizationId, changeType: 'controllerUpdate', diff });
      }
      return after;
    });
    return this.presentOne(entity);
  }

  /**
   * Deletes a legal entity that is neither its organisation's default nor on an invoice
   * (is_in_use otherwise, with the reason); devices and uninvoiced charges naming it fall back
   * to the organisation's default (audited on each device).
   */
  async delete(actor: Actor, hashId: string): Promise<void> {
    authorize(actor, 'billingLegalEntity.delete');
    await write(this.db, actor, async (w) => {
      const entity = await this.find(hashId, w.trx, true);
      const id = Number(entity.id);
      const organizationId = Number(entity.organizationId);
      const defaults = (await w.trx('organizations').where('default_billing_legal_entity_id', id).forUpdate().select('id')) as unknown[];
      if (defaults.length > 0) {
        throw new GridportError('is_in_use', { billingLegalEntityHashId: hashId, reason: 'it is its organisation’s default legal entity' });
      }
      const invoiced = (await w.trx('billing_invoices').where('billing_legal_entity_id', id).first('id')) as unknown;
      if (invoiced !== undefined) {
        throw new GridportError('is_in_use', { billingLegalEntityHashId: hashId, reason: 'an invoice is addressed to it' });
      }
      const chargedOnInvoice = (await w.trx('billing_charges').where('billing_legal_entity_id', id).whereNotNull('invoice_id').first('id')) as unknown;
      if (chargedOnInvoice !== undefined) {
        throw new GridportError('is_in_use', { billingLegalEntityHashId: hashId, reason: 'an invoiced charge names it' });
      }
      await w.trx('billing_charges').where('billing_legal_entity_id', id).whereNull('invoice_id').update({ billing_legal_entity_id: null });
      const devices = (await w
        .trx('devices')
        .where('billing_legal_entity_id', id)
        .update({ billing_legal_entity_id: null, updated_at: new Date() })
        .returning(['id', 'organization_id'])) as { id: string | number; organization_id: string | number | null }[];
      for (const device of devices) {
        await w.audit({
          objectType: 'devices',
          objectId: Number(device.id),
          organizationId: device.organization_id === null ? null : Number(device.organization_id),
          changeType: 'controllerUpdate',
          diff: [{ type: 'number', name: 'billingLegalEntityId', oldValue: id, newValue: null }],
        });
      }
      await BillingLegalEntityModel.query(w.trx).deleteById(id);
      await w.audit({
        objectType: 'billing_legal_entities',
        objectId: id,
        organizationId,
        changeType: 'controllerDelete',
        diff: diffObjects(auditedFields, entity, null),
      });
    });
  }
}
