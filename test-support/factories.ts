// One factory a model: each builds a valid row through the services (as the product would), with
// every field at a sensible default but those given, and answers what tests use of it (hash id,
// numeric id, secrets shown once). Tests whose subject is the SQL use the row builders at the end.
import { apiKeyCreateSchema, type ApiKeyCreate, type ApiKeySecretView } from '../contracts/api-key';
import { deviceGroupCreateSchema, type DeviceGroupCreate, type DeviceGroupView } from '../contracts/device-group';
import { deviceShipSchema, deviceUpdateSchema, type DeviceShip, type DeviceUpdate } from '../contracts/fleet';
import { providerOrganizationId } from '../contracts/limits';
import { organizationCreateSchema, type OrganizationType, type OrganizationView } from '../contracts/organization';
import { partnershipCreateSchema, type PartnershipCreate, type PartnershipView } from '../contracts/partnership';
import type { Right } from '../contracts/rights';
import type { IssueView } from '../contracts/issue';
import { userCreateSchema, type UserCreate, type UserView } from '../contracts/user';
import { validate } from '../contracts/validation';
import { systemActor, type Actor } from '../graph/common/context';
import type { EntityType } from '../graph/common/hash-ids';
import { sessionCookieName } from '../graph/identity/services/session.service';
import type { NewIssue } from '../graph/operations/services/issue-journal';
import type { Services } from '../graph/services';
import type { Database } from '../server/database';

const counts = new Map<string, number>();
/** The next number of a kind of row in this test file (Organisation 1, 2 ...): names and emails stay unique. */
function next(kind: string): number {
  const count = (counts.get(kind) ?? 0) + 1;
  counts.set(kind, count);
  return count;
}

const system = systemActor('test');

/** The numeric id behind a hash id the services just answered (a test's own data, so it decodes). */
function idOf(services: Services, kind: EntityType, hashId: string): number {
  const id = services.hashIds.decode(kind, hashId);
  if (id === null) {
    throw new Error(`a ${kind} hash id that does not decode: ${hashId}`);
  }
  return id;
}

/** The provider organisation's hash id (staff users and the provider's own keys live there). */
export function providerHashId(services: Services): string {
  return services.hashIds.encode('organization', providerOrganizationId);
}

/** A customer organisation with every field at its default but those given. */
export async function buildOrganization(
  services: Services,
  overrides: { name?: string; type?: OrganizationType } = {},
): Promise<OrganizationView & { id: number }> {
  const input = validate(organizationCreateSchema, { name: `Organisation ${next('organization')}`, type: 'asset-owner', ...overrides }, 'payload_invalid');
  const organization = await services.organizations.create(system, input);
  return { ...organization, id: idOf(services, 'organization', organization.hashId) };
}

/** The name tests have used for buildOrganization. */
export const anOrganization = buildOrganization;

export type DeviceOverrides = Partial<DeviceShip> &
  Omit<Partial<DeviceUpdate>, 'name' | 'organizationHashId' | 'deviceGroupHashId' | 'config'> & {
    /** A config as the console sends it (copied, so the caller's object stays as it was). */
    config?: object | null;
  };

export interface BuiltDevice {
  hashId: string;
  id: number;
  organizationHashId: string;
  /** Shown once at shipping: the gateway presents it when it asks for its certificate. */
  provisioningToken: string;
}

/**
 * A device as `gridport device ship` makes it (open for provisioning, in a new customer
 * organisation unless one is given), then changed by the other overrides as an admin's PUT
 * would (config, isExposedToCustomer, cloudApi, balenaUuid, inProduction ...).
 */
export async function buildDevice(services: Services, overrides: DeviceOverrides = {}): Promise<BuiltDevice> {
  const { organizationHashId = (await buildOrganization(services)).hashId, name = `Device ${next('device')}`, deviceGroupHashId, ...update } = overrides;
  const ship = validate(deviceShipSchema, { organizationHashId, name, ...(deviceGroupHashId === undefined ? {} : { deviceGroupHashId }) }, 'payload_invalid');
  const { hashId, provisioningToken } = await services.devices.ship(system, ship);
  if (Object.keys(update).length > 0) {
    const patch = validate(deviceUpdateSchema, structuredClone(update), 'payload_invalid');
    await services.devices.update(system, hashId, patch);
  }
  return { hashId, id: idOf(services, 'device', hashId), organizationHashId, provisioningToken };
}

export type UserOverrides = Partial<UserCreate> & { rights?: Right[] };

