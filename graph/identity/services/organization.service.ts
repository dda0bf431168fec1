import type { Knex } from 'knex';
import { GridportError } from '../../../contracts/errors';
import { providerOrganizationId } from '../../../contracts/limits';
import type { OrganizationCreate, OrganizationListQuery, OrganizationUpdate, OrganizationView } from '../../../contracts/organization';
import type { Page } from '../../../contracts/pagination';
import type { Actor } from '../../common/context';
import { authorize, isStaff } from '../../common/context';
import { pageById } from '../../common/cursor';
import { diffObjects, type FieldTypes } from '../../common/diff';
import type { HashIds } from '../../common/hash-ids';
import { write } from '../../common/write';
import { OrganizationModel } from '../models/organization.model';
import { isoTime } from '../../common/timestamps';

const auditedFields: FieldTypes<OrganizationModel> = {
  name: 'string',
  type: 'string',
  pricing: 'json',
  invoiceCustomerReference: 'string',
  invoiceFrequency: 'string',
  requireLegalEntityPerDevice: 'boolean',
  requireCustomerReferencePerDevice: 'boolean',
  subscriptionDefaults: 'json',
};

export class OrganizationService {
  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
  ) {}

  present(organization: OrganizationModel): OrganizationView {
    return {
      hashId: this.hashIds.encode('organization', organization.id),
      name: organization.name,
      type: organization.type,
      isProvider: organization.id === providerOrganizationId,
      pricing: organization.pricing,
      invoiceCustomerReference: organization.invoiceCustomerReference,
      invoiceFrequency: organization.invoiceFrequency,
      requireLegalEntityPerDevice: organization.requireLegalEntityPerDevice,
      requireCustomerReferencePerDevice: organization.requireCustomerReferencePerDevice,
      subscriptionDefaults: organization.subscriptionDefaults,
      createdAt: isoTime(organization.createdAt),
      updatedAt: isoTime(organization.updatedAt),
    };
  }

  /** The numeric id behind a hash id, or not_found. */
  idOf(hashId: string): number {
    const id = this.hashIds.decode('organization', hashId);
    if (id === null) {
      throw new GridportError('not_found', { organizationHashId: hashId });
    }
    return id;
  }

  private async find(id: number, db: Knex = this.db): Promise<OrganizationModel> {
    const organization = await OrganizationModel.query(db).findById(id);
    if (!organization) {
      throw new GridportError('not_found', { organizationHashId: this.hashIds.encode('organization', id) });
    }
    return organization;
  }

  /**
   * Staff see every organisation; a customer their own, and the other side of each of its
   * partnerships by name only (no pricing or invoice details). Another's is not_found.
   */
  async get(actor: Actor, hashId: string): Promise<OrganizationView> {
    const id = this.idOf(hashId);
    const organization = (await this.visibleByIds(actor, [id])).get(id);
    if (!organization) {
      throw new GridportError('not_found', { organizationHashId: hashId });
    }
    return organization;
  }

  /** Many organisations at once, as `get` shows them; those the actor may not see are missing. One query, or two for a customer. */
  async visibleByIds(actor: Actor, ids: readonly number[]): Promise<Map<number, OrganizationView>> {
    authorize(actor, 'organization.read', 'organization.readOwn');
    const wanted = [...new Set(ids)];
    const rows = wanted.length === 0 ? [] : await OrganizationModel.query(this.db).whereIn('id', wanted);
    if (isStaff(actor)) {
      return new Map(rows.map((row) => [row.id, this.present(row)]));
    }
    const own = actor.organizationId ?? -1;
    const others = wanted.filter((id) => id !== own);
    const counterparts = new Set<number>();
    if (others.length > 0) {
      const links = (await this.db('partnerships')
        .where((scope) => void scope.where('owner_organization_id', own).whereIn('partner_organization_id', others))
        .orWhere((scope) => void scope.where('partner_organization_id', own).whereIn('owner_organization_id', others))
        .select('owner_organization_id', 'partner_organization_id')) as { owner_organization_id: string | number; partner_organization_id: string | number }[];
      for (const link of links) {
        counterparts.add(Number(link.owner_organization_id) === own ? Number(link.partner_organization_id) : Number(link.owner_organization_id));
      }
    }
    const visible = new Map<number, OrganizationView>();
    for (const row of rows) {
      if (row.id === own) {
        visible.set(row.id, this.present(row));
      } else if (counterparts.has(row.id)) {
        visible.set(row.id, { ...this.present(row), pricing: null, invoiceCustomerReference: null, subscriptionDefaults: null });
      }
    }
    return visible;
  }

  /** The organisation of the one acting, or null for Gridport itself. */
  async ofActor(actor: Actor): Promise<OrganizationView | null> {
    if (actor.organizationId === null || actor.kind === 'anonymous') {
      return null;
    }
    return this.present(await this.find(actor.organizationId));
  }

  /** An organisation by its numeric id, for services that already hold it. */
  async byId(id: number): Promise<OrganizationView> {
    return this.present(await this.find(id));
  }

  async provider(): Promise<OrganizationView> {
    return this.present(await this.find(providerOrganizationId));
  }

  async list(actor: Actor, query: OrganizationListQuery): Promise<Page<OrganizationView>> {
    authorize(actor, 'organization.list');
    const builder = OrganizationModel.query(this.db).modify('matching', query.filter);
    if (query.type) {
      void builder.where('type', query.type);
    }
    return pageById(builder, query, (row) => this.present(row));
  }

  async create(actor: Actor, input: OrganizationCreate): Promise<OrganizationView> {
    authorize(actor, 'organization.create');
    return write(this.db, actor, async (w) => {
      const organization = await OrganizationModel.query(w.trx).insertAndFetch({
        name: input.name,
        type: input.type,
        pricing: input.pricing,
        invoiceCustomerReference: input.invoiceCustomerReference,
        invoiceFrequency: input.invoiceFrequency,
        requireLegalEntityPerDevice: input.requireLegalEntityPerDevice,
        requireCustomerReferencePerDevice: input.requireCustomerReferencePerDevice,
        subscriptionDefaults: input.subscriptionDefaults,
      });
      await w.audit({
        objectType: 'organizations',
        objectId: organization.id,
        organizationId: organization.id,
        changeType: 'controllerCreate',
        diff: diffObjects(auditedFields, null, organization),
      });
      return this.present(organization);
    });
  }

  async update(actor: Actor, hashId: string, patch: OrganizationUpdate): Promise<OrganizationView> {
    authorize(actor, 'organization.update');
    const id = this.idOf(hashId);
    return write(this.db, actor, async (w) => {
      const before = await OrganizationModel.query(w.trx).findById(id).forUpdate();
      if (!before) {
        throw new GridportError('not_found', { organizationHashId: hashId });
      }
      if (id === providerOrganizationId && patch.type !== undefined && patch.type !== null) {
        throw new GridportError('forbidden_organization', { reason: 'the provider organisation has no customer type' });
      }
      const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
      const after = await OrganizationModel.query(w.trx).patchAndFetchById(id, { ...changes, updatedAt: new Date() });
      const diff = diffObjects(auditedFields, before, after);
      if (diff.length > 0) {
        await w.audit({
          objectType: 'organizations',
          objectId: id,
          organizationId: id,
          changeType: 'controllerUpdate',
          diff,
        });
      }
      return this.present(after);
    });
  }
}
