import { createPublicKey, randomBytes, timingSafeEqual } from 'node:crypto';
import { secretHash } from '../../common/secret-hash';
import { createDecoder, createVerifier, TokenError } from 'fast-jwt';
import ipaddr from 'ipaddr.js';
import type { Knex } from 'knex';
import type { ApiKeyCreate, ApiKeyListQuery, ApiKeyRowView, ApiKeySecretView, ApiKeyUpdate, ApiKeyView } from '../../../contracts/api-key';
import { GridportError } from '../../../contracts/errors';
import { limits, providerOrganizationId } from '../../../contracts/limits';
import type { Page } from '../../../contracts/pagination';
import { checkRightsFitOrganization, customerRights, isStaffRight, type Right } from '../../../contracts/rights';
import type { Actor } from '../../common/context';
import { anonymousActor, authorize, isStaff } from '../../common/context';
import { pageById } from '../../common/cursor';
import { containsPattern } from '../../common/like';
import { diffObjects, type FieldTypes } from '../../common/diff';
import type { HashIds } from '../../common/hash-ids';
import { write } from '../../common/write';
import { ApiKeyModel } from '../models/api-key.model';
import { OrganizationModel } from '../models/organization.model';
import { UserModel } from '../models/user.model';

const auditedFields: FieldTypes<ApiKeyModel> = {
  name: 'string',
  ipRanges: 'json',
  rights: 'json',
  publicKey: 'string',
  secretHash: 'hidden',
};

