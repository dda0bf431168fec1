import type { Knex } from 'knex';
import { GridportError } from '../../../contracts/errors';
import { providerOrganizationId } from '../../../contracts/limits';
import { isStaffRight, type Right } from '../../../contracts/rights';
import type { UserCreate, UserView } from '../../../contracts/user';
import type { Actor } from '../../common/context';
import { requireRights } from '../../common/context';
import { diffObjects, type FieldTypes } from '../../common/diff';
import type { HashIds } from '../../common/hash-ids';
import { write } from '../../common/write';
import { OrganizationModel } from '../models/organization.model';
import { UserModel } from '../models/user.model';

const auditedFields: FieldTypes<UserModel> = {
  name: 'string',
  email: 'string',
  rights: 'json',
  passwordHash: 'hidden',
};

/**
 * Rights a user of this organisation may hold: staff rights in the provider organisation,
 * customer rights elsewhere, where every user reads.
 */
function rightsFor(organizationId: number, requested: readonly Right[]): Right[] {
  const isProvider = organizationId === providerOrganizationId;
  const wrong = requested.filter((right) => isStaffRight(right) !== isProvider);
  if (wrong.length > 0) {
    throw new GridportError('payload_invalid', [
      {
        path: 'rights',
        message: isProvider
          ? `Users of the provider organisation hold staff rights only, not ${wrong.join(', ')}`
          : `Customer users hold customer rights only, not ${wrong.join(', ')}`,
      },
    ]);
  }
  const unique = [...new Set(requested)];
  return isProvider || unique.includes('customer.read') ? unique : ['customer.read', ...unique];
}

export class UserService {
  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
  ) {}

  present(user: UserModel, organization: OrganizationModel): UserView {
    return {
      hashId: this.hashIds.encode('user', user.id),
      name: user.name,
      email: user.email,
      rights: user.rights,
      organization: { hashId: this.hashIds.encode('organization', organization.id), name: organization.name },
    };
  }

  async findByEmail(email: string): Promise<UserModel | undefined> {
    return UserModel.query(this.db).whereRaw('lower(email) = lower(?)', [email]).first();
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
      const existing = await UserModel.query(w.trx).whereRaw('lower(email) = lower(?)', [input.email]).first();
      if (existing) {
        throw new GridportError('user_exists', { email: input.email });
      }
      const user = await UserModel.query(w.trx).insertAndFetch({
        organizationId,
        name: input.name,
        email: input.email,
        rights,
        passwordHash: null,
      });
      await w.audit({
        objectType: 'users',
        objectId: user.id,
        organizationId,
        changeType: 'controllerCreate',
        diff: diffObjects(auditedFields, null, user),
      });
      return this.present(user, organization);
    });
  }
}
