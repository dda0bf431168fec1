import { randomUUID } from 'node:crypto';
import { exampleDeviceConfig } from '../../contracts/device';
import type { IssueCountView, IssueMessageView, IssueTimelineItemView, IssueView } from '../../contracts/issue';
import type { Page } from '../../contracts/pagination';
import { testApp, type TestApp } from '../../test-support/app';
import { anOrganization, buildDevice, buildIssue, buildPartnership, buildSession, buildUser, type BuiltSession } from '../../test-support/factories';

const admin = '/console-admin/v1/issue';
const messages = '/console-admin/v1/issue-messages';
const customer = '/console/v1/issue';

/** Every issue route of console.md section 7 in both areas, with its rules and error keys. */
describe('issues over REST', () => {
  let t: TestApp;
  let ownerHashId: string;
  let otherHashId: string;
  let deviceHashId: string;
  let staff: BuiltSession;
  let reader: BuiltSession;
  let writer: BuiltSession;
  let stranger: BuiltSession;

  beforeAll(async () => {
    t = await testApp();
    ownerHashId = (await anOrganization(t.services, { name: 'Issue Owner BV' })).hashId;
    otherHashId = (await anOrganization(t.services, { name: 'Issue Other BV' })).hashId;
    deviceHashId = (
      await buildDevice(t.services, { organizationHashId: ownerHashId, name: 'Roof site', config: exampleDeviceConfig, isExposedToCustomer: true })
    ).hashId;
    staff = await buildSession(t.services, { rights: ['gridport.employee'], name: 'Sam Staff' });
    reader = await buildSession(t.services, { rights: ['customer.read'], organizationHashId: ownerHashId, name: 'Rita Reader' });
    writer = await buildSession(t.services, { rights: ['customer.write'], organizationHashId: ownerHashId, name: 'Walt Writer' });
    stranger = await buildSession(t.services, { rights: ['customer.write'], organizationHashId: otherHashId });
  });

  afterAll(async () => {
    await t.close();
  });

  const json = <T>(response: { json(): unknown }) => response.json() as T;

  async function ok<T>(method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, caller: string, payload?: object, status = 200): Promise<T> {
    const response = await t.call(method, url, caller, payload);
    expect({ status: response.statusCode, body: response.json() as unknown }).toEqual({ status, body: expect.anything() as unknown });
    return json<T>(response);
  }

  async function error(method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, caller: string, payload?: object) {
    const response = await t.call(method, url, caller, payload);
    return { status: response.statusCode, body: response.json() as { key: string; details?: unknown } };
  }

  /** An upload of `user` that is not attached to a message yet, as POST /console/v1/file/upload keeps it. */
  async function upload(user: BuiltSession, name = 'photo.png'): Promise<string> {
    const identifier = randomUUID();
    await t.database.db('files').insert({
      identifier,
      name,
      content_type: 'image/png',
      size: 4,
      storage: 'database',
      content: Buffer.from([1, 2, 3, 4]),
      uploaded_by_user_id: user.user.id,
      organization_id: t.hashIds.decode('organization', user.user.organization.hashId),
    });
    return identifier;
  }

  function auditRows(issue: { id: number }) {
    return t.database.db('audit_log').where({ object_type: 'issues', object_id: issue.id }).orderBy('id');
  }

  describe('who may call', () => {
    it('refuses customers every admin route with forbidden, before the body is read', async () => {
      const issue = await buildIssue(t.services, { organizationHashId: ownerHashId });
      const routes: [string, string, object?][] = [
        ['GET', admin],
        ['GET', `${admin}/${issue.hashId}`],
        ['PUT', `${admin}/${issue.hashId}`, { title: 'No' }],
        ['PUT', `${admin}/${issue.hashId}/resolve`, {}],
        ['PUT', `${admin}/${issue.hashId}/reopen`, {}],
        ['GET', `${admin}/${issue.hashId}/timeline`],
        ['POST', `${admin}/${issue.hashId}/subscriber`, { userHashIds: [writer.user.hashId] }],
        ['DELETE', `${admin}/${issue.hashId}/subscriber`, { userHashIds: [writer.user.hashId] }],
        ['POST', messages, { issueHashId: issue.hashId, message: 'No' }],
        ['PUT', `${messages}/aaaaaaaa`, { message: 'No' }],
      ];
      for (const [method, url, body] of routes) {
        const answer = await error(method as 'GET', url, writer.cookie, body);
        expect({ route: `${method} ${url}`, ...answer }).toEqual({
          route: `${method} ${url}`,
          status: 403,
          body: { key: 'forbidden', details: { required: ['gridport.employee'] } },
        });
      }
      expect(await error('GET', customer, '')).toEqual({ status: 401, body: { key: 'unauthorized' } });
    });

    it('answers a hash id longer than 64 characters with params_invalid, and a hash id of another type with not_found', async () => {
      const long = 'x'.repeat(65);
      expect(await error('GET', `${admin}/${long}`, staff.cookie)).toMatchObject({ status: 400, body: { key: 'params_invalid' } });
      expect(await error('GET', `${customer}/${long}/timeline`, reader.cookie)).toMatchObject({ status: 400, body: { key: 'params_invalid' } });
      expect(await error('POST', `${customer}/${long}/message`, writer.cookie, { message: 'x' })).toMatchObject({
        status: 400,
        body: { key: 'params_invalid', details: [{ path: 'issueHashId', message: 'issueHashId must be at most 64 characters' }] },
      });
      expect(await error('GET', `${admin}/${deviceHashId}`, staff.cookie)).toEqual({
        status: 404,
        body: { key: 'not_found', details: { issueHashId: deviceHashId } },
      });
    });
  });

  describe('reading', () => {
    it('gives staff every field of an issue, its device, organisation and alarms', async () => {
      const issue = await buildIssue(t.services, { deviceHashId, title: 'Inverter offline', gridportIssueOwner: true, autoClose: true, canReopen: true });
      const alarmId = (
        (await t.database
          .db('alarms')
          .insert({
            monitor: 'device.disconnect.duration',
            device_id: t.hashIds.decode('device', deviceHashId),
            issue_id: issue.id,
            customer_message: JSON.stringify({ to: ['ops@owner.example'], markdown: '**Offline**' }),
          })
          .returning('id')) as { id: number }[]
      )[0]?.id;
      const view = await ok<IssueView>('GET', `${admin}/${issue.hashId}`, staff.cookie);
      expect(view).toEqual({
        hashId: issue.hashId,
        title: 'Inverter offline',
        status: 'open',
        source: 'user',
        internal: false,
        autoClose: true,
        canReopen: true,
        subscribers: [],
        assignedUser: null,
        assignedEmail: null,
        nonUserParticipants: [],
        gridportIssueOwner: true,
        organization: { hashId: ownerHashId, name: 'Issue Owner BV' },
        device: { hashId: deviceHashId, name: 'Roof site' },
        alarms: [
          {
            hashId: t.hashIds.encode('alarm', alarmId ?? 0),
            monitor: 'device.disconnect.duration',
            deviceHashId,
            destinationHashId: null,
            assetIdentifier: null,
            customerMessage: { to: ['ops@owner.example'], markdown: '**Offline**' },
            customerMessageSentAt: null,
            recoveringSince: null,
            closedAt: null,
            createdAt: expect.any(String) as string,
          },
        ],
        replyHeaders: { messageId: null, references: [] },
        nextActivityDueAt: null,
        closedAt: null,
        createdAt: expect.any(String) as string,
        updatedAt: expect.any(String) as string,
        messageCount: 0,
      });
      expect(await ok<IssueView>('GET', `${customer}/${issue.hashId}`, reader.cookie)).toEqual(view);
    });

    it("keeps customers to their organisation's issues and those of devices shared with them, never internal ones (not_found)", async () => {
      const own = await buildIssue(t.services, { organizationHashId: ownerHashId });
      const internal = await buildIssue(t.services, { organizationHashId: ownerHashId, internal: true });
      const others = await buildIssue(t.services, { organizationHashId: otherHashId });
      const ofDevice = await buildIssue(t.services, { deviceHashId });
      for (const hidden of [internal, others]) {
        expect(await error('GET', `${customer}/${hidden.hashId}`, reader.cookie)).toEqual({
          status: 404,
          body: { key: 'not_found', details: { issueHashId: hidden.hashId } },
        });
        expect(await error('GET', `${customer}/${hidden.hashId}/timeline`, reader.cookie)).toMatchObject({ status: 404, body: { key: 'not_found' } });
        expect(await error('POST', `${customer}/${hidden.hashId}/message`, writer.cookie, { message: 'Hello?' })).toMatchObject({ status: 404 });
        expect(await error('PUT', `${customer}/${hidden.hashId}/subscribe`, writer.cookie)).toMatchObject({ status: 404 });
      }
      expect(await error('GET', `${customer}/${own.hashId}`, stranger.cookie)).toMatchObject({ status: 404, body: { key: 'not_found' } });
      const listed = await ok<Page<IssueView>>('GET', `${customer}?rowsPerPage=500`, reader.cookie);
      const hashIds = listed.rows.map((row) => row.hashId);
      expect(hashIds).toEqual(expect.arrayContaining([own.hashId, ofDevice.hashId]));
      expect(hashIds).not.toContain(internal.hashId);
      expect(hashIds).not.toContain(others.hashId);

      // A partner sees the issues of a device shared with it, not the owner's other issues.
      const partner = await anOrganization(t.services, { name: 'Issue Partner BV' });
      await buildPartnership(t.services, {
        ownerOrganizationHashId: ownerHashId,
        partnerOrganizationHashId: partner.hashId,
        allDevices: false,
        deviceHashIds: [deviceHashId],
      });
      const partnerUser = await buildSession(t.services, { rights: ['customer.read'], organizationHashId: partner.hashId });
      const seen = (await ok<Page<IssueView>>('GET', `${customer}?rowsPerPage=500`, partnerUser.cookie)).rows.map((row) => row.hashId);
      expect(seen).toContain(ofDevice.hashId);
      expect(seen).not.toContain(own.hashId);
      expect(await ok<IssueView>('GET', `${customer}/${ofDevice.hashId}`, partnerUser.cookie)).toMatchObject({ hashId: ofDevice.hashId });
    });
  });

  describe('the admin list', () => {
    let device: string;
    const made: Record<string, IssueView & { id: number }> = {};

    beforeAll(async () => {
      device = (await buildDevice(t.services, { organizationHashId: otherHashId, name: 'Listed site' })).hashId;
      made.first = await buildIssue(t.services, { deviceHashId: device, gridportIssueOwner: true, nextActivityDueAt: new Date('2030-01-03T00:00:00Z') });
      made.second = await buildIssue(t.services, { deviceHashId: device, assignedUserId: staff.user.id, nextActivityDueAt: new Date('2030-01-01T00:00:00Z') });
      made.third = await buildIssue(t.services, { deviceHashId: device, assignedEmail: 'someone@elsewhere.example' });
      made.fourth = await buildIssue(t.services, { deviceHashId: device, nextActivityDueAt: new Date('2030-01-02T00:00:00Z') });
      await ok('PUT', `${admin}/${made.fourth.hashId}/resolve`, staff.cookie, { silent: true });
      await ok('POST', `${admin}/${made.third.hashId}/subscriber`, staff.cookie, { userHashIds: [staff.user.hashId] });
    });

    const listed = async (query: string) =>
      (await ok<Page<IssueView>>('GET', `${admin}?deviceHashId=${device}&${query}`, staff.cookie)).rows.map((row) => row.hashId);
    const ids = (...names: string[]) => names.map((name) => made[name]?.hashId);

    it('sorts newest first by default, oldest first, or the next activity due first with issues without one last', async () => {
      expect(await listed('')).toEqual(ids('fourth', 'third', 'second', 'first'));
      expect(await listed('sortBy=createdAtDesc')).toEqual(ids('fourth', 'third', 'second', 'first'));
      expect(await listed('sortBy=createdAtAsc')).toEqual(ids('first', 'second', 'third', 'fourth'));
      expect(await listed('sortBy=nextActivityDueAt')).toEqual(ids('second', 'fourth', 'first', 'third'));
      expect(await error('GET', `${admin}?sortBy=title`, staff.cookie)).toMatchObject({ status: 400, body: { key: 'query_invalid' } });
    });

    it('filters by status, device, owner, assignee and subscriber', async () => {
      expect(await listed('status=open')).toEqual(ids('third', 'second', 'first'));
      expect(await listed('status=resolved')).toEqual(ids('fourth'));
      expect(await listed('owner=gridport')).toEqual(ids('first'));
      expect(await listed('owner=customer')).toEqual(ids('fourth', 'third', 'second'));
      expect(await listed(`assignee=${staff.user.hashId}`)).toEqual(ids('second'));
      expect(await listed('assignee=me')).toEqual(ids('second'));
      expect(await listed('assignee=none')).toEqual(ids('fourth', 'first'));
      expect(await listed(`subscriber=${staff.user.hashId}`)).toEqual(ids('third'));
      expect(await listed('subscriber=me')).toEqual(ids('third'));
      expect(await listed(`subscriber=${writer.user.hashId}`)).toEqual([]);
      const otherDevice = (await ok<Page<IssueView>>('GET', `${admin}?deviceHashId=${deviceHashId}&rowsPerPage=500`, staff.cookie)).rows;
      expect(otherDevice.every((row) => row.device?.hashId === deviceHashId)).toBe(true);
      expect(await error('GET', `${admin}?status=closed`, staff.cookie)).toMatchObject({ status: 400, body: { key: 'query_invalid' } });
    });

    it('pages every sort with an opaque offset; a cursor that does not decode is invalid_offset', async () => {
      for (const sortBy of ['createdAtDesc', 'createdAtAsc', 'nextActivityDueAt']) {
        const all = await listed(`sortBy=${sortBy}`);
        const paged: string[] = [];
        let offset: string | null = null;
        do {
          const page: Page<IssueView> = await ok<Page<IssueView>>(
            'GET',
            `${admin}?deviceHashId=${device}&sortBy=${sortBy}&rowsPerPage=1${offset ? `&offset=${offset}` : ''}`,
            staff.cookie,
          );
          paged.push(...page.rows.map((row) => row.hashId));
          offset = page.nextPageOffset;
        } while (offset !== null && paged.length < 10);
        expect({ sortBy, paged }).toEqual({ sortBy, paged: all });
      }
      expect(await error('GET', `${admin}?offset=not-a-cursor`, staff.cookie)).toEqual({
        status: 400,
        body: { key: 'invalid_offset', details: { offset: 'not-a-cursor' } },
      });
      expect(await error('GET', `${admin}/${made.first?.hashId ?? ''}/timeline?offset=bm9wZQ`, staff.cookie)).toMatchObject({
        status: 400,
        body: { key: 'invalid_offset' },
      });
    });
  });

  describe('updating, resolving and reopening', () => {
    it('takes null to clear the assignee (user or email)', async () => {
      const issue = await buildIssue(t.services, { organizationHashId: ownerHashId, assignedEmail: 'installer@owner.example' });
      const cleared = await ok<IssueView>('PUT', `${admin}/${issue.hashId}`, staff.cookie, { assignedEmail: null, assignedUserHashId: null });
      expect(cleared).toMatchObject({ assignedEmail: null, assignedUser: null });
    });

    it('updates the fields given, audits them as the issue changes, and leaves the rest', async () => {
      const issue = await buildIssue(t.services, { organizationHashId: ownerHashId });
      const updated = await ok<IssueView>('PUT', `${admin}/${issue.hashId}`, staff.cookie, {
        title: ' Battery fault ',
        autoClose: true,
        canReopen: true,
        gridportIssueOwner: true,
        assignedUserHashId: writer.user.hashId,
        assignedEmail: 'installer@owner.example',
        nextActivityDueAt: '2030-06-01T08:00:00Z',
      });
      expect(updated).toMatchObject({
        title: 'Battery fault',
        autoClose: true,
        canReopen: true,
        gridportIssueOwner: true,
        assignedUser: { hashId: writer.user.hashId, name: 'Walt Writer', email: writer.user.email },
        assignedEmail: 'installer@owner.example',
        nextActivityDueAt: '2030-06-01T08:00:00.000Z',
        internal: false,
      });
      const [, audit] = await auditRows(issue);
      expect(audit).toMatchObject({ change_type: 'controllerUpdate', user_id: staff.user.id });
      expect(audit.diff).toEqual(
        expect.arrayContaining([
          { type: 'string', name: 'title', oldValue: expect.stringMatching(/^Issue /) as string, newValue: 'Battery fault' },
          { type: 'link', name: 'assignedUser', objectType: 'users', oldHashId: null, newHashId: writer.user.hashId },
          { type: 'date', name: 'nextActivityDueAt', oldValue: null, newValue: '2030-06-01T08:00:00.000Z' },
        ]),
      );
      const cleared = await ok<IssueView>('PUT', `${admin}/${issue.hashId}`, staff.cookie, { assignedUserHashId: null, nextActivityDueAt: null });
      expect(cleared).toMatchObject({ assignedUser: null, nextActivityDueAt: null, title: 'Battery fault' });
      expect(await error('PUT', `${admin}/${issue.hashId}`, staff.cookie, { nextActivityDueAt: '2100-01-01T00:00:00Z' })).toMatchObject({
        status: 400,
        body: { key: 'payload_invalid', details: [expect.objectContaining({ path: 'nextActivityDueAt' })] },
      });
      expect(await error('PUT', `${admin}/${issue.hashId}`, staff.cookie, { title: 'x'.repeat(257) })).toMatchObject({
        status: 400,
        body: { key: 'payload_invalid' },
      });
      expect(await error('PUT', `${admin}/${issue.hashId}`, staff.cookie, { title: 'x', status: 'open' })).toMatchObject({
        status: 400,
        body: { key: 'payload_invalid' },
      });
      expect(await ok<IssueView>('PUT', `${admin}/${issue.hashId}`, staff.cookie, { title: 'x'.repeat(256) })).toMatchObject({ title: 'x'.repeat(256) });
    });

    it('refuses a customer or an outside email as the assignee of an internal issue with internal_issue_external_assignee', async () => {
      const internal = await buildIssue(t.services, { organizationHashId: ownerHashId, internal: true });
      expect(await error('PUT', `${admin}/${internal.hashId}`, staff.cookie, { assignedUserHashId: writer.user.hashId })).toEqual({
        status: 400,
        body: { key: 'internal_issue_external_assignee', details: { assignedUserHashId: writer.user.hashId } },
      });
      expect(await error('PUT', `${admin}/${internal.hashId}`, staff.cookie, { assignedEmail: 'someone@customer.example' })).toEqual({
        status: 400,
        body: { key: 'internal_issue_external_assignee', details: { assignedEmail: 'someone@customer.example' } },
      });
      expect(
        await error('POST', messages, staff.cookie, { issueHashId: internal.hashId, message: 'Yours', assignedUserHashId: reader.user.hashId }),
      ).toMatchObject({
        status: 400,
        body: { key: 'internal_issue_external_assignee' },
      });
      // The provider's own people are fine, by user or by their email.
      expect(
        await ok<IssueView>('PUT', `${admin}/${internal.hashId}`, staff.cookie, { assignedUserHashId: staff.user.hashId, assignedEmail: staff.user.email }),
      ).toMatchObject({
        assignedUser: { hashId: staff.user.hashId },
      });
      // Making an issue internal while a customer holds it is refused too.
      const open = await buildIssue(t.services, { organizationHashId: ownerHashId, assignedUserId: writer.user.id });
      expect(await error('PUT', `${admin}/${open.hashId}`, staff.cookie, { internal: true })).toMatchObject({
        status: 400,
        body: { key: 'internal_issue_external_assignee' },
      });
    });

    it('refuses an assignee of another organisation with user_has_no_access, and an unknown user with not_found', async () => {
      const issue = await buildIssue(t.services, { organizationHashId: ownerHashId });
      expect(await error('PUT', `${admin}/${issue.hashId}`, staff.cookie, { assignedUserHashId: stranger.user.hashId })).toEqual({
        status: 400,
        body: { key: 'user_has_no_access', details: { hashIds: [stranger.user.hashId] } },
      });
      const nobody = t.hashIds.encode('user', 999_999);
      expect(await error('PUT', `${admin}/${issue.hashId}`, staff.cookie, { assignedUserHashId: nobody })).toEqual({
        status: 404,
        body: { key: 'not_found', details: { assignedUserHashId: [nobody] } },
      });
    });

    it('resolves and reopens with a cloud message and an audit entry each, already_resolved and already_open when there is nothing to do', async () => {
      const issue = await buildIssue(t.services, { organizationHashId: ownerHashId });
      const resolved = await ok<IssueView>('PUT', `${admin}/${issue.hashId}/resolve`, staff.cookie, {});
      expect(resolved).toMatchObject({ status: 'resolved', closedAt: expect.any(String) as string, messageCount: 1 });
      expect(await error('PUT', `${admin}/${issue.hashId}/resolve`, staff.cookie, {})).toEqual({
        status: 409,
        body: { key: 'already_resolved', details: { issueHashId: issue.hashId } },
      });
      const reopened = await ok<IssueView>('PUT', `${admin}/${issue.hashId}/reopen`, staff.cookie, { silent: false });
      expect(reopened).toMatchObject({ status: 'open', closedAt: null, messageCount: 2 });
      expect(await error('PUT', `${admin}/${issue.hashId}/reopen`, staff.cookie, {})).toEqual({
        status: 409,
        body: { key: 'already_open', details: { issueHashId: issue.hashId } },
      });

      const rows = await t.database.db('issue_messages').where('issue_id', issue.id).orderBy('id');
      expect(
        rows.map((row: { source: string; message: string; user_id: string | number; mail_state: string }) => [
          row.source,
          row.message,
          Number(row.user_id),
          row.mail_state,
        ]),
      ).toEqual([
        ['cloud', 'Resolved by Sam Staff.', staff.user.id, 'none'],
        ['cloud', 'Reopened by Sam Staff.', staff.user.id, 'none'],
      ]);
      const audits = await auditRows(issue);
      expect(audits.map((row: { change_type: string; diff: { name: string }[] }) => [row.change_type, row.diff.map((entry) => entry.name)])).toEqual([
        ['controllerCreate', ['title', 'source']],
        ['controllerUpdate', ['closedAt']],
        ['controllerUpdate', ['closedAt']],
      ]);
    });

    it("reopens a resolved issue when a customer writes to it, saying so in the timeline; staff's own messages leave it resolved", async () => {
      const issue = await buildIssue(t.services, { organizationHashId: ownerHashId });
      await ok('PUT', `${admin}/${issue.hashId}/resolve`, staff.cookie, { silent: true });
      await ok('POST', messages, staff.cookie, { issueHashId: issue.hashId, message: 'Closing words' }, 201);
      expect(await ok<IssueView>('GET', `${admin}/${issue.hashId}`, staff.cookie)).toMatchObject({ status: 'resolved' });

      await ok('POST', `${customer}/${issue.hashId}/message`, reader.cookie, { message: 'It is broken again' }, 201);
      const reopened = await ok<IssueView>('GET', `${admin}/${issue.hashId}`, staff.cookie);
      expect(reopened).toMatchObject({ status: 'open', closedAt: null, nextActivityDueAt: expect.any(String) as string });
      const timeline = await ok<Page<IssueTimelineItemView>>('GET', `${customer}/${issue.hashId}/timeline`, reader.cookie);
      expect(timeline.rows.filter((row) => row.kind === 'message').map((row) => row.message?.message)).toEqual([
        'Closing words',
        'It is broken again',
        'Reopened by a new message from Rita Reader.',
      ]);
    });

    it('resolves and reopens silently: audited, and no timeline message', async () => {
      const issue = await buildIssue(t.services, { organizationHashId: ownerHashId });
      expect(await ok<IssueView>('PUT', `${admin}/${issue.hashId}/resolve`, staff.cookie, { silent: true })).toMatchObject({
        status: 'resolved',
        messageCount: 0,
      });
      expect(await ok<IssueView>('PUT', `${admin}/${issue.hashId}/reopen`, staff.cookie, { silent: true })).toMatchObject({ status: 'open', messageCount: 0 });
      expect(await t.database.db('issue_messages').where('issue_id', issue.id)).toEqual([]);
      expect(await auditRows(issue)).toHaveLength(3);
      expect(await error('PUT', `${admin}/${issue.hashId}/resolve`, staff.cookie, { silent: 'loud' })).toMatchObject({
        status: 400,
        body: { key: 'payload_invalid' },
      });
    });
  });

  describe('messages', () => {
    it('posts a staff message mailed to to and cc (left pending for the mailer), assigning the issue as it goes', async () => {
      const issue = await buildIssue(t.services, { organizationHashId: ownerHashId });
      const message = await ok<IssueMessageView>(
        'POST',
        messages,
        staff.cookie,
        {
          issueHashId: issue.hashId,
          message: 'We are on it.',
          to: ['owner@owner.example'],
          cc: ['installer@owner.example'],
          assignedUserHashId: staff.user.hashId,
        },
        201,
      );
      expect(message).toEqual({
        hashId: expect.any(String) as string,
        issueHashId: issue.hashId,
        source: 'user',
        user: { hashId: staff.user.hashId, name: 'Sam Staff', email: staff.user.email },
        message: 'We are on it.',
        isInternal: false,
        to: ['owner@owner.example'],
        cc: ['installer@owner.example'],
        emailHeaders: null,
        files: [],
        createdAt: expect.any(String) as string,
        updatedAt: expect.any(String) as string,
      });
      const row = (await t.database.db('issue_messages').where('id', t.hashIds.decode('issueMessage', message.hashId)).first()) as { mail_state: string };
      expect(row.mail_state).toBe('pending');
      expect(await ok<IssueView>('GET', `${admin}/${issue.hashId}`, staff.cookie)).toMatchObject({
        assignedUser: { hashId: staff.user.hashId },
        messageCount: 1,
      });
      expect(await error('POST', messages, staff.cookie, { issueHashId: issue.hashId, message: '' })).toMatchObject({
        status: 400,
        body: { key: 'payload_invalid' },
      });
      expect(
        await error('POST', messages, staff.cookie, { issueHashId: issue.hashId, message: 'Note', isInternal: true, cc: ['owner@owner.example'] }),
      ).toEqual({
        status: 400,
        body: { key: 'payload_invalid', details: [{ path: 'to', message: 'An internal message is not mailed: leave to and cc empty' }] },
      });
      expect(await error('POST', messages, staff.cookie, { issueHashId: issue.hashId, message: 'x', to: ['not an email'] })).toMatchObject({
        status: 400,
        body: { key: 'payload_invalid', details: [{ path: 'to[0]', message: 'Invalid email (RFC 5322)' }] },
      });
    });

    it('attaches your own uploads; more than 10 is too_many_files, and one unknown, of someone else or attached already is no_temp_file_found', async () => {
      const issue = await buildIssue(t.services, { organizationHashId: ownerHashId });
      const mine = await upload(writer, 'meter.png');
      const posted = await ok<IssueMessageView>(
        'POST',
        `${customer}/${issue.hashId}/message`,
        writer.cookie,
        { message: 'See the photo', fileIdentifiers: [mine] },
        201,
      );
      expect(posted.files).toEqual([{ identifier: mine, name: 'meter.png', contentType: 'image/png', size: 4, url: `/console/v1/file/${mine}` }]);

      const eleven = await Promise.all(Array.from({ length: 11 }, () => upload(writer)));
      expect(await error('POST', `${customer}/${issue.hashId}/message`, writer.cookie, { message: 'Many', fileIdentifiers: eleven })).toEqual({
        status: 400,
        body: { key: 'too_many_files', details: { count: 11, max: 10 } },
      });
      expect(await error('POST', messages, staff.cookie, { issueHashId: issue.hashId, message: 'Many', fileIdentifiers: eleven })).toMatchObject({
        status: 400,
        body: { key: 'too_many_files' },
      });
      const unknown = randomUUID();
      const someoneElses = await upload(reader);
      for (const identifier of [unknown, someoneElses, mine, 'not-a-uuid']) {
        expect(await error('POST', `${customer}/${issue.hashId}/message`, writer.cookie, { message: 'Again', fileIdentifiers: [identifier] })).toEqual({
          status: 404,
          body: { key: 'no_temp_file_found', details: { fileIdentifiers: [identifier] } },
        });
      }
      // Nothing was written by the refused posts.
      expect(await t.database.db('issue_messages').where('issue_id', issue.id)).toHaveLength(1);
    });

    it('edits internal messages only: only_internal_message_updates for any other', async () => {
      const issue = await buildIssue(t.services, { organizationHashId: ownerHashId });
      const internal = await ok<IssueMessageView>(
        'POST',
        messages,
        staff.cookie,
        { issueHashId: issue.hashId, message: 'Check the fuse', isInternal: true },
        201,
      );
      const edited = await ok<IssueMessageView>('PUT', `${messages}/${internal.hashId}`, staff.cookie, { message: 'Check the main fuse' });
      expect(edited).toMatchObject({ hashId: internal.hashId, message: 'Check the main fuse', isInternal: true });
      const shown = await ok<IssueMessageView>('POST', messages, staff.cookie, { issueHashId: issue.hashId, message: 'Hello' }, 201);
      expect(await error('PUT', `${messages}/${shown.hashId}`, staff.cookie, { message: 'Changed' })).toEqual({
        status: 403,
        body: { key: 'only_internal_message_updates', details: { issueMessageHashId: shown.hashId } },
      });
      expect(await error('PUT', `${messages}/${issue.hashId}`, staff.cookie, { message: 'Changed' })).toEqual({
        status: 404,
        body: { key: 'not_found', details: { issueMessageHashId: issue.hashId } },
      });
    });

    it('hides internal messages from customers in the timeline, the messages and the count, and sets the next activity due when a customer writes', async () => {
      const issue = await buildIssue(t.services, { organizationHashId: ownerHashId, nextActivityDueAt: new Date('2030-01-01T00:00:00Z') });
      await ok('POST', messages, staff.cookie, { issueHashId: issue.hashId, message: 'Internal note', isInternal: true }, 201);
      const internal = (await ok<Page<IssueTimelineItemView>>('GET', `${admin}/${issue.hashId}/timeline`, staff.cookie)).rows.find(
        (row) => row.message?.isInternal,
      );
      await ok('PUT', `${messages}/${internal?.message?.hashId ?? ''}`, staff.cookie, { message: 'Internal note, edited' });
      await ok('POST', messages, staff.cookie, { issueHashId: issue.hashId, message: 'Dear customer' }, 201);
      const before = Date.now();
      await ok('POST', `${customer}/${issue.hashId}/message`, reader.cookie, { message: 'Thanks!' }, 201);

      const staffTimeline = await ok<Page<IssueTimelineItemView>>('GET', `${admin}/${issue.hashId}/timeline`, staff.cookie);
      expect(
        staffTimeline.rows.map((row) => (row.kind === 'message' ? row.message?.message : row.auditEntry?.diff.map((entry) => entry.name).join(','))),
      ).toEqual(['title,source', 'Internal note, edited', 'internalMessage', 'Dear customer', 'Thanks!']);
      const customerTimeline = await ok<Page<IssueTimelineItemView>>('GET', `${customer}/${issue.hashId}/timeline`, reader.cookie);
      expect(customerTimeline.rows.map((row) => (row.kind === 'message' ? row.message?.message : row.auditEntry?.changeType))).toEqual([
        'controllerCreate',
        'Dear customer',
        'Thanks!',
      ]);
      const listed = await ok<Page<IssueMessageView>>('GET', `${customer}/${issue.hashId}/message`, reader.cookie);
      expect(listed.rows.map((row) => row.message)).toEqual(['Dear customer', 'Thanks!']);
      expect(listed.rows[1]?.user).toEqual({ hashId: reader.user.hashId, name: 'Rita Reader', email: reader.user.email });
      expect(await ok<IssueView>('GET', `${customer}/${issue.hashId}`, reader.cookie)).toMatchObject({ messageCount: 2 });
      const seenByStaff = await ok<IssueView>('GET', `${admin}/${issue.hashId}`, staff.cookie);
      expect(seenByStaff.messageCount).toBe(3);
      expect(new Date(seenByStaff.nextActivityDueAt ?? 0).getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(new Date(seenByStaff.nextActivityDueAt ?? 0).getTime()).toBeLessThan(new Date('2030-01-01T00:00:00Z').getTime());
      expect(await error('POST', `${customer}/${issue.hashId}/message`, reader.cookie, { message: 'Psst', isInternal: true })).toMatchObject({
        status: 400,
        body: { key: 'payload_invalid' },
      });
    });

    it('pages the timeline oldest first', async () => {
      const issue = await buildIssue(t.services, { organizationHashId: ownerHashId });
      for (const text of ['one', 'two', 'three']) {
        await ok('POST', messages, staff.cookie, { issueHashId: issue.hashId, message: text }, 201);
      }
      const seen: string[] = [];
      let offset: string | null = null;
      do {
        const page: Page<IssueTimelineItemView> = await ok<Page<IssueTimelineItemView>>(
          'GET',
          `${admin}/${issue.hashId}/timeline?rowsPerPage=2${offset ? `&offset=${offset}` : ''}`,
          staff.cookie,
        );
        seen.push(...page.rows.map((row) => row.message?.message ?? row.kind));
        offset = page.nextPageOffset;
      } while (offset !== null);
      expect(seen).toEqual(['audit', 'one', 'two', 'three']);
    });
  });

  describe("the fleet's devices with issues", () => {
    it('lists and counts online devices with an open issue that customers see as operational with issues', async () => {
      const organization = await anOrganization(t.services, { name: 'Fleet With Issues BV' });
      const viewer = await buildSession(t.services, { rights: ['customer.read'], organizationHashId: organization.hashId });
      const site = async (name: string, online: boolean) => {
        const device = await buildDevice(t.services, { organizationHashId: organization.hashId, name, config: exampleDeviceConfig, isExposedToCustomer: true });
        await t.database.db('devices').where('id', device.id).update({ online });
        return device.hashId;
      };
      const quiet = await site('Quiet', true);
      const troubled = await site('Troubled', true);
      const internalOnly = await site('Internal only', true);
      const resolvedOnly = await site('Resolved only', true);
      const offline = await site('Offline', false);
      await buildIssue(t.services, { deviceHashId: troubled });
      await buildIssue(t.services, { deviceHashId: internalOnly, internal: true });
      const resolved = await buildIssue(t.services, { deviceHashId: resolvedOnly });
      await ok('PUT', `${admin}/${resolved.hashId}/resolve`, staff.cookie, { silent: true });
      await buildIssue(t.services, { deviceHashId: offline });

      const listed = async (status: string) => {
        const page = await ok<Page<{ hashId: string }> & { count: number }>('GET', `/console/v1/device?status=${status}`, viewer.cookie);
        return { hashIds: page.rows.map((row) => row.hashId).sort(), count: page.count };
      };
      expect(await listed('operational')).toEqual({ hashIds: [quiet, internalOnly, resolvedOnly].sort(), count: 3 });
      expect(await listed('operational-with-issues')).toEqual({ hashIds: [troubled], count: 1 });
      expect(await listed('non-operational')).toEqual({ hashIds: [offline], count: 1 });
      expect(await ok('GET', '/console/v1/device/count', viewer.cookie)).toEqual({
        totalCount: 5,
        operationalCount: 3,
        operationalWithIssuesCount: 1,
        inactiveCount: 1,
      });

      // Resolving the issue makes the device operational again.
      const [open] = (await ok<Page<IssueView>>('GET', `${admin}?deviceHashId=${troubled}&status=open`, staff.cookie)).rows;
      await ok('PUT', `${admin}/${open?.hashId ?? ''}/resolve`, staff.cookie, {});
      expect(await listed('operational-with-issues')).toEqual({ hashIds: [], count: 0 });
      expect(await ok('GET', '/console/v1/device/count', viewer.cookie)).toEqual({
        totalCount: 5,
        operationalCount: 4,
        operationalWithIssuesCount: 0,
        inactiveCount: 1,
      });
    });
  });

  describe('subscribers and counts', () => {
    it('lets staff add and remove subscribers who may see the issue, and customers follow and stop following', async () => {
      const issue = await buildIssue(t.services, { organizationHashId: ownerHashId });
      const added = await ok<IssueView>('POST', `${admin}/${issue.hashId}/subscriber`, staff.cookie, { userHashIds: [staff.user.hashId, reader.user.hashId] });
      expect(added.subscribers.map((user) => user.hashId)).toEqual([staff.user.hashId, reader.user.hashId]);
      expect(await error('POST', `${admin}/${issue.hashId}/subscriber`, staff.cookie, { userHashIds: [stranger.user.hashId] })).toEqual({
        status: 400,
        body: { key: 'user_has_no_access', details: { hashIds: [stranger.user.hashId] } },
      });
      expect(await error('POST', `${admin}/${issue.hashId}/subscriber`, staff.cookie, { userHashIds: [] })).toMatchObject({
        status: 400,
        body: { key: 'payload_invalid' },
      });
      const removed = await ok<IssueView>('DELETE', `${admin}/${issue.hashId}/subscriber`, staff.cookie, { userHashIds: [reader.user.hashId] });
      expect(removed.subscribers.map((user) => user.hashId)).toEqual([staff.user.hashId]);

      const followed = await ok<IssueView>('PUT', `${customer}/${issue.hashId}/subscribe`, writer.cookie);
      // A customer sees the subscribers of their own organisation only.
      expect(followed.subscribers.map((user) => user.hashId)).toEqual([writer.user.hashId]);
      expect((await ok<IssueView>('GET', `${admin}/${issue.hashId}`, staff.cookie)).subscribers.map((user) => user.hashId)).toEqual([
        staff.user.hashId,
        writer.user.hashId,
      ]);
      const stopped = await ok<IssueView>('DELETE', `${customer}/${issue.hashId}/unsubscribe`, writer.cookie);
      expect(stopped.subscribers).toEqual([]);
      const internal = await buildIssue(t.services, { organizationHashId: ownerHashId, internal: true });
      expect(await error('POST', `${admin}/${internal.hashId}/subscriber`, staff.cookie, { userHashIds: [reader.user.hashId] })).toMatchObject({
        status: 400,
        body: { key: 'user_has_no_access' },
      });
      const diffs = (await auditRows(issue)).map((row: { diff: unknown[] }) => row.diff[0]);
      expect(diffs).toContainEqual({ type: 'link-many', name: 'subscribers', objectType: 'users', addedHashIds: [writer.user.hashId], removedHashIds: [] });
    });

    it('takes as subscriber or assignee a partner who sees the issue through a shared device, and refuses one who does not', async () => {
      const shared = (await buildDevice(t.services, { organizationHashId: ownerHashId, config: exampleDeviceConfig, isExposedToCustomer: true })).hashId;
      const partner = await anOrganization(t.services, { name: 'Assignable Partner BV' });
      await buildPartnership(t.services, { ownerOrganizationHashId: ownerHashId, partnerOrganizationHashId: partner.hashId, deviceHashIds: [shared] });
      const partnerUser = await buildUser(t.services, { rights: ['customer.write'], organizationHashId: partner.hashId });
      const ofShared = await buildIssue(t.services, { deviceHashId: shared });
      const ofOwner = await buildIssue(t.services, { organizationHashId: ownerHashId });
      expect((await ok<IssueView>('POST', `${admin}/${ofShared.hashId}/subscriber`, staff.cookie, { userHashIds: [partnerUser.hashId] })).subscribers).toEqual([
        { hashId: partnerUser.hashId, name: partnerUser.name, email: partnerUser.email },
      ]);
      expect(await ok<IssueView>('PUT', `${admin}/${ofShared.hashId}`, staff.cookie, { assignedUserHashId: partnerUser.hashId })).toMatchObject({
        assignedUser: { hashId: partnerUser.hashId },
      });
      expect(await error('POST', `${admin}/${ofOwner.hashId}/subscriber`, staff.cookie, { userHashIds: [partnerUser.hashId] })).toEqual({
        status: 400,
        body: { key: 'user_has_no_access', details: { hashIds: [partnerUser.hashId] } },
      });
      expect(await error('PUT', `${admin}/${ofOwner.hashId}`, staff.cookie, { assignedUserHashId: partnerUser.hashId })).toMatchObject({
        status: 400,
        body: { key: 'user_has_no_access' },
      });
    });

    it('counts and filters by assignee for customers: myOrganization, me, gridport and external', async () => {
      const organization = await anOrganization(t.services, { name: 'Counted BV' });
      const me = await buildSession(t.services, { rights: ['customer.write'], organizationHashId: organization.hashId });
      const colleague = await buildUser(t.services, { rights: ['customer.read'], organizationHashId: organization.hashId });
      const mine = await buildIssue(t.services, { organizationHashId: organization.hashId, assignedUserId: me.user.id });
      const theirs = await buildIssue(t.services, { organizationHashId: organization.hashId, assignedUserId: colleague.id });
      const provider = await buildIssue(t.services, { organizationHashId: organization.hashId, gridportIssueOwner: true, assignedUserId: staff.user.id });
      const external = await buildIssue(t.services, { organizationHashId: organization.hashId, assignedEmail: 'fixer@nowhere.example' });
      const known = await buildIssue(t.services, { organizationHashId: organization.hashId, assignedEmail: colleague.email });
      const closed = await buildIssue(t.services, { organizationHashId: organization.hashId, assignedUserId: me.user.id });
      await ok('PUT', `${admin}/${closed.hashId}/resolve`, staff.cookie, { silent: true });
      await buildIssue(t.services, { organizationHashId: organization.hashId, internal: true, assignedUserId: staff.user.id });

      const list = async (query: string) => (await ok<Page<IssueView>>('GET', `${customer}?${query}`, me.cookie)).rows.map((row) => row.hashId);
      expect(await list('')).toEqual([closed, known, external, provider, theirs, mine].map((issue) => issue.hashId));
      expect(await list('status=open')).toEqual([known, external, provider, theirs, mine].map((issue) => issue.hashId));
      expect(await list('status=resolved')).toEqual([closed.hashId]);
      expect(await list('assignee=me')).toEqual([closed.hashId, mine.hashId]);
      expect(await list('assignee=myOrganization')).toEqual([closed, theirs, mine].map((issue) => issue.hashId));
      expect(await list('assignee=gridport')).toEqual([provider.hashId]);
      expect(await list('assignee=external')).toEqual([external.hashId]);
      expect(await list('sortBy=createdAtAsc&status=open')).toEqual([mine, theirs, provider, external, known].map((issue) => issue.hashId));
      expect(await error('GET', `${customer}?assignee=${me.user.hashId}`, me.cookie)).toMatchObject({ status: 400, body: { key: 'query_invalid' } });
      expect(await error('GET', `${customer}?deviceHashId=${deviceHashId}`, me.cookie)).toMatchObject({ status: 400, body: { key: 'query_invalid' } });

      expect(await ok<IssueCountView>('GET', `${customer}/count`, me.cookie)).toEqual({ openCount: 5, assignedToMeCount: 1, assignedToMyOrganizationCount: 2 });
    });
  });
});