/** Every key starts with this, so a leaked key is recognisable (secret scanners, logs). */
export const apiKeyPrefix = 'gp_';
/** gp_<key hash id>_<secret>: the hash id finds the row, the secret (32 random bytes) proves possession. */
const keyPattern = /^gp_([A-Za-z0-9]{1,64})_([A-Za-z0-9_-]{43})$/;

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Whether `address` (the client's, IPv4 or IPv6) lies in one of the IPv4 `ranges`. */
export function addressInRanges(address: string, ranges: readonly string[]): boolean {
  if (!ipaddr.isValid(address)) {
    return false;
  }
  const parsed = ipaddr.process(address);
  if (parsed.kind() !== 'ipv4') {
    return false;
  }
  return ranges.some((range) => {
    const cidr = ipaddr.parseCIDR(range);
    return cidr[0].kind() === 'ipv4' && parsed.match(cidr);
  });
}

/** A PEM public key a client may sign JWTs with: RSA, or EC on P-256; payload_invalid otherwise. */
function checkPublicKey(pem: string | null | undefined): void {
  if (pem === null || pem === undefined) {
    return;
  }
  const invalid = (message: string) => new GridportError('payload_invalid', [{ path: 'publicKey', message }]);
  let type: string | undefined;
  let curve: string | undefined;
  try {
    const key = createPublicKey(pem);
    type = key.asymmetricKeyType;
    curve = key.asymmetricKeyDetails?.namedCurve;
  } catch {
    throw invalid('publicKey is not a readable public key');
  }
  if (type !== 'rsa' && !(type === 'ec' && curve === 'prime256v1')) {
    throw invalid('publicKey must be an RSA key (RS256) or an EC P-256 key (ES256)');
  }
}

interface JwtClaims {
  sub?: unknown;
  iat?: unknown;
  nbf?: unknown;
  exp?: unknown;
}

const decodeJwt = createDecoder({ complete: true }) as (token: string) => { header: { kid?: unknown }; payload: JwtClaims };

/**
 * API keys (spec README, "API keys"; api.md sections 3 and 7). A key belongs to an organisation,
 * records the user who made it, and carries rights: customer.read and customer.write for a
 * customer organisation, staff rights for the provider. The secret is shown at creation and
 * at reset only and stored as a SHA-256 hash.
 */
export class ApiKeyService {
  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
  ) {}

  private userView(user: UserModel | null | undefined): ApiKeyView['user'] {
    return user ? { hashId: this.hashIds.encode('user', user.id), email: user.email, name: user.name } : null;
  }

  present(key: ApiKeyModel): ApiKeyView {
    return {
      hashId: this.hashIds.encode('apiKey', key.id),
      name: key.name,
      ipRanges: key.ipRanges,
      rights: key.rights,
      user: this.userView(key.user),
    };
  }

  presentRow(key: ApiKeyModel): ApiKeyRowView {
    return {
      ...this.present(key),
      organizationHashId: this.hashIds.encode('organization', key.organizationId),
      organizationName: key.organization?.name ?? '',
    };
  }

  private notFound(hashId: string): GridportError {
    return new GridportError('not_found', { apiKeyHashId: hashId });
  }

  /** The key behind a hash id as the actor may see it: staff see every key, anyone else only their organisation's. */
  private async find(actor: Actor, hashId: string, db: Knex = this.db, lock = false): Promise<ApiKeyModel> {
    const id = this.hashIds.decode('apiKey', hashId);
    if (id === null) {
      throw this.notFound(hashId);
    }
    const query = ApiKeyModel.query(db).findById(id);
    if (lock) {
      void query.forUpdate();
    }
    const key = await query;
    if (!key || (!isStaff(actor) && key.organizationId !== actor.organizationId)) {
      throw this.notFound(hashId);
    }
    return key;
  }

  private newSecret(id: number): { apiKey: string; secretHash: string } {
    const secret = randomBytes(32).toString('base64url');
    return { apiKey: `${apiKeyPrefix}${this.hashIds.encode('apiKey', id)}_${secret}`, secretHash: secretHash(secret) };
  }

  /**
   * The rights a new key of this organisation carries. A customer key: customer.read and
   * customer.write. A provider key: the staff rights of the user creating it, or, from the
   * command line (no user), the staff rights given.
   */
  private async rightsFor(actor: Actor, organizationId: number, given: readonly Right[] | undefined, trx: Knex): Promise<Right[]> {
    const isProvider = organizationId === providerOrganizationId;
    if (given !== undefined) {
      checkRightsFitOrganization(given, isProvider, 'apiKey');
    }
    if (!isProvider) {
      return [...customerRights];
    }
    if (given !== undefined && given.length > 0) {
      return [...new Set(given)];
    }
    const user = actor.userId === null ? undefined : await UserModel.query(trx).findById(actor.userId);
    const staff = (user?.rights ?? []).filter(isStaffRight);
    if (staff.length === 0) {
      throw new GridportError('payload_invalid', [{ path: 'rights', message: 'A key of the provider organisation needs staff rights' }]);
    }
    return staff;
  }

  /**
   * Creates a key and answers its secret, the only time besides a reset that it is shown.
   * `rights` is for the command line; through the API a key's rights follow from its organisation.
   */
  async create(actor: Actor, input: ApiKeyCreate, rights?: readonly Right[]): Promise<ApiKeySecretView> {
    authorize(actor, 'apiKey.create');
    checkPublicKey(input.publicKey);
    const organizationId = this.hashIds.decode('organization', input.organizationHashId);
    if (organizationId === null || (!isStaff(actor) && organizationId !== actor.organizationId)) {
      throw new GridportError('not_found', { organizationHashId: input.organizationHashId });
    }
    return write(this.db, actor, async (w) => {
      const organization = await OrganizationModel.query(w.trx).findById(organizationId);
      if (!organization) {
        throw new GridportError('not_found', { organizationHashId: input.organizationHashId });
      }
      const keyRights = await this.rightsFor(actor, organizationId, rights, w.trx);
      const created = await ApiKeyModel.query(w.trx).insertAndFetch({
        organizationId,
        userId: actor.kind === 'user' ? actor.userId : null,
        name: input.name,
        // Replaced below once the id, which the key names, is known.
        secretHash: '0'.repeat(64),
        ipRanges: input.ipRanges,
        rights: keyRights,
        publicKey: input.publicKey,
      });
      const { apiKey, secretHash } = this.newSecret(created.id);
      const key = await ApiKeyModel.query(w.trx).patchAndFetchById(created.id, { secretHash });
      await w.audit({
        objectType: 'api_keys',
        objectId: key.id,
        organizationId,
        changeType: 'controllerCreate',
        diff: diffObjects(auditedFields, null, key),
      });
      return { hashId: this.hashIds.encode('apiKey', key.id), apiKey };
    });
  }

  async get(actor: Actor, hashId: string): Promise<ApiKeyView> {
    authorize(actor, 'apiKey.read');
    const key = await this.find(actor, hashId);
    const user = key.userId === null ? undefined : await UserModel.query(this.db).findById(key.userId);
    return { ...this.present(key), user: this.userView(user) };
  }

  /** Keys newest first, filtered by name, organisation, the provider or customers, and device group. */
  async list(actor: Actor, query: ApiKeyListQuery): Promise<Page<ApiKeyRowView>> {
    authorize(actor, 'apiKey.list');
    // Column names in where clauses are the table's own (snakeCaseMappers only map rows).
    const builder = ApiKeyModel.query(this.db).withGraphFetched('[organization, user]');
    if (!isStaff(actor)) {
      void builder.where('organization_id', actor.organizationId ?? -1);
    }
    if (query.filter) {
      void builder.whereILike('name', containsPattern(query.filter));
    }
    if (query.organizationHashId) {
      const organizationId = this.hashIds.decode('organization', query.organizationHashId);
      if (organizationId === null) {
        throw new GridportError('not_found', { organizationHashId: query.organizationHashId });
      }
      void builder.where('organization_id', organizationId);
    }
    if (query.organization === 'gridport') {
      void builder.where('organization_id', providerOrganizationId);
    }
    if (query.organization === 'customer') {
      void builder.whereNot('organization_id', providerOrganizationId);
    }
    // Keys linked to a group (device_group_api_keys); the console offers the others to add to it.
    const linkedTo = (groupHashId: string) => {
      const groupId = this.hashIds.decode('deviceGroup', groupHashId);
      if (groupId === null) {
        throw new GridportError('not_found', { deviceGroupHashId: groupHashId });
      }
      return this.db('device_group_api_keys').select('api_key_id').where('device_group_id', groupId);
    };
    if (query.deviceGroupHashId !== undefined) {
      void builder.whereIn('id', linkedTo(query.deviceGroupHashId));
    }
    if (query.excludeDeviceGroupHashId !== undefined) {
      void builder.whereNotIn('id', linkedTo(query.excludeDeviceGroupHashId));
    }
    return pageById(builder, query, (row) => this.presentRow(row));
  }

  /** Gives the key a new secret and answers it; the old one stops working at once. */
  async reset(actor: Actor, hashId: string): Promise<{ apiKey: string }> {
    authorize(actor, 'apiKey.reset');
    return write(this.db, actor, async (w) => {
      const before = await this.find(actor, hashId, w.trx, true);
      const { apiKey, secretHash } = this.newSecret(before.id);
      const after = await ApiKeyModel.query(w.trx).patchAndFetchById(before.id, { secretHash, updatedAt: new Date() });
      await w.audit({
        objectType: 'api_keys',
        objectId: before.id,
        organizationId: before.organizationId,
        changeType: 'controllerUpdate',
        diff: diffObjects(auditedFields, before, after),
      });
      return { apiKey };
    });
  }

  async update(actor: Actor, hashId: string, patch: ApiKeyUpdate): Promise<void> {
    authorize(actor, 'apiKey.update');
    checkPublicKey(patch.publicKey);
    await write(this.db, actor, async (w) => {
      const before = await this.find(actor, hashId, w.trx, true);
      const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
      const after = await ApiKeyModel.query(w.trx).patchAndFetchById(before.id, { ...changes, updatedAt: new Date() });
      const diff = diffObjects(auditedFields, before, after);
      if (diff.length > 0) {
        await w.audit({ objectType: 'api_keys', objectId: before.id, organizationId: before.organizationId, changeType: 'controllerUpdate', diff });
      }
    });
  }

  async delete(actor: Actor, hashId: string): Promise<void> {
    authorize(actor, 'apiKey.delete');
    await write(this.db, actor, async (w) => {
      const before = await this.find(actor, hashId, w.trx, true);
      await ApiKeyModel.query(w.trx).deleteById(before.id);
      await w.audit({
        objectType: 'api_keys',
        objectId: before.id,
        organizationId: before.organizationId,
        changeType: 'controllerDelete',
        diff: diffObjects(auditedFields, before, null),
      });
    });
  }

  private actorOf(key: ApiKeyModel, clientAddress: string): Actor {
    if (key.ipRanges.length > 0 && !addressInRanges(clientAddress, key.ipRanges)) {
      return { ...anonymousActor, rejection: 'invalid_ip' };
    }
    return {
      kind: 'apiKey',
      userId: key.userId,
      apiKeyId: key.id,
      organizationId: key.organizationId,
      rights: key.rights,
      name: `API key ${key.name}`,
    };
  }

  /**
   * The actor behind a Bearer credential: a key's secret, or a short-lived JWT (RS256 or ES256,
   * `kid` or `sub` naming the key's hash id) signed by the private key of the key's public key.
   * A refused credential gives an anonymous actor with the reason.
   */
  async authenticate(token: string, clientAddress: string): Promise<Actor> {
    const refused = { ...anonymousActor, rejection: 'unauthorized' as const };
    if (token.includes('.')) {
      return this.authenticateJwt(token, clientAddress);
    }
    const match = keyPattern.exec(token);
    const id = match?.[1] === undefined ? null : this.hashIds.decode('apiKey', match[1]);
    if (!match?.[2] || id === null) {
      return refused;
    }
    const key = await ApiKeyModel.query(this.db).findById(id);
    if (!key || !sameHash(secretHash(match[2]), key.secretHash)) {
      return refused;
    }
    return this.actorOf(key, clientAddress);
  }

  private async authenticateJwt(token: string, clientAddress: string): Promise<Actor> {
    const refused = { ...anonymousActor, rejection: 'unauthorized' as const };
    let decoded: ReturnType<typeof decodeJwt>;
    try {
      decoded = decodeJwt(token);
    } catch {
      return refused;
    }
    const { kid } = decoded.header;
    const { sub } = decoded.payload;
    const named = typeof kid === 'string' ? kid : sub;
    if (typeof named !== 'string' || (typeof sub === 'string' && sub !== named)) {
      return refused;
    }
    const id = this.hashIds.decode('apiKey', named);
    const key = id === null ? undefined : await ApiKeyModel.query(this.db).findById(id);
    if (!key) {
      return refused;
    }
    if (key.publicKey === null) {
      return { ...anonymousActor, rejection: 'public_key_not_defined' };
    }
    const skewMs = limits.apiKeyJwtClockSkewSeconds * 1000;
    let claims: JwtClaims;
    try {
      // fast-jwt refuses an exp in the past and an nbf in the future, each beyond the skew.
      const verify = createVerifier({ key: key.publicKey, algorithms: ['RS256', 'ES256'], requiredClaims: ['exp', 'iat'], clockTolerance: skewMs });
      claims = verify(token) as JwtClaims;
    } catch (error) {
      const expired = error instanceof TokenError && error.code === TokenError.codes.expired;
      return { ...anonymousActor, rejection: expired ? 'jwt_expired' : 'unauthorized' };
    }
    if (typeof claims.exp !== 'number' || typeof claims.iat !== 'number') {
      return refused;
    }
    // Short-lived only: a token meant to last longer than the limit is refused outright, and so is
    // one issued in the future (else iat ten years ahead with exp = iat + 3000 would last ten years).
    if (claims.exp - claims.iat > limits.apiKeyJwtMaxLifetimeSeconds || claims.iat * 1000 > Date.now() + skewMs) {
      return refused;
    }
    return this.actorOf(key, clientAddress);
  }
}
