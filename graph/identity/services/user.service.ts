import { listOrganizationScope } from '../../common/tenancy';
import type { Knex } from 'knex';
import { GridportError } from '../../../contracts/errors';
import { providerOrganizationId } from '../../../contracts/limits';
import { checkRightsFitOrganization, hasAnyRight, isStaffRight, type Right } from '../../../contracts/rights';
import type { UserCreate, UserListQuery, UserUpdate, UserView } from '../../../contracts/user';
import type { Page } from '../../../contracts/pagination';
import { pageById } from '../../common/cursor';
import { containsPattern } from '../../common/like';
import type { Actor } from '../../common/context';
import { authorize, isStaff, requireRights } from '../../common/context';
import { diffObjects, type FieldTypes } from '../../common/diff';
import type { HashIds } from '../../common/hash-ids';
import { write } from '../../common/write';
import { OrganizationModel } from '../models/organization.model';
import { SessionModel } from '../models/session.model';
import { UserModel } from '../models/user.model';
import { hashPassword } from './password';

/** PostgreSQL's unique_violation. */
const uniqueViolation = '23505';

/** A user as the audit log shows it: the organisation by hash id. */
interface AuditedUser {
  name: string;
  email: string;
  rights: Right[];
  organizationHashId: string;
  passwordHash: string | null;
}

const auditedFields: FieldTypes<AuditedUser> = {
  name: 'string',
  email: 'string',
  rights: 'json',
  organizationHashId: 'id',
  passwordHash: 'hidden',
};

/**
 * Rights a user of this organisation may hold: staff rights in the provider organisation,
 * customer rights elsewhere, where every user reads.
 */
function rightsFor(organizationId: number, requested: readonly Right[]): Right[] {
  const isProvider = organizationId === providerOrganizationId;
  checkRightsFitOrganization(requested, isProvider, 'user');
  const unique = [...new Set(requested)];
  return isProvider || unique.includes('customer.read') ? unique : ['customer.read', ...unique];
}

