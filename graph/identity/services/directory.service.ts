import type { Knex } from 'knex';
import { ApiKeyModel } from '../models/api-key.model';
import { OrganizationModel } from '../models/organization.model';
import { UserModel } from '../models/user.model';

/** A user as other domains may know them: to name them, and to decide what they may see. */
export interface DirectoryUser {
  id: number;
  name: string;
  email: string;
  organizationId: number;
  rights: string[];
}

/**
 * What the other domains may read of identity's rows (organisations, users, API keys) without
 * reaching into its models: names for presenting, existence for checking a reference, and a
 * subquery for filtering by an organisation's name. Every method takes the connection or
 * transaction the caller works in.
 */
export class IdentityDirectory {
  /** The names of the organisations with these ids (missing ones are left out). */
  async organizationNames(db: Knex, ids: readonly number[]): Promise<Map<number, string>> {
    const distinct = [...new Set(ids)];
    if (distinct.length === 0) {
      return new Map();
    }
    const rows = await OrganizationModel.query(db).whereIn('id', distinct).select('id', 'name');
    return new Map(rows.map((row) => [Number(row.id), row.name]));
  }

  async organizationExists(db: Knex, id: number): Promise<boolean> {
    return (await OrganizationModel.query(db).findById(id).select('id')) !== undefined;
  }

  /** Ids of the organisations whose name is like `pattern` (ILIKE), as a subquery for whereIn. */
  organizationsNamedLike(pattern: string) {
    return OrganizationModel.query().select('organizations.id').whereILike('organizations.name', pattern);
  }

  /** The users with these ids (missing ones are left out). */
  async users(db: Knex, ids: readonly number[]): Promise<Map<number, DirectoryUser>> {
    const distinct = [...new Set(ids)];
    if (distinct.length === 0) {
      return new Map();
    }
    const rows = await UserModel.query(db).whereIn('id', distinct).select('id', 'name', 'email', 'organization_id', 'rights');
    return new Map(rows.map((row) => [row.id, { id: row.id, name: row.name, email: row.email, organizationId: row.organizationId, rights: row.rights }]));
  }

  /** The user with this email, whatever its case (an incoming mail's sender), or null. */
  async userByEmail(db: Knex, email: string): Promise<DirectoryUser | null> {
    const row = await UserModel.query(db).modify('withEmail', email).select('id', 'name', 'email', 'organization_id', 'rights').first();
    return row ? { id: row.id, name: row.name, email: row.email, organizationId: row.organizationId, rights: row.rights } : null;
  }

  /** The organisation an API key belongs to, or null when there is no such key. */
  async apiKeyOrganization(db: Knex, id: number): Promise<number | null> {
    const key = await ApiKeyModel.query(db).findById(id).select('id', 'organization_id');
    return key ? key.organizationId : null;
  }
}
