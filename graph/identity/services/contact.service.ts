import type { BillingLedger } from '../../billing/services/billing-ledger';
import type { Knex } from 'knex';
import type { ContactCreate, ContactListQuery, ContactRole, ContactUpdate, ContactView } from '../../../contracts/contact';
import { GridportError } from '../../../contracts/errors';
import type { Actor } from '../../common/context';
import { authorize, isStaff } from '../../common/context';
import { diffObjects, type FieldTypes } from '../../common/diff';
import { write } from '../../common/write';
import { ContactModel } from '../models/contact.model';
import { OrganizationModel } from '../models/organization.model';

const auditedFields: FieldTypes<ContactModel> = {
  roles: 'json',
  organizationId: 'number',
  name: 'string',
  email: 'string',
  phone: 'string',
};

/** Contacts are kept by developers, through an API key (api.md section 6). */

/** Postgres' unique_violation, raised by contacts_email_unique. */
function isDuplicateEmail(error: unknown): boolean {
  const { code, constraint, message } = error as { code?: unknown; constraint?: unknown; message?: unknown };
  return code === '23505' && (constraint === 'contacts_email_unique' || (typeof message === 'string' && message.includes('contacts_email_unique')));
}

/** People to call about devices: the incident-response team and continuous support (api.md sections 3 and 5). */
export class ContactService {
  constructor(
    private readonly db: Knex,
    /** A continuous-support contact counts a unit on the devices whose outage contacts name it. */
    private readonly ledger: BillingLedger,
  ) {}

  present(contact: ContactModel): ContactView {
    return {
      id: contact.id,
      roles: contact.roles,
      organizationId: contact.organizationId,
      name: contact.name,
      email: contact.email,
      phone: contact.phone,
    };
  }

  /** Contacts are an API-key matter: a console session is refused even with the right. */
  private requireKeeper(actor: Actor): void {
    authorize(actor, 'contact.manage');
  }

  private async checkOrganization(actor: Actor, organizationId: number | null | undefined, trx: Knex): Promise<void> {
    if (organizationId === null || organizationId === undefined) {
      return;
    }
    const organization = await OrganizationModel.query(trx).findById(organizationId);
    if (!organization || (!isStaff(actor) && organizationId !== actor.organizationId)) {
      throw new GridportError('not_found', { organizationId });
    }
  }

  private async emailTaken(trx: Knex, email: string, exceptId?: number): Promise<boolean> {
    const query = ContactModel.query(trx).whereRaw('lower(email) = lower(?)', [email]);
    if (exceptId !== undefined) {
      void query.whereNot('id', exceptId);
    }
    return (await query.resultSize()) > 0;
  }

  /**
   * Every contact the actor may see (staff: all), oldest first. deviceId narrows the list to a
   * device's contacts: devices arrive with the next issue, so until then it matches none.
   * destination is accepted and applies with message destinations, which come with devices.
   */
  async list(actor: Actor, query: ContactListQuery): Promise<ContactView[]> {
    this.requireKeeper(actor);
    const builder = ContactModel.query(this.db).orderBy('id');
    if (!isStaff(actor)) {
      void builder.where('organization_id', actor.organizationId ?? -1);
    }
    if (query.deviceId !== undefined) {
      void builder.whereRaw('1 = 0');
    }
    return (await builder).map((contact) => this.present(contact));
  }

  /**
   * Contacts with a phone, oldest first, for Gridport's own use (telephony; no caller to check):
   * the one with this email (case-insensitive), or those with this role in these organisations
   * (null: the contacts of no organisation).
   */
  async withPhone(filter: { email: string } | { role: ContactRole; organizationIds: readonly (number | null)[] }, db: Knex = this.db): Promise<ContactView[]> {
    const query = ContactModel.query(db).whereNotNull('phone').orderBy('id');
    if ('email' in filter) {
      void query.whereRaw('lower(email) = lower(?)', [filter.email]);
    } else {
      const ids = filter.organizationIds.filter((id): id is number => id !== null);
      void query.whereRaw('roles @> ?::jsonb', [JSON.stringify([filter.role])]).where((scope) => {
        void scope.whereIn('organization_id', ids);
        if (filter.organizationIds.includes(null)) {
          void scope.orWhereNull('organization_id');
        }
      });
    }
    return (await query).map((contact) => this.present(contact));
  }

  async create(actor: Actor, input: ContactCreate): Promise<ContactView> {
    this.requireKeeper(actor);
    return write(this.db, actor, async (w) => {
      await this.checkOrganization(actor, input.organizationId, w.trx);
      if (await this.emailTaken(w.trx, input.email)) {
        throw new GridportError('contact_email_already_exists', { email: input.email });
      }
      const contact = await ContactModel.query(w.trx)
        .insertAndFetch({ ...input, roles: [...new Set(input.roles)] })
        .catch((error: unknown) => {
          throw isDuplicateEmail(error) ? new GridportError('contact_email_already_exists', { email: input.email }) : error;
        });
      await w.audit({
        objectType: 'contacts',
        objectId: contact.id,
        organizationId: contact.organizationId,
        changeType: 'controllerCreate',
        diff: diffObjects(auditedFields, null, contact),
      });
      await this.ledger.contactChanged(w, [contact.email]);
      return this.present(contact);
    });
  }

  private async find(actor: Actor, id: number, trx: Knex): Promise<ContactModel> {
    const contact = await ContactModel.query(trx).findById(id).forUpdate();
    if (!contact || (!isStaff(actor) && contact.organizationId !== actor.organizationId)) {
      throw new GridportError('not_found', { contactId: id });
    }
    return contact;
  }

  async update(actor: Actor, id: number, patch: ContactUpdate): Promise<void> {
    this.requireKeeper(actor);
    await write(this.db, actor, async (w) => {
      const before = await this.find(actor, id, w.trx);
      await this.checkOrganization(actor, patch.organizationId, w.trx);
      if (patch.email !== undefined && (await this.emailTaken(w.trx, patch.email, id))) {
        throw new GridportError('contact_email_already_exists', { email: patch.email });
      }
      const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
      if (patch.roles !== undefined) {
        changes.roles = [...new Set(patch.roles)];
      }
      const after = await ContactModel.query(w.trx)
        .patchAndFetchById(id, { ...changes, updatedAt: new Date() })
        .catch((error: unknown) => {
          throw isDuplicateEmail(error) ? new GridportError('contact_email_already_exists', { email: patch.email }) : error;
        });
      const diff = diffObjects(auditedFields, before, after);
      if (diff.length > 0) {
        await w.audit({ objectType: 'contacts', objectId: id, organizationId: after.organizationId, changeType: 'controllerUpdate', diff });
        await this.ledger.contactChanged(w, [before.email, after.email]);
      }
    });
  }

  async delete(actor: Actor, id: number): Promise<void> {
    this.requireKeeper(actor);
    await write(this.db, actor, async (w) => {
      const before = await this.find(actor, id, w.trx);
      await ContactModel.query(w.trx).deleteById(id);
      await w.audit({
        objectType: 'contacts',
        objectId: id,
        organizationId: before.organizationId,
        changeType: 'controllerDelete',
        diff: diffObjects(auditedFields, before, null),
      });
      await this.ledger.contactChanged(w, [before.email]);
    });
  }
}
