import type { BillingLedger } from '../../billing/services/billing-ledger';
import type { Knex } from 'knex';
import type { DiffEntry } from '../../../contracts/audit-log';
import { GridportError, type ValidationIssue } from '../../../contracts/errors';
import {
  destinationSettingsSchemaOf,
  hostsOf,
  secretSettings,
  type DestinationHealth,
  type DestinationKind,
  type DestinationMonitorSettings,
  type MessageDestinationCreate,
  type MessageDestinationListQuery,
  type MessageDestinationResume,
  type MessageDestinationUpdate,
  type MessageDestinationView,
} from '../../../contracts/forwarding';
import type { Page } from '../../../contracts/pagination';
import { isStaffRight } from '../../../contracts/rights';
import { issuesOf } from '../../../contracts/validation';
import { authorize, type Actor } from '../../common/context';
import { findByHashId } from '../../common/find-by-hash-id';
import { pageRowsById } from '../../common/cursor';
import { diffObjects, sameJson, type FieldTypes } from '../../common/diff';
import type { HashIds } from '../../common/hash-ids';
import { containsPattern } from '../../common/like';
import type { EncryptedSecret, SecretBox } from '../../common/secret-box';
import { listOrganizationScope } from '../../common/tenancy';
import { write, type Write } from '../../common/write';
import type { DirectoryUser, IdentityDirectory } from '../../identity/services/directory.service';
import { checkHostsWhenSaved } from '../delivery/address-guard';
import { MessageDestinationModel } from '../models/message-destination.model';
import type { AlarmService } from '../../operations/services/alarm.service';
import type { DestinationDeliveries } from './destination-deliveries';
import type { ForwardingSettings } from './forwarding-settings';
import { isoTime } from '../../common/timestamps';

/** What the delivery worker needs of a destination: its settings with the secrets opened. */
export interface DestinationForDelivery {
  type: DestinationKind;
  settings: Record<string, unknown>;
  updatedAt: Date;
  organizationId: number;
  name: string;
  outageEmails: string[];
  outageUserIds: number[];
  monitorSettings: DestinationMonitorSettings;
}

/** The audited fields of a destination; its settings are audited apart (secrets as hidden entries). */
const auditedFields: FieldTypes<MessageDestinationModel> = {
  name: 'string',
  organizationId: 'number',
  type: 'string',
  outageEmails: 'json',
  outageUserIds: 'json',
  monitorSettings: 'json',
};

/** A health for a destination without a delivery row (never the case once created; kept total for the view). */
const noHealth: DestinationHealth = {
  state: 'active',
  pausedReason: null,
  pausedAt: null,
  position: '0',
  lagReports: 0,
  lagCountCapped: false,
  lagSeconds: 0,
  deliveredCount: 0,
  lastSuccessAt: null,
  lastErrorAt: null,
  lastError: null,
  failingSince: null,
  nextAttemptAt: null,
};

function distinct<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

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

function isSealed(value: unknown): value is EncryptedSecret {
  if (value === null || typeof value !== 'object') {
    return false;
  }
  const sealed = value as Record<string, unknown>;
  return typeof sealed.iv === 'string' && typeof sealed.encryptedData === 'string' && typeof sealed.tag === 'string';
}

/** Whether a secret as given holds a value ('' and [] clear it). */
function holdsValue(value: unknown): boolean {
  if (value === undefined || value === null || value === '') {
    return false;
  }
  return !(Array.isArray(value) && value.length === 0);
}

/** The settings without secrets (what views and the audit log show). */
function publicSettings(type: DestinationKind, settings: Record<string, unknown>): Record<string, unknown> {
  const secrets = secretSettings[type];
  return Object.fromEntries(Object.entries(settings).filter(([key]) => !secrets.includes(key)));
}

/**
 * Message destinations (console.md sections 3, 5 and 7; docs/forwarding.md): one organisation's
 * place to forward reports to, of one of twelve kinds whose type never changes. Secrets are kept
 * sealed with the install's key and never leave in a view or the audit log; every write checks
 * the hosts it names against the address policy; a new destination gets its delivery cursor in
 * the same transaction.
 */
