import type { Knex } from 'knex';
import type { QueryBuilder } from 'objection';
import type { DiffEntry } from '../../../contracts/audit-log';
import { GridportError } from '../../../contracts/errors';
import {
  issueAdminListQuerySchema,
  issueCustomerListQuerySchema,
  issueCustomerMessageCreateSchema,
  issueHashIdParams,
  issueMessageCreateSchema,
  type IssueAdminListQuery,
  type IssueCountView,
  type IssueCustomerListQuery,
  type IssueCustomerMessageCreate,
  type IssueMessageCreate,
  type IssueMessageUpdate,
  type IssueMessageView,
  type IssueStateChange,
  type IssueTimelineItemView,
  type IssueTimelineQuery,
  type IssueUpdate,
  type IssueView,
} from '../../../contracts/issue';
import { providerOrganizationId } from '../../../contracts/limits';
import type { Page } from '../../../contracts/pagination';
import { isStaffRight, rights as knownRights, type Right } from '../../../contracts/rights';
import { validate } from '../../../contracts/validation';
import { AuditLogEntryModel } from '../../common/audit-log-entry.model';
import { authorize, isStaff, type Actor } from '../../common/context';
import { decodeCursor, encodeCursor, pageRowsById } from '../../common/cursor';
import { diffObjects, type FieldTypes } from '../../common/diff';
import type { HashIds } from '../../common/hash-ids';
import { pushIterator } from '../../common/live';
import { channels, type PubSub } from '../../common/pubsub';
import { write, type Write } from '../../common/write';
import type { DeviceService } from '../../fleet/services/device.service';
import type { AuditLogService } from '../../identity/services/audit-log.service';
import type { DirectoryUser, IdentityDirectory } from '../../identity/services/directory.service';
import { IssueModel, IssueSubscriberModel } from '../models/issue.model';
import { IssueMessageModel } from '../models/issue-message.model';
import { attachTemporaryFiles } from './file-attachments';
import type { IssueJournal, NewIssue } from './issue-journal';
import { IssuePresenter } from './issue.presenter';

/** Fields of an issue whose changes the audit log records as they are (the assignee is a link, written apart). */
const auditedFields: FieldTypes<IssueModel> = {
  title: 'string',
  internal: 'boolean',
  autoClose: 'boolean',
  canReopen: 'boolean',
  gridportIssueOwner: 'boolean',
  assignedEmail: 'string',
  nextActivityDueAt: 'date',
  closedAt: 'date',
};

/** The diff name of an internal message's edit: such audit entries are left out of a customer's timeline. */
const internalMessageDiffName = 'internalMessage';

/** Where an item stands in a timeline: its time in microseconds, audit entries before messages of the same moment, then id. */
type TimelineKey = [number, number, number];

interface TimelineRow {
  kind: 'message' | 'audit';
  id: string | number;
  at: string | number;
  rank: string | number;
}

function distinct<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/**
 * Issues and their timelines (console.md sections 3, 4, 6 and 7; spec README "Operations").
 * Staff see and manage every issue; a customer sees the issues that are not internal of their
 * organisation or of a device they may see, never an internal message, and may post messages and
 * subscribe. Every write goes through IssueJournal inside an audited write, so the issue's live
 * timeline hears of it once it commits.
 */