/** A user of the provider organisation with gridport.employee unless told otherwise; no password unless given. */
export async function buildUser(services: Services, overrides: UserOverrides = {}): Promise<UserView & { id: number }> {
  const number = next('user');
  const input = validate(
    userCreateSchema,
    {
      organizationHashId: providerHashId(services),
      name: `User ${number}`,
      email: `user${number}-${Date.now()}@example.com`,
      rights: ['gridport.employee'],
      ...overrides,
    },
    'payload_invalid',
  );
  const user = await services.users.create(system, input);
  return { ...user, id: idOf(services, 'user', user.hashId) };
}

export interface BuiltSession {
  /** The Cookie header value of the session. */
  cookie: string;
  token: string;
  user: UserView & { id: number };
}

/** A real console session (as sign-in mints it) for a new user built with `overrides`. */
export async function buildSession(services: Services, overrides: UserOverrides = {}): Promise<BuiltSession> {
  const user = await buildUser(services, overrides);
  const session = await services.sessions.mint(user.id, 'test');
  return { cookie: `${sessionCookieName}=${session.token}`, token: session.token, user };
}

export type ApiKeyOverrides = Partial<ApiKeyCreate> & {
  /** Who creates the key (the key's user); the system unless given. */
  actor?: Actor;
  /** The key's rights; the service's default for its organisation unless given. */
  rights?: readonly Right[];
};

/** An API key of the provider organisation unless told otherwise, open to every address. */
export async function buildApiKey(services: Services, overrides: ApiKeyOverrides = {}): Promise<ApiKeySecretView & { id: number }> {
  const { actor = system, rights, ...fields } = overrides;
  const input = validate(
    apiKeyCreateSchema,
    { organizationHashId: providerHashId(services), name: `Key ${next('apiKey')}`, ipRanges: [], publicKey: null, ...fields },
    'payload_invalid',
  );
  const key = await services.apiKeys.create(actor, input, rights);
  return { ...key, id: idOf(services, 'apiKey', key.hashId) };
}

/** A device group of a new customer organisation unless one is given, without outage contacts. */
export async function buildDeviceGroup(services: Services, overrides: Partial<DeviceGroupCreate> = {}): Promise<DeviceGroupView & { id: number }> {
  const { organizationHashId = (await buildOrganization(services)).hashId, ...fields } = overrides;
  const input = validate(deviceGroupCreateSchema, { name: `Group ${next('deviceGroup')}`, organizationHashId, ...fields }, 'payload_invalid');
  const group = await services.deviceGroups.create(system, input);
  return { ...group, id: idOf(services, 'deviceGroup', group.hashId) };
}

/** A viewer partnership between two new customer organisations unless they are given, sharing no device. */
export async function buildPartnership(services: Services, overrides: Partial<PartnershipCreate> = {}): Promise<PartnershipView & { id: number }> {
  const {
    ownerOrganizationHashId = (await buildOrganization(services)).hashId,
    partnerOrganizationHashId = (await buildOrganization(services)).hashId,
    ...fields
  } = overrides;
  const input = validate(partnershipCreateSchema, { ownerOrganizationHashId, partnerOrganizationHashId, role: 'viewer', ...fields }, 'payload_invalid');
  const partnership = await services.partnerships.create(system, input);
  return { ...partnership, id: idOf(services, 'partnership', partnership.hashId) };
}

/**
 * A bare `devices` row inserted with SQL, for tests whose subject is the SQL (ingest, partitions,
 * presence): only the columns given, the table's defaults for the rest. Answers its id.
 */
export async function insertDeviceRow(db: Database, columns: Record<string, unknown> = {}): Promise<number> {
  const [row] = (await db('devices')
    .insert({ name: `Row ${next('row')}`, ...columns })
    .returning('id')) as { id: string | number }[];
  if (row === undefined) {
    throw new Error('an insert into devices that answered no row');
  }
  return Number(row.id);
}

export type IssueOverrides = Partial<Omit<NewIssue, 'organizationId' | 'deviceId'>> & {
  /** The issue's organisation; none unless given (or the device's, when a device is given). */
  organizationHashId?: string | null;
  deviceHashId?: string | null;
};

/** An issue as Gridport opens one (source user, not internal, nobody assigned) unless told otherwise; answers its view and id. */
export async function buildIssue(services: Services, overrides: IssueOverrides = {}): Promise<IssueView & { id: number }> {
  const { organizationHashId, deviceHashId, ...fields } = overrides;
  const device = deviceHashId ? await services.devices.get(system, deviceHashId) : null;
  const organization = organizationHashId ?? device?.organizationHashId ?? null;
  const issue = await services.issues.open(system, {
    title: `Issue ${next('issue')}`,
    source: 'user',
    organizationId: organization === null ? null : idOf(services, 'organization', organization),
    deviceId: deviceHashId ? idOf(services, 'device', deviceHashId) : null,
    ...fields,
  });
  return { ...issue, id: idOf(services, 'issue', issue.hashId) };
}
