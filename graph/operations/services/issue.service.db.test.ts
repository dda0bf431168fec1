import { exampleDeviceConfig } from '../../../contracts/device';
import type { IssueTimelineItemView } from '../../../contracts/issue';
import { testSecrets } from '../../../test-support/app';
import { testDatabase, type TestDatabase } from '../../../test-support/database';
import { buildDevice, buildIssue, buildOrganization, buildPartnership, buildUser } from '../../../test-support/factories';
import { systemActor, type Actor } from '../../common/context';
import { HashIds } from '../../common/hash-ids';
import { write } from '../../common/write';
import { createServices, type Services } from '../../services';

/** The rules of IssueService that live in its SQL: who sees which issue, the timeline's order, its live feed, and row locks. */
describe('IssueService', () => {
  let database: TestDatabase;
  let services: Services;
  const system = systemActor('test');
  let owner: { id: number; hashId: string };
  let partner: { id: number; hashId: string };
  let ownerUser: Actor;
  let partnerUser: Actor;

  const customer = (organizationId: number, userId: number): Actor => ({
    kind: 'user',
    userId,
    apiKeyId: null,
    organizationId,
    rights: ['customer.read'],
    name: 'Customer',
  });

  beforeAll(async () => {
    database = await testDatabase();
    services = createServices({ db: database.db, hashIds: new HashIds(testSecrets.hashIdSecret), ...testSecrets });
    owner = await buildOrganization(services, { name: 'Service Owner BV' });
    partner = await buildOrganization(services, { name: 'Service Partner BV' });
    ownerUser = customer(owner.id, (await buildUser(services, { organizationHashId: owner.hashId, rights: ['customer.read'] })).id);
    partnerUser = customer(partner.id, (await buildUser(services, { organizationHashId: partner.hashId, rights: ['customer.read'] })).id);
  });

  afterAll(async () => {
    services.mail.close();
    await database.close();
  });

  const visibleTo = async (actor: Actor) =>
    (await services.issues.customerList(actor, { sortBy: 'createdAtAsc', rowsPerPage: 500 })).rows.map((row) => row.title);

  it("shows a customer the issues of their organisation and of the exposed devices shared with them, never internal ones or another's", async () => {
    const exposed = (await buildDevice(services, { organizationHashId: owner.hashId, config: exampleDeviceConfig, isExposedToCustomer: true })).hashId;
    const unexposed = (await buildDevice(services, { organizationHashId: owner.hashId })).hashId;
    const unshared = (await buildDevice(services, { organizationHashId: owner.hashId, config: exampleDeviceConfig, isExposedToCustomer: true })).hashId;
    await buildPartnership(services, { ownerOrganizationHashId: owner.hashId, partnerOrganizationHashId: partner.hashId, deviceHashIds: [exposed, unexposed] });
    await buildIssue(services, { title: 'of the exposed device', deviceHashId: exposed });
    await buildIssue(services, { title: 'of the unexposed device', deviceHashId: unexposed });
    await buildIssue(services, { title: 'of the unshared device', deviceHashId: unshared });
    await buildIssue(services, { title: 'internal, of the exposed device', deviceHashId: exposed, internal: true });
    await buildIssue(services, { title: 'of nobody' });
    await buildIssue(services, { title: "of the partner's own", organizationHashId: partner.hashId });

    expect(await visibleTo(ownerUser)).toEqual(['of the exposed device', 'of the unexposed device', 'of the unshared device']);
    expect(await visibleTo(partnerUser)).toEqual(['of the exposed device', "of the partner's own"]);
    const staff = (await services.issues.list(system, { sortBy: 'createdAtAsc', rowsPerPage: 500 })).rows.map((row) => row.title);
    expect(staff).toEqual([
      'of the exposed device',
      'of the unexposed device',
      'of the unshared device',
      'internal, of the exposed device',
      'of nobody',
      "of the partner's own",
    ]);
  });

  it('orders the timeline by time, an audit entry before the message written in the same write, and leaves internal messages out for customers', async () => {
    const issue = await buildIssue(services, { organizationHashId: owner.hashId, title: 'Timeline' });
    await write(database.db, system, async (w) => {
      await services.issueJournal.addMessage(w, issue.id, { source: 'monitoring', message: 'device.disconnect.duration fired' });
      await services.issueJournal.addMessage(w, issue.id, { source: 'monitoring', message: 'Checked by the monitor', isInternal: true });
    });
    await services.issues.resolve(system, issue.hashId, { silent: false });
    const describe = (items: IssueTimelineItemView[]) =>
      items.map((item) =>
        item.kind === 'message' ? `${item.message?.source}: ${item.message?.message}` : item.auditEntry?.diff.map((entry) => entry.name).join(','),
      );
    const staff = (await services.issues.timeline(system, issue.hashId, { rowsPerPage: 50 })).rows;
    expect(describe(staff)).toEqual([
      'title,source',
      'monitoring: device.disconnect.duration fired',
      'monitoring: Checked by the monitor',
      'closedAt',
      'cloud: Resolved by test.',
    ]);
    const seen = (await services.issues.timeline(ownerUser, issue.hashId, { rowsPerPage: 50 })).rows;
    expect(describe(seen)).toEqual(['title,source', 'monitoring: device.disconnect.duration fired', 'closedAt', 'cloud: Resolved by test.']);
    // Each item's cursor continues the timeline after it.
    const rest = await services.issues.timeline(system, issue.hashId, { rowsPerPage: 50, offset: staff[1]?.cursor });
    expect(describe(rest.rows)).toEqual(describe(staff.slice(2)));
  });

  it('feeds a live timeline with what each write adds once it commits, and nothing of a write that rolled back', async () => {
    const issue = await buildIssue(services, { organizationHashId: owner.hashId });
    const staffFeed = await services.issues.watchTimeline(system, issue.hashId);
    const customerFeed = await services.issues.watchTimeline(ownerUser, issue.hashId);
    await expect(
      write(database.db, system, async (w) => {
        await services.issueJournal.addMessage(w, issue.id, { source: 'monitoring', message: 'Rolled back' });
        throw new Error('rolled back on purpose');
      }),
    ).rejects.toThrow('rolled back on purpose');
    await write(database.db, system, async (w) => {
      await services.issueJournal.addMessage(w, issue.id, { source: 'monitoring', message: 'Internal', isInternal: true });
    });
    await write(database.db, system, async (w) => {
      await services.issueJournal.addMessage(w, issue.id, { source: 'monitoring', message: 'For everyone' });
    });
    const first = await staffFeed.next();
    const second = await staffFeed.next();
    expect([first.value, second.value].map((item: IssueTimelineItemView | undefined) => item?.message?.message)).toEqual(['Internal', 'For everyone']);
    expect((await customerFeed.next()).value?.message?.message).toBe('For everyone');
    await staffFeed.return?.();
    await customerFeed.return?.();
    expect(await staffFeed.next()).toEqual({ value: undefined, done: true });
  });

  it('refuses a watch of an issue the customer may not see with not_found, and a cursor that does not decode with invalid_offset', async () => {
    const hidden = await buildIssue(services, { organizationHashId: owner.hashId, internal: true });
    await expect(services.issues.watchTimeline(ownerUser, hidden.hashId)).rejects.toMatchObject({ key: 'not_found' });
    await expect(services.issues.watchTimeline(partnerUser, hidden.hashId)).rejects.toMatchObject({ key: 'not_found' });
    await expect(services.issues.watchTimeline(system, hidden.hashId, 'bm9wZQ')).rejects.toMatchObject({ key: 'invalid_offset' });
  });

  it('pages the next activity due to the millisecond, so dates SQL wrote with microseconds are neither lost nor repeated', async () => {
    const device = (await buildDevice(services, { organizationHashId: owner.hashId })).hashId;
    const issues = [];
    for (const due of ['2031-01-01 00:00:00.123789+00', '2031-01-01 00:00:00.123456+00', null, '2031-01-01 00:00:00.124001+00']) {
      const issue = await buildIssue(services, { deviceHashId: device });
      await database
        .db('issues')
        .where('id', issue.id)
        .update({ next_activity_due_at: due === null ? null : database.db.raw('?::timestamptz', [due]) });
      issues.push(issue.hashId);
    }
    const seen: string[] = [];
    let offset: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const answer = await services.issues.list(system, { sortBy: 'nextActivityDueAt', deviceHashId: device, rowsPerPage: 1, ...(offset ? { offset } : {}) });
      seen.push(...answer.rows.map((row) => row.hashId));
      if (answer.nextPageOffset === null) {
        break;
      }
      offset = answer.nextPageOffset;
    }
    // The first two fall in one millisecond: by id then.
    expect(seen).toEqual([issues[0], issues[1], issues[3], issues[2]]);
  });

  it('resolves an issue once when two resolve it at the same time: the other is already_resolved', async () => {
    const issue = await buildIssue(services, { organizationHashId: owner.hashId });
    const outcomes = await Promise.allSettled([
      services.issues.resolve(system, issue.hashId, { silent: false }),
      services.issues.resolve(system, issue.hashId, { silent: false }),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(refused?.reason).toMatchObject({ key: 'already_resolved' });
    expect(await database.db('issue_messages').where('issue_id', issue.id)).toHaveLength(1);
  });
});