export class IssueService {
  private readonly presenter: IssuePresenter;

  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
    private readonly journal: IssueJournal,
    private readonly devices: DeviceService,
    private readonly directory: IdentityDirectory,
    auditLog: AuditLogService,
    private readonly pubsub: PubSub,
  ) {
    this.presenter = new IssuePresenter(hashIds, directory, auditLog);
  }

  private notFound(hashId: string): GridportError {
    return new GridportError('not_found', { issueHashId: hashId });
  }

  /** The issues the actor may see, as a query to refine. */
  visible(actor: Actor, db: Knex = this.db): QueryBuilder<IssueModel, IssueModel[]> {
    const builder = IssueModel.query(db);
    if (isStaff(actor)) {
      return builder;
    }
    const seen = this.devices.accessible(actor, 'read', db).select('devices.id');
    return builder.where('issues.internal', false).where((scope) => {
      void scope.where('issues.organization_id', actor.organizationId ?? -1).orWhereIn('issues.device_id', seen);
    });
  }

  /** One issue the actor may see, locked for the write if `lock`; any other is not_found. */
  private async find(actor: Actor, hashId: string, db: Knex = this.db, lock = false): Promise<IssueModel> {
    const id = this.hashIds.decode('issue', hashId);
    if (id === null) {
      throw this.notFound(hashId);
    }
    const query = this.visible(actor, db).findById(id);
    if (lock) {
      void query.forUpdate();
    }
    const issue = await query;
    if (!issue) {
      throw this.notFound(hashId);
    }
    return issue;
  }

  private async presentOne(actor: Actor, issue: IssueModel, db: Knex = this.db): Promise<IssueView> {
    const [view] = await this.presenter.issues(actor, [issue], db);
    if (!view) {
      throw this.notFound(this.hashIds.encode('issue', issue.id));
    }
    return view;
  }

  private async presentPage(actor: Actor, page: Page<IssueModel>): Promise<Page<IssueView>> {
    return { rows: await this.presenter.issues(actor, page.rows, this.db), nextPageOffset: page.nextPageOffset };
  }

  async get(actor: Actor, hashId: string): Promise<IssueView> {
    authorize(actor, 'issue.read', 'issue.readVisible');
    return this.presentOne(actor, await this.find(actor, hashId));
  }

  /** One page in the order asked for: creation order either way, or the next activity due first (issues without one last). */
  private async pageIssues(builder: QueryBuilder<IssueModel, IssueModel[]>, query: { sortBy: string; offset?: string; rowsPerPage: number }) {
    if (query.sortBy === 'createdAtDesc') {
      return pageRowsById(builder, query, 'issues.id');
    }
    if (query.sortBy === 'createdAtAsc') {
      void builder.orderBy('issues.id', 'asc').limit(query.rowsPerPage + 1);
      if (query.offset) {
        const [lastId] = decodeCursor(query.offset, ['number']);
        void builder.where('issues.id', '>', lastId as number);
      }
      const rows = await builder;
      const page = rows.slice(0, query.rowsPerPage);
      const last = page[page.length - 1];
      return { rows: page, nextPageOffset: rows.length > query.rowsPerPage && last ? encodeCursor([last.id]) : null };
    }
    // nextActivityDueAt: soonest first, issues without a date last; the cursor is the last row's date ('' for none) and id.
    // Dates compare to the millisecond, as a cursor holds them (a date written by SQL may carry microseconds).
    const due = "date_trunc('milliseconds', issues.next_activity_due_at)";
    void builder.orderByRaw(`${due} asc nulls last, issues.id asc`).limit(query.rowsPerPage + 1);
    if (query.offset) {
      const [lastDue, lastId] = decodeCursor(query.offset, ['string', 'number']) as [string, number];
      if (lastDue === '') {
        void builder.whereNull('issues.next_activity_due_at').where('issues.id', '>', lastId);
      } else {
        const lastDate = new Date(lastDue);
        if (Number.isNaN(lastDate.getTime())) {
          throw new GridportError('invalid_offset', { offset: query.offset });
        }
        void builder.where((after) => {
          void after
            .whereRaw(`${due} > ?`, [lastDate])
            .orWhere((same) => void same.whereRaw(`${due} = ?`, [lastDate]).where('issues.id', '>', lastId))
            .orWhereNull('issues.next_activity_due_at');
        });
      }
    }
    const rows = await builder;
    const page = rows.slice(0, query.rowsPerPage);
    const last = page[page.length - 1];
    return {
      rows: page,
      nextPageOffset: rows.length > query.rowsPerPage && last ? encodeCursor([last.nextActivityDueAt?.toISOString() ?? '', last.id]) : null,
    };
  }

  private byStatus(builder: QueryBuilder<IssueModel, IssueModel[]>, status: string | undefined): void {
    if (status === 'open') {
      void builder.whereNull('issues.closed_at');
    } else if (status === 'resolved') {
      void builder.whereNotNull('issues.closed_at');
    }
  }

  /** A user filter value: `me` is the caller, anything else a user's hash id (one that names nobody matches nothing). */
  private userFilter(actor: Actor, value: string): number {
    return value === 'me' ? (actor.userId ?? -1) : (this.hashIds.decode('user', value) ?? -1);
  }

  /** The admin list (console.md section 7) with every filter and sort. */
  async list(actor: Actor, query: IssueAdminListQuery): Promise<Page<IssueView>> {
    authorize(actor, 'issue.list');
    const builder = this.visible(actor);
    this.byStatus(builder, query.status);
    if (query.deviceHashId) {
      void builder.where('issues.device_id', this.hashIds.decode('device', query.deviceHashId) ?? -1);
    }
    if (query.owner) {
      void builder.where('issues.gridport_issue_owner', query.owner === 'gridport');
    }
    if (query.assignee === 'none') {
      void builder.whereNull('issues.assigned_user_id').whereNull('issues.assigned_email');
    } else if (query.assignee) {
      void builder.where('issues.assigned_user_id', this.userFilter(actor, query.assignee));
    }
    if (query.subscriber) {
      const userId = this.userFilter(actor, query.subscriber);
      void builder.whereExists(IssueSubscriberModel.query().whereColumn('issue_subscribers.issue_id', 'issues.id').where('issue_subscribers.user_id', userId));
    }
    return this.presentPage(actor, await this.pageIssues(builder, query));
  }

  /** Issues assigned to a user of the caller's organisation. */
  private assignedToOrganization(builder: QueryBuilder<IssueModel, IssueModel[]>, actor: Actor): void {
    void builder.whereIn('issues.assigned_user_id', (users) => {
      void users
        .select('users.id')
        .from('users')
        .where('users.organization_id', actor.organizationId ?? -1);
    });
  }

  /** The customer list (console.md section 7): the issues the caller may see, by status and assignee. */
  async customerList(actor: Actor, query: IssueCustomerListQuery): Promise<Page<IssueView>> {
    authorize(actor, 'issue.listVisible');
    const builder = this.visible(actor);
    this.byStatus(builder, query.status);
    switch (query.assignee) {
      case 'me':
        void builder.where('issues.assigned_user_id', actor.userId ?? -1);
        break;
      case 'myOrganization':
        this.assignedToOrganization(builder, actor);
        break;
      case 'gridport':
        void builder.where('issues.gridport_issue_owner', true);
        break;
      case 'external':
        void builder
          .whereNull('issues.assigned_user_id')
          .whereNotNull('issues.assigned_email')
          .whereNotExists((users) => {
            void users.select('users.id').from('users').whereRaw('lower(users.email) = lower(issues.assigned_email)');
          });
        break;
      case undefined:
        break;
    }
    return this.presentPage(actor, await this.pageIssues(builder, query));
  }

  /** GET /console/v1/issue/count: the open issues the caller may see, those assigned to them, and to their organisation. */
  async count(actor: Actor): Promise<IssueCountView> {
    authorize(actor, 'issue.countVisible');
    const open = () => this.visible(actor).whereNull('issues.closed_at');
    const toOrganization = open();
    this.assignedToOrganization(toOrganization, actor);
    const [openCount, assignedToMeCount, assignedToMyOrganizationCount] = await Promise.all([
      open().resultSize(),
      open()
        .where('issues.assigned_user_id', actor.userId ?? -1)
        .resultSize(),
      toOrganization.resultSize(),
    ]);
    return { openCount, assignedToMeCount, assignedToMyOrganizationCount };
  }

  /** GraphQL's one list: the admin list (and its arguments) for staff, the customer list for customers. */
  search(actor: Actor, args: Record<string, unknown>): Promise<Page<IssueView>> {
    authorize(actor, 'issue.list', 'issue.listVisible');
    return isStaff(actor)
      ? this.list(actor, validate(issueAdminListQuerySchema, args, 'query_invalid'))
      : this.customerList(actor, validate(issueCustomerListQuerySchema, args, 'query_invalid'));
  }

  /** The ids of the devices with an open issue that customers see (not internal), as a subquery: the fleet's "with issues". */
  static openCustomerIssueDeviceIds(db: Knex) {
    return IssueModel.query(db).select('issues.device_id').whereNull('issues.closed_at').where('issues.internal', false).whereNotNull('issues.device_id');
  }

  // Timeline ---------------------------------------------------------------------------------

  /** The union of an issue's messages and audit entries the actor may read, as SQL with its bindings. */
  private timelineSql(actor: Actor, issueId: number): { sql: string; bindings: Knex.RawBinding[] } {
    const customer = !isStaff(actor);
    const at = '(extract(epoch from created_at) * 1000000)::bigint';
    return {
      sql: `select 'message' as kind, id, ${at} as at, 1 as rank from issue_messages where issue_id = ?${customer ? ' and not is_internal' : ''}
        union all
        select 'audit' as kind, id, ${at} as at, 0 as rank from audit_log where object_type = 'issues' and object_id = ?${customer ? ' and not (diff @> ?::jsonb)' : ''}`,
      bindings: customer ? [issueId, issueId, JSON.stringify([{ name: internalMessageDiffName }])] : [issueId, issueId],
    };
  }

  /** Up to `limit` timeline rows after `after` (from the start when null), oldest first. */
  private async timelineRows(actor: Actor, issueId: number, after: TimelineKey | null, limit: number, db: Knex = this.db): Promise<TimelineRow[]> {
    const union = this.timelineSql(actor, issueId);
    const where = after === null ? '' : 'where (t.at, t.rank, t.id) > (?, ?, ?)';
    const result = (await db.raw(`select t.kind, t.id, t.at, t.rank from (${union.sql}) t ${where} order by t.at, t.rank, t.id limit ?`, [
      ...union.bindings,
      ...(after ?? []),
      limit,
    ])) as { rows: TimelineRow[] };
    return result.rows;
  }

  private keyOf(row: TimelineRow): TimelineKey {
    return [Number(row.at), Number(row.rank), Number(row.id)];
  }

  /** Timeline rows as their views, in their order. */
  private async presentTimeline(actor: Actor, rows: readonly TimelineRow[], db: Knex = this.db): Promise<IssueTimelineItemView[]> {
    const messageIds = rows.filter((row) => row.kind === 'message').map((row) => Number(row.id));
    const auditIds = rows.filter((row) => row.kind === 'audit').map((row) => Number(row.id));
    const [messages, audits] = await Promise.all([
      messageIds.length === 0 ? [] : IssueMessageModel.query(db).whereIn('id', messageIds),
      auditIds.length === 0 ? [] : AuditLogEntryModel.query(db).whereIn('id', auditIds),
    ]);
    const messageViews = await this.presenter.messages(messages, db);
    const messageById = new Map(messages.map((message, index) => [message.id, messageViews[index]]));
    const auditById = new Map(audits.map((entry) => [entry.id, entry]));
    return rows.flatMap((row): IssueTimelineItemView[] => {
      if (row.kind === 'message') {
        const message = messageById.get(Number(row.id));
        return message ? [{ kind: 'message', cursor: encodeCursor(this.keyOf(row)), createdAt: message.createdAt, message, auditEntry: null }] : [];
      }
      const entry = auditById.get(Number(row.id));
      if (!entry) {
        return [];
      }
      const auditEntry = this.presenter.auditEntry(entry);
      return [{ kind: 'audit', cursor: encodeCursor(this.keyOf(row)), createdAt: auditEntry.createdAt, message: null, auditEntry }];
    });
  }

  /** GET .../issue/{hashId}/timeline: the issue's messages and audit entries merged, oldest first (newest last). */
  async timeline(actor: Actor, hashId: string, query: IssueTimelineQuery): Promise<Page<IssueTimelineItemView>> {
    authorize(actor, 'issue.read', 'issue.readVisible');
    const after = query.offset ? (decodeCursor(query.offset, ['number', 'number', 'number']) as TimelineKey) : null;
    const issue = await this.find(actor, hashId);
    const rows = await this.timelineRows(actor, issue.id, after, query.rowsPerPage + 1);
    const page = rows.slice(0, query.rowsPerPage);
    const last = page[page.length - 1];
    return {
      rows: await this.presentTimeline(actor, page),
      nextPageOffset: rows.length > query.rowsPerPage && last ? encodeCursor(this.keyOf(last)) : null,
    };
  }

  /**
   * The items added to an issue's timeline, as the actor may read them, for the GraphQL
   * subscription: those after the item whose cursor is `after` at once (so a client that read
   * the timeline first misses nothing), or from now on without it; then, each time the issue's
   * channel fires, what came after the last item sent.
   */
  async watchTimeline(actor: Actor, hashId: string, after?: string | null): Promise<AsyncIterableIterator<IssueTimelineItemView | Error>> {
    authorize(actor, 'issue.read', 'issue.readVisible');
    const from = after ? (decodeCursor(after, ['number', 'number', 'number']) as TimelineKey) : null;
    const issue = await this.find(actor, hashId);
    let seen: TimelineKey | null = from;
    if (from === null) {
      const union = this.timelineSql(actor, issue.id);
      const tail = (await this.db.raw(
        `select t.kind, t.id, t.at, t.rank from (${union.sql}) t order by t.at desc, t.rank desc, t.id desc limit 1`,
        union.bindings,
      )) as { rows: TimelineRow[] };
      const last = tail.rows[0];
      seen = last ? this.keyOf(last) : null;
    }
    return pushIterator<IssueTimelineItemView | Error>((push) => {
      // One catch-up at a time, in order, however quickly the channel fires.
      let chain = Promise.resolve();
      const catchUp = async () => {
        for (;;) {
          const rows = await this.timelineRows(actor, issue.id, seen, 100);
          const lastRow = rows[rows.length - 1];
          if (!lastRow) {
            return;
          }
          seen = this.keyOf(lastRow);
          for (const item of await this.presentTimeline(actor, rows)) {
            push(item);
          }
        }
      };
      const next = () => {
        // A catch-up that fails (the database went away) is told to the reader as an error item; the next change tries again.
        chain = chain.then(catchUp).catch((error: unknown) => push(error instanceof Error ? error : new Error(String(error))));
      };
      const stop = this.pubsub.subscribe(channels.issueTimeline(issue.id), next);
      if (from !== null) {
        next();
      }
      return stop;
    });
  }

  // Writes -----------------------------------------------------------------------------------

  /** Users by hash id; one that names nobody is not_found. */
  private async usersByHashIds(w: Write, hashIds: readonly string[], field: string): Promise<DirectoryUser[]> {
    const ids = hashIds.map((hashId) => this.hashIds.decode('user', hashId));
    const users = await this.directory.users(
      w.trx,
      ids.filter((id): id is number => id !== null),
    );
    const missing = hashIds.filter((_hashId, index) => {
      const id = ids[index];
      return id === null || id === undefined || !users.has(id);
    });
    if (missing.length > 0) {
      throw new GridportError('not_found', { [field]: distinct(missing) });
    }
    return distinct(ids as number[]).map((id) => users.get(id) as DirectoryUser);
  }

  /**
   * Whether a user may see an issue, by the rule the user would be held to: staff always; a
   * customer one that is not internal, of their organisation or of a device they may see.
   */
  private async canSee(w: Write, user: DirectoryUser, issue: Pick<IssueModel, 'id' | 'internal'>): Promise<boolean> {
    return this.userMaySee(user, issue, w.trx);
  }

  /** Whether a user may see an issue now, by the same rule (the issue mailer asks it before it tells a subscriber). */
  async userMaySee(user: DirectoryUser, issue: Pick<IssueModel, 'id' | 'internal'>, db: Knex = this.db): Promise<boolean> {
    if (user.rights.some(isStaffRight)) {
      return true;
    }
    if (issue.internal) {
      return false;
    }
    const asUser: Actor = {
      kind: 'user',
      userId: user.id,
      apiKeyId: null,
      organizationId: user.organizationId,
      rights: user.rights.filter((right): right is Right => (knownRights as readonly string[]).includes(right)),
      name: user.name,
    };
    return (await this.visible(asUser, db).findById(issue.id).select('issues.id')) !== undefined;
  }

  /** Whether an email belongs to a user of the provider organisation. */
  private async isProviderEmail(w: Write, email: string): Promise<boolean> {
    const row = (await w.trx('users').whereRaw('lower(email) = lower(?)', [email]).where('organization_id', providerOrganizationId).first('id')) as
      { id: number } | undefined;
    return row !== undefined;
  }

  /**
   * The assignee and other changes of an update, checked: an assigned user must exist and be able
   * to see the issue; an internal issue takes only the provider's people (internal_issue_external_assignee).
   */
  private async changesOf(w: Write, before: IssueModel, patch: IssueUpdate): Promise<Partial<IssueModel>> {
    const changes: Partial<IssueModel> = {};
    for (const field of ['title', 'internal', 'autoClose', 'canReopen', 'gridportIssueOwner'] as const) {
      if (patch[field] !== undefined) {
        (changes as Record<string, unknown>)[field] = patch[field];
      }
    }
    if (patch.nextActivityDueAt !== undefined) {
      changes.nextActivityDueAt = patch.nextActivityDueAt;
    }
    if (patch.assignedEmail !== undefined) {
      changes.assignedEmail = patch.assignedEmail;
    }
    let assignee: DirectoryUser | null = null;
    if (patch.assignedUserHashId !== undefined && patch.assignedUserHashId !== null) {
      [assignee = null] = await this.usersByHashIds(w, [patch.assignedUserHashId], 'assignedUserHashId');
      changes.assignedUserId = assignee?.id ?? null;
    } else if (patch.assignedUserHashId === null) {
      changes.assignedUserId = null;
    } else if (before.assignedUserId !== null) {
      assignee = (await this.directory.users(w.trx, [before.assignedUserId])).get(before.assignedUserId) ?? null;
    }
    const after = { ...before, ...changes };
    if (after.internal) {
      const externalUser = assignee !== null && assignee.organizationId !== providerOrganizationId;
      const externalEmail = after.assignedEmail !== null && !(await this.isProviderEmail(w, after.assignedEmail));
      if (externalUser || externalEmail) {
        throw new GridportError('internal_issue_external_assignee', {
          ...(externalUser && assignee ? { assignedUserHashId: this.hashIds.encode('user', assignee.id) } : {}),
          ...(externalEmail ? { assignedEmail: after.assignedEmail } : {}),
        });
      }
    }
    if (assignee !== null && changes.assignedUserId !== undefined && !(await this.canSee(w, assignee, after))) {
      throw new GridportError('user_has_no_access', { hashIds: [this.hashIds.encode('user', assignee.id)] });
    }
    return changes;
  }

  /** Applies checked changes to an issue and audits them; answers the issue as it is after. */
  private async applyChanges(w: Write, before: IssueModel, changes: Partial<IssueModel>): Promise<IssueModel> {
    const after = { ...before, ...changes };
    const diff: DiffEntry[] = diffObjects(auditedFields, before, after);
    if (before.assignedUserId !== after.assignedUserId) {
      const hashIdOf = (id: number | null) => (id === null ? null : this.hashIds.encode('user', id));
      diff.push({
        type: 'link',
        name: 'assignedUser',
        objectType: 'users',
        oldHashId: hashIdOf(before.assignedUserId),
        newHashId: hashIdOf(after.assignedUserId),
      });
    }
    if (diff.length === 0) {
      return before;
    }
    const updated = await IssueModel.query(w.trx).patchAndFetchById(before.id, { ...changes, updatedAt: new Date() });
    await w.audit({ objectType: 'issues', objectId: before.id, organizationId: before.organizationId, changeType: 'controllerUpdate', diff });
    this.journal.announce(w, before.id);
    return updated;
  }

  /** PUT /console-admin/v1/issue/{hashId}: only the fields given change. */
  async update(actor: Actor, hashId: string, patch: IssueUpdate): Promise<IssueView> {
    authorize(actor, 'issue.update');
    const issue = await write(this.db, actor, async (w) => {
      const before = await this.find(actor, hashId, w.trx, true);
      return this.applyChanges(w, before, await this.changesOf(w, before, patch));
    });
    return this.presentOne(actor, issue);
  }

  /**
   * Opens an issue as Gridport or staff do outside the console (the operator command line,
   * tests): the monitors, incoming mail and telephony open theirs through IssueJournal.
   */
  async open(actor: Actor, issue: NewIssue): Promise<IssueView> {
    authorize(actor, 'issue.update');
    const opened = await write(this.db, actor, (w) => this.journal.open(w, issue));
    return this.presentOne(actor, opened);
  }

  /** Resolves or reopens an issue: audited, and unless silent written to the timeline as a `cloud` message (which tells the subscribers). */
  private async changeState(actor: Actor, hashId: string, input: IssueStateChange, resolve: boolean): Promise<IssueView> {
    authorize(actor, resolve ? 'issue.resolve' : 'issue.reopen');
    const issue = await write(this.db, actor, async (w) => {
      const before = await this.find(actor, hashId, w.trx, true);
      if (resolve && before.closedAt !== null) {
        throw new GridportError('already_resolved', { issueHashId: hashId });
      }
      if (!resolve && before.closedAt === null) {
        throw new GridportError('already_open', { issueHashId: hashId });
      }
      const closedAt = resolve ? new Date() : null;
      const after = await IssueModel.query(w.trx).patchAndFetchById(before.id, { closedAt, closedAutomatically: false, updatedAt: new Date() });
      await w.audit({
        objectType: 'issues',
        objectId: before.id,
        organizationId: before.organizationId,
        changeType: 'controllerUpdate',
        diff: diffObjects({ closedAt: 'date' }, before, after),
      });
      if (input.silent) {
        this.journal.announce(w, before.id);
      } else {
        await this.journal.addMessage(w, before.id, {
          source: 'cloud',
          message: `${resolve ? 'Resolved' : 'Reopened'} by ${actor.name}.`,
          userId: actor.userId,
        });
      }
      return after;
    });
    return this.presentOne(actor, issue);
  }

  resolve(actor: Actor, hashId: string, input: IssueStateChange): Promise<IssueView> {
    return this.changeState(actor, hashId, input, true);
  }

  reopen(actor: Actor, hashId: string, input: IssueStateChange): Promise<IssueView> {
    return this.changeState(actor, hashId, input, false);
  }

  // Messages ---------------------------------------------------------------------------------

  private async presentMessage(message: IssueMessageModel): Promise<IssueMessageView> {
    const [view] = await this.presenter.messages([message], this.db);
    if (!view) {
      throw new GridportError('not_found', { issueMessageHashId: this.hashIds.encode('issueMessage', message.id) });
    }
    return view;
  }

  /** Adds a user's message with its files to an issue inside `w`. */
  private async post(
    w: Write,
    actor: Actor,
    issue: IssueModel,
    input: { message: string; isInternal?: boolean; to?: string[]; cc?: string[]; fileIdentifiers: string[] },
  ): Promise<IssueMessageModel> {
    const message = await this.journal.addMessage(w, issue.id, {
      source: 'user',
      message: input.message,
      userId: actor.userId,
      isInternal: input.isInternal ?? false,
      to: input.to ?? [],
      cc: input.cc ?? [],
    });
    await attachTemporaryFiles(w.trx, actor.userId, input.fileIdentifiers, message.id);
    return message;
  }

  /** POST /console-admin/v1/issue-messages: staff post (internal or not, mailed to `to` and `cc`), assigning the issue as they go. */
  async addMessage(actor: Actor, input: IssueMessageCreate): Promise<IssueMessageView> {
    authorize(actor, 'issueMessage.create');
    const message = await write(this.db, actor, async (w) => {
      const issue = await this.find(actor, input.issueHashId, w.trx, true);
      const assignment: IssueUpdate = {
        ...(input.assignedUserHashId === undefined ? {} : { assignedUserHashId: input.assignedUserHashId }),
        ...(input.assignedEmail === undefined ? {} : { assignedEmail: input.assignedEmail }),
      };
      await this.applyChanges(w, issue, await this.changesOf(w, issue, assignment));
      return this.post(w, actor, issue, input);
    });
    return this.presentMessage(message);
  }

  /**
   * POST /console/v1/issue/{issueHashId}/message: a customer's message. It asks for an answer,
   * so the issue's next activity falls due now unless it is due sooner already.
   */
  async addCustomerMessage(actor: Actor, issueHashId: string, input: IssueCustomerMessageCreate): Promise<IssueMessageView> {
    authorize(actor, 'issueMessage.createVisible');
    const message = await write(this.db, actor, async (w) => {
      const issue = await this.find(actor, issueHashId, w.trx, true);
      const posted = await this.post(w, actor, issue, input);
      if (!isStaff(actor)) {
        await this.awaitAnswer(w, issue, actor.name);
      }
      return posted;
    });
    return this.presentMessage(message);
  }

  /**
   * Someone outside the provider wrote to the issue (a customer's message, a mail that is not an
   * autoresponder's): it asks for an answer, so the next activity falls due now unless it is due
   * sooner already, and a resolved issue opens again, with a timeline message saying why.
   */
  async awaitAnswer(w: Write, issue: IssueModel, from: string): Promise<void> {
    const now = new Date();
    const nextActivityDueAt = issue.nextActivityDueAt === null || issue.nextActivityDueAt > now ? now : issue.nextActivityDueAt;
    if (issue.closedAt === null) {
      if (nextActivityDueAt !== issue.nextActivityDueAt) {
        await IssueModel.query(w.trx).patch({ nextActivityDueAt }).where('id', issue.id);
      }
      return;
    }
    const after = await IssueModel.query(w.trx).patchAndFetchById(issue.id, { closedAt: null, closedAutomatically: false, nextActivityDueAt, updatedAt: now });
    await w.audit({
      objectType: 'issues',
      objectId: issue.id,
      organizationId: issue.organizationId,
      changeType: 'controllerUpdate',
      diff: diffObjects({ closedAt: 'date' }, issue, after),
    });
    await this.journal.addMessage(w, issue.id, { source: 'cloud', message: `Reopened by a new message from ${from}.` });
  }

  /** GraphQL's one way to post: staff as POST /console-admin/v1/issue-messages, customers as POST /console/v1/issue/{issueHashId}/message. */
  postAny(actor: Actor, input: Record<string, unknown>): Promise<IssueMessageView> {
    authorize(actor, 'issueMessage.create', 'issueMessage.createVisible');
    if (isStaff(actor)) {
      return this.addMessage(actor, validate(issueMessageCreateSchema, input, 'payload_invalid'));
    }
    const { issueHashId, ...message } = input;
    const { issueHashId: checkedHashId } = validate(issueHashIdParams, { issueHashId }, 'payload_invalid');
    return this.addCustomerMessage(actor, checkedHashId, validate(issueCustomerMessageCreateSchema, message, 'payload_invalid'));
  }

  /** GET /console/v1/issue/{issueHashId}/message: the messages the caller may read, oldest first. */
  async messages(actor: Actor, issueHashId: string, query: IssueTimelineQuery): Promise<Page<IssueMessageView>> {
    authorize(actor, 'issueMessage.listVisible');
    const issue = await this.find(actor, issueHashId);
    const builder = IssueMessageModel.query(this.db)
      .where('issue_id', issue.id)
      .orderBy('id', 'asc')
      .limit(query.rowsPerPage + 1);
    if (!isStaff(actor)) {
      void builder.where('is_internal', false);
    }
    if (query.offset) {
      const [lastId] = decodeCursor(query.offset, ['number']);
      void builder.where('id', '>', lastId as number);
    }
    const rows = await builder;
    const page = rows.slice(0, query.rowsPerPage);
    const last = page[page.length - 1];
    return { rows: await this.presenter.messages(page, this.db), nextPageOffset: rows.length > query.rowsPerPage && last ? encodeCursor([last.id]) : null };
  }

  /** PUT /console-admin/v1/issue-messages/{hashId}: edits an internal message (only_internal_message_updates otherwise). */
  async updateMessage(actor: Actor, hashId: string, input: IssueMessageUpdate): Promise<IssueMessageView> {
    authorize(actor, 'issueMessage.update');
    const id = this.hashIds.decode('issueMessage', hashId);
    const message = await write(this.db, actor, async (w) => {
      const before = id === null ? undefined : await IssueMessageModel.query(w.trx).findById(id).forUpdate();
      if (!before) {
        throw new GridportError('not_found', { issueMessageHashId: hashId });
      }
      const issue = await this.find(actor, this.hashIds.encode('issue', before.issueId), w.trx);
      if (!before.isInternal) {
        throw new GridportError('only_internal_message_updates', { issueMessageHashId: hashId });
      }
      if (before.message === input.message) {
        return before;
      }
      const after = await IssueMessageModel.query(w.trx).patchAndFetchById(before.id, { message: input.message, updatedAt: new Date() });
      await w.audit({
        objectType: 'issues',
        objectId: issue.id,
        organizationId: issue.organizationId,
        changeType: 'controllerUpdate',
        diff: [{ type: 'string', name: internalMessageDiffName, oldValue: before.message, newValue: after.message }],
      });
      this.journal.announce(w, issue.id);
      return after;
    });
    return this.presentMessage(message);
  }

  // Subscribers ------------------------------------------------------------------------------

  /** Adds and removes subscribers of an issue, audited as one link-many change; answers the issue. */
  private async changeSubscribers(w: Write, issue: IssueModel, add: readonly number[], remove: readonly number[]): Promise<void> {
    const added =
      add.length === 0
        ? []
        : ((await w
            .trx('issue_subscribers')
            .insert(add.map((userId) => ({ issue_id: issue.id, user_id: userId })))
            .onConflict(['issue_id', 'user_id'])
            .ignore()
            .returning('user_id')) as { user_id: string | number }[]);
    const removed =
      remove.length === 0
        ? []
        : ((await w.trx('issue_subscribers').where('issue_id', issue.id).whereIn('user_id', remove).delete().returning('user_id')) as {
            user_id: string | number;
          }[]);
    if (added.length === 0 && removed.length === 0) {
      return;
    }
    const hashIdsOf = (rows: { user_id: string | number }[]) => rows.map((row) => this.hashIds.encode('user', Number(row.user_id)));
    await w.audit({
      objectType: 'issues',
      objectId: issue.id,
      organizationId: issue.organizationId,
      changeType: 'controllerUpdate',
      diff: [{ type: 'link-many', name: 'subscribers', objectType: 'users', addedHashIds: hashIdsOf(added), removedHashIds: hashIdsOf(removed) }],
    });
    this.journal.announce(w, issue.id);
  }

  /** PUT /console/v1/issue/{issueHashId}/subscribe and DELETE .../unsubscribe: the caller (a user) follows an issue they may see, or stops. */
  async subscribe(actor: Actor, issueHashId: string, subscribed: boolean): Promise<IssueView> {
    authorize(actor, 'issue.subscribe');
    if (actor.userId === null) {
      throw new GridportError('forbidden', { reason: 'only a user subscribes to an issue' });
    }
    const userId = actor.userId;
    const issue = await write(this.db, actor, async (w) => {
      const found = await this.find(actor, issueHashId, w.trx, true);
      await this.changeSubscribers(w, found, subscribed ? [userId] : [], subscribed ? [] : [userId]);
      return found;
    });
    return this.presentOne(actor, issue);
  }

  /**
   * POST and DELETE /console-admin/v1/issue/{hashId}/subscriber: staff add or remove users. A
   * user added must be able to see the issue (user_has_no_access otherwise).
   */
  async changeSubscribersOf(actor: Actor, hashId: string, userHashIds: readonly string[], subscribed: boolean): Promise<IssueView> {
    authorize(actor, 'issue.manageSubscribers');
    const issue = await write(this.db, actor, async (w) => {
      const found = await this.find(actor, hashId, w.trx, true);
      const users = await this.usersByHashIds(w, userHashIds, 'userHashIds');
      if (subscribed) {
        const seeing = await Promise.all(users.map((user) => this.canSee(w, user, found)));
        const refused = users.filter((_user, index) => !seeing[index]);
        if (refused.length > 0) {
          throw new GridportError('user_has_no_access', { hashIds: refused.map((user) => this.hashIds.encode('user', user.id)) });
        }
      }
      const ids = users.map((user) => user.id);
      await this.changeSubscribers(w, found, subscribed ? ids : [], subscribed ? [] : ids);
      return found;
    });
    return this.presentOne(actor, issue);
  }
}