export class UserService {
  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
  ) {}

  private audited(user: UserModel): AuditedUser {
    return {
      name: user.name,
      email: user.email,
      rights: user.rights,
      organizationHashId: this.hashIds.encode('organization', user.organizationId),
      passwordHash: user.passwordHash,
    };
  }

  present(user: UserModel, organization: OrganizationModel): UserView {
    return {
      hashId: this.hashIds.encode('user', user.id),
      name: user.name,
      email: user.email,
      rights: user.rights,
      organization: { hashId: this.hashIds.encode('organization', organization.id), name: organization.name },
    };
  }

  /** Staff see every user; a customer sees the users of their own organisation (another's are not_found). */
  async get(actor: Actor, hashId: string): Promise<UserView> {
    authorize(actor, 'user.read', 'user.listOwn');
    const id = this.hashIds.decode('user', hashId);
    const user = id === null ? undefined : await UserModel.query(this.db).findById(id).withGraphJoined('organization');
    if (!user?.organization || (!isStaff(actor) && user.organizationId !== actor.organizationId)) {
      throw new GridportError('not_found', { userHashId: hashId });
    }
    return this.present(user, user.organization);
  }

  /**
   * Users, newest first: staff across organisations (or one), customers within their own. Given
   * hash ids, only those users: a hash id that does not decode, names no user or one the caller
   * may not see is left out of the page, so one such id does not spoil the rest.
   */
  async list(actor: Actor, query: UserListQuery): Promise<Page<UserView>> {
    authorize(actor, 'user.list', 'user.listOwn');
    const builder = UserModel.query(this.db).withGraphJoined('organization');
    const organizationId = listOrganizationScope(actor, this.hashIds, query.organizationHashId);
    if (organizationId !== null) {
      void builder.where('users.organization_id', organizationId);
    }
    if (query.hashIds !== undefined) {
      const ids = query.hashIds.map((hashId) => this.hashIds.decode('user', hashId)).filter((id): id is number => id !== null);
      void builder.whereIn('users.id', ids);
    }
    if (query.filter) {
      const pattern = containsPattern(query.filter);
      void builder.where((inner) => inner.whereILike('users.name', pattern).orWhereILike('users.email', pattern));
    }
    return pageById(builder, query, (user) => this.present(user, user.organization as OrganizationModel), 'users.id');
  }

  async findByEmail(email: string): Promise<UserModel | undefined> {
    return UserModel.query(this.db).modify('withEmail', email).first();
  }

  /** Creates a user directly (operators; invites come with the identity issue). */
  async create(actor: Actor, input: UserCreate): Promise<UserView> {
    requireRights(actor, ['gridport.ops']);
    const organizationId = this.hashIds.decode('organization', input.organizationHashId);
    if (organizationId === null) {
      throw new GridportError('not_found', { organizationHashId: input.organizationHashId });
    }
    const rights = rightsFor(organizationId, input.rights);
    return write(this.db, actor, async (w) => {
      const organization = await OrganizationModel.query(w.trx).findById(organizationId);
      if (!organization) {
        throw new GridportError('not_found', { organizationHashId: input.organizationHashId });
      }
      const existing = await UserModel.query(w.trx).modify('withEmail', input.email).first();
      if (existing) {
        throw new GridportError('user_exists', { email: input.email });
      }
      const user = await UserModel.query(w.trx).insertAndFetch({
        organizationId,
        name: input.name,
        email: input.email,
        rights,
        passwordHash: input.password === undefined ? null : await hashPassword(input.password),
      });
      await w.audit({
        objectType: 'users',
        objectId: user.id,
        organizationId,
        changeType: 'controllerCreate',
        diff: diffObjects(auditedFields, null, this.audited(user)),
      });
      return this.present(user, organization);
    });
  }

  /**
   * What an admin may change of a user: name, email, rights and organisation (Ops). Granting or
   * removing a staff right, or changing a staff user at all, needs Admin; nobody changes their
   * own rights; the rights must fit the organisation the user ends up in. A user moved to
   * another organisation is signed out everywhere, as their sessions were granted for the old one.
   */
  async update(actor: Actor, hashId: string, input: UserUpdate): Promise<UserView> {
    authorize(actor, 'user.update');
    const id = this.hashIds.decode('user', hashId);
    if (id === null) {
      throw new GridportError('not_found', { userHashId: hashId });
    }
    const organizationId = input.organizationHashId === undefined ? undefined : this.hashIds.decode('organization', input.organizationHashId);
    if (organizationId === null) {
      throw new GridportError('not_found', { organizationHashId: input.organizationHashId });
    }
    return write(this.db, actor, async (w) => {
      const before = await UserModel.query(w.trx).findById(id).forUpdate();
      if (!before) {
        throw new GridportError('not_found', { userHashId: hashId });
      }
      const targetOrganizationId = organizationId ?? before.organizationId;
      const organization = await OrganizationModel.query(w.trx).findById(targetOrganizationId);
      if (!organization) {
        throw new GridportError('not_found', { organizationHashId: input.organizationHashId });
      }
      const rights = rightsFor(targetOrganizationId, input.rights ?? before.rights);
      if (actor.userId === id && !sameRights(rights, before.rights)) {
        throw new GridportError('forbidden', { reason: 'nobody changes their own rights' });
      }
      const isAdmin = hasAnyRight(actor.rights, ['gridport.admin']);
      if (!isAdmin && (before.rights.some(isStaffRight) || before.organizationId === providerOrganizationId)) {
        throw new GridportError('forbidden', { reason: 'changing a staff user needs the admin right' });
      }
      if (!isAdmin && !sameRights(rights.filter(isStaffRight), before.rights.filter(isStaffRight))) {
        throw new GridportError('forbidden', { reason: 'granting or removing a staff right needs the admin right' });
      }
      if (input.email !== undefined && input.email.toLowerCase() !== before.email.toLowerCase()) {
        const taken = await UserModel.query(w.trx).modify('withEmail', input.email).whereNot('users.id', id).first();
        if (taken) {
          throw new GridportError('user_exists', { email: input.email });
        }
      }
      const after = await UserModel.query(w.trx)
        .patchAndFetchById(id, {
          name: input.name ?? before.name,
          email: input.email ?? before.email,
          rights,
          organizationId: targetOrganizationId,
          updatedAt: new Date(),
        })
        .catch((error: unknown) => {
          // Another writer took the email between the check and this write (users_email_unique).
          if ((error as { code?: unknown }).code === uniqueViolation) {
            throw new GridportError('user_exists', { email: input.email });
          }
          throw error;
        });
      const diff = diffObjects(auditedFields, this.audited(before), this.audited(after));
      if (diff.length > 0) {
        await w.audit({ objectType: 'users', objectId: id, organizationId: targetOrganizationId, changeType: 'controllerUpdate', diff });
      }
      if (targetOrganizationId !== before.organizationId) {
        await SessionModel.query(w.trx).patch({ revokedAt: new Date() }).where('user_id', id).whereNull('revoked_at');
      }
      return this.present(after, organization);
    });
  }
}

/** Whether two lists hold the same rights, whatever their order. */
function sameRights(a: readonly Right[], b: readonly Right[]): boolean {
  return [...a].sort().join(',') === [...b].sort().join(',');
}