export class MessageDestinationService {
  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
    private readonly directory: IdentityDirectory,
    private readonly box: SecretBox,
    private readonly deliveries: DestinationDeliveries,
    private readonly policy: ForwardingSettings,
    /** A resumed destination's pause alarm starts recovering. */
    private readonly alarms: Pick<AlarmService, 'clearDestination'>,
    /** Recounts the billable units of the devices forwarding here when the outage contacts change. */
    private readonly ledger: BillingLedger,
  ) {}

  private notFound(hashId: string): GridportError {
    return new GridportError('not_found', { messageDestinationHashId: hashId });
  }

  /** The destination behind a hash id, locked for the transaction's writes if `lock`. */
  private async find(hashId: string, db: Knex, lock = false): Promise<MessageDestinationModel> {
    return findByHashId(MessageDestinationModel, db, this.hashIds, 'messageDestination', hashId, { lock });
  }

  /** Every field of many destinations in a fixed number of queries, health included (its lag is one bounded count each). */
  async present(destinations: readonly MessageDestinationModel[], db: Knex = this.db): Promise<MessageDestinationView[]> {
    if (destinations.length === 0) {
      return [];
    }
    const ids = destinations.map((destination) => Number(destination.id));
    const [organizationName, userById, health, power] = await Promise.all([
      this.directory.organizationNames(db, distinct(destinations.map((destination) => Number(destination.organizationId)))),
      this.directory.users(db, distinct(destinations.flatMap((destination) => destination.outageUserIds))),
      this.deliveries.healthOf(ids, db),
      this.nominalActivePowerSums(db, ids),
    ]);
    return destinations.map((destination) => {
      const id = Number(destination.id);
      const organizationId = Number(destination.organizationId);
      const organizationHashId = this.hashIds.encode('organization', organizationId);
      return {
        hashId: this.hashIds.encode('messageDestination', id),
        name: destination.name,
        type: destination.type,
        organizationHashId,
        organization: { hashId: organizationHashId, name: organizationName.get(organizationId) ?? '' },
        outageEmails: destination.outageEmails,
        outageUsers: destination.outageUserIds.flatMap((userId) => {
          const user = userById.get(userId);
          return user ? [{ hashId: this.hashIds.encode('user', userId), name: user.name, email: user.email }] : [];
        }),
        destination: { ...publicSettings(destination.type, destination.settings), type: destination.type },
        secretsSet: secretSettings[destination.type].filter((key) => isSealed(destination.settings[key])),
        monitorSettings: destination.monitorSettings,
        nominalActivePowerSum: power.get(id) ?? 0,
        health: health.get(id) ?? noHealth,
        createdAt: isoTime(new Date(destination.createdAt)),
        updatedAt: isoTime(new Date(destination.updatedAt)),
      };
    });
  }

  private async presentOne(destination: MessageDestinationModel, db: Knex = this.db): Promise<MessageDestinationView> {
    const [view] = await this.present([destination], db);
    if (!view) {
      throw this.notFound(this.hashIds.encode('messageDestination', destination.id));
    }
    return view;
  }

  /** The nominal active power of the devices in production of the groups forwarding to each destination, W. */
  private async nominalActivePowerSums(db: Knex, ids: readonly number[]): Promise<Map<number, number>> {
    const rows = (await db('device_group_message_destinations as forwarding')
      .join('devices', 'devices.device_group_id', 'forwarding.device_group_id')
      .whereIn('forwarding.message_destination_id', ids)
      .where('devices.in_production', true)
      .groupBy('forwarding.message_destination_id')
      .select('forwarding.message_destination_id')
      .sum({ power: 'devices.nominal_active_power_sum' })) as { message_destination_id: string | number; power: string | number | null }[];
    return new Map(rows.map((row) => [Number(row.message_destination_id), Number(row.power ?? 0)]));
  }

  /** Users by hash id who can all see the organisation: staff, or its own users; others are user_has_no_access with their hash ids. */
  private async outageUsers(w: Write, organizationId: number, hashIds: readonly string[]): Promise<number[]> {
    const ids = hashIds.map((hashId) => this.hashIds.decode('user', hashId));
    const known = ids.filter((id): id is number => id !== null);
    const users = await this.directory.users(w.trx, known);
    const canSee = (user: DirectoryUser) => user.rights.some(isStaffRight) || user.organizationId === organizationId;
    const refused = hashIds.filter((_hashId, index) => {
      const id = ids[index];
      const user = id === null || id === undefined ? undefined : users.get(id);
      return !user || !canSee(user);
    });
    if (refused.length > 0) {
      throw new GridportError('user_has_no_access', { hashIds: distinct(refused) });
    }
    return distinct(known);
  }

  /**
   * The settings as given, checked against the kind's schema (issues under `destination.`), with
   * `kept` standing in for secrets the caller left out; answers them without `type`.
   */
  private checkSettings(type: DestinationKind, given: Record<string, unknown>, kept: readonly string[]): Record<string, unknown> {
    const schema = destinationSettingsSchemaOf(type);
    const candidate: Record<string, unknown> = { ...given };
    for (const key of kept) {
      // A stand-in that passes the kind's rules: the stored secret is put back after the check.
      candidate[key] = key === 'headers' ? [] : 'kept';
    }
    const issues = issuesOf(schema, candidate);
    if (issues.length > 0) {
      throw new GridportError(
        'payload_invalid',
        issues.map((issue): ValidationIssue => ({ path: issue.path === '' ? 'destination' : `destination.${issue.path}`, message: issue.message })),
      );
    }
    const cast = schema.cast(candidate) as Record<string, unknown>;
    delete cast.type;
    return cast;
  }

  /** Seals one secret as given: text as is, a list (http headers) as its JSON. */
  private seal(value: unknown): EncryptedSecret {
    return this.box.seal(typeof value === 'string' ? value : JSON.stringify(value));
  }

  /**
   * The settings to store: each secret the caller gave sealed (or dropped when given empty), each
   * one left out kept as stored; with the hidden audit entries of the secrets that changed.
   */
  private storedSettings(
    type: DestinationKind,
    given: Record<string, unknown>,
    checked: Record<string, unknown>,
    stored: Record<string, unknown> | null,
  ): { settings: Record<string, unknown>; secretDiff: DiffEntry[] } {
    const settings = publicSettings(type, checked);
    const secretDiff: DiffEntry[] = [];
    for (const key of secretSettings[type]) {
      const before = stored?.[key];
      if (!Object.hasOwn(given, key)) {
        if (isSealed(before)) {
          settings[key] = before;
        }
        continue;
      }
      const value = checked[key];
      if (holdsValue(value)) {
        settings[key] = this.seal(value);
        secretDiff.push({ type: 'hidden', name: `destination.${key}` });
      } else if (isSealed(before)) {
        secretDiff.push({ type: 'hidden', name: `destination.${key}` });
      }
    }
    return { settings, secretDiff };
  }

  async create(actor: Actor, input: MessageDestinationCreate): Promise<MessageDestinationView> {
    authorize(actor, 'messageDestination.create');
    const organizationId = this.hashIds.decode('organization', input.organizationHashId);
    if (organizationId === null) {
      throw new GridportError('not_found', { organizationHashId: input.organizationHashId });
    }
    const type = input.destination.type;
    const given = input.destination as Record<string, unknown>;
    const checked = this.checkSettings(type, given, []);
    await checkHostsWhenSaved(hostsOf(type, checked), this.policy);
    const destination = await write(this.db, actor, async (w) => {
      if (!(await this.directory.organizationExists(w.trx, organizationId))) {
        throw new GridportError('not_found', { organizationHashId: input.organizationHashId });
      }
      const outageUserIds = await this.outageUsers(w, organizationId, input.outageUsersHashIds);
      const { settings, secretDiff } = this.storedSettings(type, given, checked, null);
      const created = await MessageDestinationModel.query(w.trx).insertAndFetch({
        organizationId,
        name: input.name,
        type,
        settings,
        outageEmails: distinctEmails(input.outageEmails),
        outageUserIds,
        monitorSettings: input.monitorSettings,
      });
      await this.deliveries.start(w.trx, Number(created.id));
      await w.audit({
        objectType: 'message_destinations',
        objectId: Number(created.id),
        organizationId,
        changeType: 'controllerCreate',
        diff: [
          ...diffObjects(auditedFields, null, created),
          { type: 'json', name: 'destination', oldValue: null, newValue: publicSettings(type, settings) },
          ...secretDiff,
        ],
      });
      return created;
    });
    return this.presentOne(destination);
  }

  async get(actor: Actor, hashId: string): Promise<MessageDestinationView> {
    authorize(actor, 'messageDestination.read');
    return this.presentOne(await this.find(hashId, this.db));
  }

  /**
   * Destinations newest first, by name (contains, any case), organisation, type and state: staff
   * see every organisation's, a customer only their own (GET /console/v1/message-destination).
   */
  async list(actor: Actor, query: MessageDestinationListQuery): Promise<Page<MessageDestinationView>> {
    authorize(actor, 'messageDestination.list', 'messageDestination.listOwn');
    const builder = MessageDestinationModel.query(this.db);
    const organizationId = listOrganizationScope(actor, this.hashIds, query.organizationHashId);
    if (organizationId !== null) {
      void builder.where('organization_id', organizationId);
    }
    if (query.filter) {
      void builder.whereILike('name', containsPattern(query.filter));
    }
    if (query.type) {
      void builder.where('type', query.type);
    }
    if (query.state) {
      void builder.whereIn('id', this.db('message_destination_deliveries').where('state', query.state).select('message_destination_id'));
    }
    const page = await pageRowsById(builder, query);
    return { rows: await this.present(page.rows), nextPageOffset: page.nextPageOffset };
  }

  /**
   * Changes only what is given. `destination` holds the kind's settings as a whole, `type` the
   * stored one (changing_type otherwise); a secret left out keeps its stored value, one given
   * replaces it ('' or [] clears it).
   */
  async update(actor: Actor, hashId: string, patch: MessageDestinationUpdate): Promise<MessageDestinationView> {
    authorize(actor, 'messageDestination.update');
    const destination = await write(this.db, actor, async (w) => {
      const before = await this.find(hashId, w.trx, true);
      const changes: Partial<MessageDestinationModel> = {};
      const diff: DiffEntry[] = [];
      if (patch.name !== undefined) {
        changes.name = patch.name;
      }
      if (patch.outageEmails !== undefined) {
        changes.outageEmails = distinctEmails(patch.outageEmails);
      }
      if (patch.outageUsersHashIds !== undefined) {
        changes.outageUserIds = await this.outageUsers(w, Number(before.organizationId), patch.outageUsersHashIds);
      }
      if (patch.monitorSettings !== undefined) {
        changes.monitorSettings = patch.monitorSettings;
      }
      if (patch.destination !== undefined) {
        if (patch.destination.type !== before.type) {
          throw new GridportError('changing_type', { type: before.type, requestedType: patch.destination.type });
        }
        const given = patch.destination as Record<string, unknown>;
        const kept = secretSettings[before.type].filter((key) => !Object.hasOwn(given, key) && isSealed(before.settings[key]));
        const checked = this.checkSettings(before.type, given, kept);
        await checkHostsWhenSaved(hostsOf(before.type, checked), this.policy);
        const { settings, secretDiff } = this.storedSettings(before.type, given, checked, before.settings);
        const oldPublic = publicSettings(before.type, before.settings);
        const newPublic = publicSettings(before.type, settings);
        if (!sameJson(oldPublic, newPublic)) {
          diff.push({ type: 'json', name: 'destination', oldValue: oldPublic, newValue: newPublic });
        }
        diff.push(...secretDiff);
        if (!sameJson(before.settings, settings)) {
          changes.settings = settings;
        }
      }
      diff.unshift(...diffObjects(auditedFields, before, { ...before, ...changes }));
      if (diff.length === 0) {
        return before;
      }
      const after = await MessageDestinationModel.query(w.trx).patchAndFetchById(before.id, { ...changes, updatedAt: new Date() });
      await w.audit({
        objectType: 'message_destinations',
        objectId: Number(before.id),
        organizationId: Number(before.organizationId),
        changeType: 'controllerUpdate',
        diff,
      });
      if (changes.outageEmails !== undefined || changes.outageUserIds !== undefined) {
        await this.ledger.destinationChanged(w, Number(before.id));
      }
      return after;
    });
    return this.presentOne(destination);
  }

  /**
   * Delivery goes on (Developer only): from where it stopped, or from `offset`, a stream position
   * the health shows (replay); audited with the state and position before and after.
   */
  async resume(actor: Actor, hashId: string, input: MessageDestinationResume): Promise<MessageDestinationView> {
    authorize(actor, 'messageDestination.resume');
    const destination = await write(this.db, actor, async (w) => {
      const found = await this.find(hashId, w.trx, true);
      const resumed = await this.deliveries.resume(w.trx, Number(found.id), input.offset);
      await w.audit({
        objectType: 'message_destinations',
        objectId: Number(found.id),
        organizationId: Number(found.organizationId),
        changeType: 'controllerUpdate',
        diff: [
          { type: 'string', name: 'state', oldValue: resumed.oldState, newValue: 'active' },
          { type: 'string', name: 'position', oldValue: resumed.oldPosition, newValue: resumed.newPosition },
        ],
      });
      return found;
    });
    await this.alarms.clearDestination(Number(destination.id), 'destination.paused');
    return this.presentOne(destination);
  }

  /** A destination as the delivery worker uses it, secrets opened; null when it no longer exists. */
  async settingsForDelivery(id: number, db: Knex = this.db): Promise<DestinationForDelivery | null> {
    const destination = await MessageDestinationModel.query(db).findById(id);
    if (!destination) {
      return null;
    }
    const settings: Record<string, unknown> = { ...destination.settings };
    for (const key of secretSettings[destination.type]) {
      const sealed = settings[key];
      if (isSealed(sealed)) {
        const plain = this.box.open(sealed);
        settings[key] = key === 'headers' ? (JSON.parse(plain) as unknown) : plain;
      } else if (key === 'headers') {
        settings[key] = [];
      } else {
        delete settings[key];
      }
    }
    return {
      type: destination.type,
      settings,
      updatedAt: new Date(destination.updatedAt),
      organizationId: Number(destination.organizationId),
      name: destination.name,
      outageEmails: destination.outageEmails,
      outageUserIds: destination.outageUserIds,
      monitorSettings: destination.monitorSettings,
    };
  }
}
