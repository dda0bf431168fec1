import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { testApp, type TestApp } from '../../test-support/app';
import { anOrganization, buildIssue, buildSession, type BuiltSession } from '../../test-support/factories';

interface Result<T = Record<string, unknown>> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string; details?: unknown } }[];
}

interface TimelineItem {
  kind: string;
  cursor: string;
  message: { message: string; isInternal: boolean; user: { hashId: string } | null } | null;
  auditEntry: { changeType: string } | null;
}

const timelineFields = 'kind cursor message { message isInternal user { hashId } } auditEntry { changeType }';

/** Issues over GraphQL under the rules of REST, and an issue's timeline live over graphql-ws. */
describe('issues over GraphQL', () => {
  let t: TestApp;
  let wsUrl: string;
  let ownerHashId: string;
  let staff: BuiltSession;
  let customer: BuiltSession;
  let stranger: BuiltSession;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await testApp({}, { graphql: true });
    wsUrl = `${(await t.listen()).replace('http', 'ws')}/graphql`;
    ownerHashId = (await anOrganization(t.services, { name: 'Graph Issues BV' })).hashId;
    const otherHashId = (await anOrganization(t.services, { name: 'Graph Other BV' })).hashId;
    staff = await buildSession(t.services, { rights: ['gridport.employee'], name: 'Gina Staff' });
    customer = await buildSession(t.services, { rights: ['customer.write'], organizationHashId: ownerHashId });
    stranger = await buildSession(t.services, { rights: ['customer.write'], organizationHashId: otherHashId });
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await t.close();
  });

  async function gql<T = Record<string, unknown>>(who: BuiltSession, query: string, variables: Record<string, unknown> = {}): Promise<Result<T>> {
    const response = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { cookie: who.cookie, 'content-type': 'application/json' },
      payload: { query, variables },
    });
    return response.json() as Result<T>;
  }

  const codes = (result: Result) => result.errors?.map((error) => error.extensions?.code);

  function client(who: BuiltSession): Client {
    class WithCookie extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers: { cookie: who.cookie } });
      }
    }
    const created = createClient({ url: wsUrl, webSocketImpl: WithCookie, retryAttempts: 0, lazy: true });
    clients.push(created);
    return created;
  }

  /** Subscribes and collects results until `count` came, or an error ended the subscription. */
  function collect(who: BuiltSession, query: string, count: number): Promise<Result<{ issueTimeline: TimelineItem }>[]> {
    return new Promise((resolve) => {
      const results: Result<{ issueTimeline: TimelineItem }>[] = [];
      const stop = client(who).subscribe(
        { query },
        {
          next: (value) => {
            results.push(value as Result<{ issueTimeline: TimelineItem }>);
            if (results.length >= count || value.errors) {
              stop();
              resolve(results);
            }
          },
          error: (error) => resolve([...results, { errors: Array.isArray(error) ? (error as Result['errors']) : [{ message: String(error) }] }]),
          complete: () => resolve(results),
        },
      );
    });
  }

  it('lists, reads and counts issues with the rules of REST: staff filters, customer filters, not_found for what a customer may not see', async () => {
    const own = await buildIssue(t.services, { organizationHashId: ownerHashId, gridportIssueOwner: true });
    const internal = await buildIssue(t.services, { organizationHashId: ownerHashId, internal: true });
    const staffList = await gql<{ issues: { rows: { hashId: string }[] } }>(
      staff,
      '{ issues(owner: GRIDPORT, status: OPEN, sortBy: CREATED_AT_ASC, rowsPerPage: 500) { rows { hashId } nextPageOffset } }',
    );
    expect(staffList.data?.issues.rows.map((row) => row.hashId)).toContain(own.hashId);
    const customerList = await gql<{ issues: { rows: { hashId: string }[] } }>(customer, '{ issues(assignee: "gridport") { rows { hashId } } }');
    expect(customerList.data?.issues.rows.map((row) => row.hashId)).toEqual([own.hashId]);
    expect(codes(await gql(customer, '{ issues(owner: GRIDPORT) { rows { hashId } } }'))).toEqual(['query_invalid']);
    expect(codes(await gql(staff, '{ issues(offset: "nope") { rows { hashId } } }'))).toEqual(['invalid_offset']);

    const read = await gql<{ issue: { title: string; organization: { name: string }; status: string } }>(
      customer,
      `{ issue(hashId: "${own.hashId}") { title status organization { name } } }`,
    );
    expect(read.data?.issue).toEqual({ title: own.title, status: 'OPEN', organization: { name: 'Graph Issues BV' } });
    expect(codes(await gql(customer, `{ issue(hashId: "${internal.hashId}") { title } }`))).toEqual(['not_found']);
    expect(codes(await gql(stranger, `{ issue(hashId: "${own.hashId}") { title } }`))).toEqual(['not_found']);
    expect(
      (await gql<{ issueCount: unknown }>(customer, '{ issueCount { openCount assignedToMeCount assignedToMyOrganizationCount } }')).data?.issueCount,
    ).toEqual({
      openCount: 1,
      assignedToMeCount: 0,
      assignedToMyOrganizationCount: 0,
    });
    expect(codes(await gql(customer, `mutation { resolveIssue(hashId: "${own.hashId}") { hashId } }`))).toEqual(['forbidden']);
  });

  it('updates, resolves and reopens, posts and edits messages, and manages subscribers, with the catalogue keys of REST', async () => {
    const issue = await buildIssue(t.services, { organizationHashId: ownerHashId });
    const updated = await gql<{ updateIssue: { title: string; assignedUser: { hashId: string }; nextActivityDueAt: string } }>(
      staff,
      'mutation($hashId: ID!, $input: IssueUpdateInput!) { updateIssue(hashId: $hashId, input: $input) { title assignedUser { hashId } nextActivityDueAt } }',
      { hashId: issue.hashId, input: { title: 'Meter silent', assignedUserHashId: staff.user.hashId, nextActivityDueAt: '2030-02-01T00:00:00.000Z' } },
    );
    expect(updated.data?.updateIssue).toEqual({
      title: 'Meter silent',
      assignedUser: { hashId: staff.user.hashId },
      nextActivityDueAt: '2030-02-01T00:00:00.000Z',
    });
    const cleared = await gql<{ updateIssue: { assignedUser: null } }>(
      staff,
      'mutation($hashId: ID!) { updateIssue(hashId: $hashId, input: { assignedUserHashId: null }) { assignedUser { hashId } } }',
      { hashId: issue.hashId },
    );
    expect(cleared.data?.updateIssue.assignedUser).toBeNull();
    const internal = await buildIssue(t.services, { organizationHashId: ownerHashId, internal: true });
    expect(
      codes(
        await gql(staff, 'mutation($hashId: ID!, $user: ID!) { updateIssue(hashId: $hashId, input: { assignedUserHashId: $user }) { hashId } }', {
          hashId: internal.hashId,
          user: customer.user.hashId,
        }),
      ),
    ).toEqual(['internal_issue_external_assignee']);

    expect(
      (await gql<{ resolveIssue: { status: string } }>(staff, `mutation { resolveIssue(hashId: "${issue.hashId}", silent: true) { status } }`)).data
        ?.resolveIssue,
    ).toEqual({
      status: 'RESOLVED',
    });
    expect(codes(await gql(staff, `mutation { resolveIssue(hashId: "${issue.hashId}") { status } }`))).toEqual(['already_resolved']);
    expect((await gql<{ reopenIssue: { status: string } }>(staff, `mutation { reopenIssue(hashId: "${issue.hashId}") { status } }`)).data?.reopenIssue).toEqual(
      {
        status: 'OPEN',
      },
    );
    expect(codes(await gql(staff, `mutation { reopenIssue(hashId: "${issue.hashId}") { status } }`))).toEqual(['already_open']);

    const note = await gql<{ addIssueMessage: { hashId: string; isInternal: boolean } }>(
      staff,
      'mutation($input: IssueMessageInput!) { addIssueMessage(input: $input) { hashId isInternal } }',
      { input: { issueHashId: issue.hashId, message: 'Internal note', isInternal: true } },
    );
    expect(note.data?.addIssueMessage.isInternal).toBe(true);
    const edited = await gql<{ updateIssueMessage: { message: string } }>(
      staff,
      'mutation($hashId: ID!) { updateIssueMessage(hashId: $hashId, message: "Internal note, edited") { message } }',
      { hashId: note.data?.addIssueMessage.hashId },
    );
    expect(edited.data?.updateIssueMessage.message).toBe('Internal note, edited');
    const reply = await gql<{ addIssueMessage: { hashId: string; source: string; user: { hashId: string } } }>(
      customer,
      'mutation($input: IssueMessageInput!) { addIssueMessage(input: $input) { hashId source user { hashId } } }',
      { input: { issueHashId: issue.hashId, message: 'Any news?' } },
    );
    expect(reply.data?.addIssueMessage).toMatchObject({ source: 'USER', user: { hashId: customer.user.hashId } });
    expect(codes(await gql(staff, `mutation { updateIssueMessage(hashId: "${reply.data?.addIssueMessage.hashId ?? ''}", message: "No") { hashId } }`))).toEqual(
      ['only_internal_message_updates'],
    );
    expect(
      codes(
        await gql(customer, 'mutation($input: IssueMessageInput!) { addIssueMessage(input: $input) { hashId } }', {
          input: { issueHashId: issue.hashId, message: 'x', isInternal: true },
        }),
      ),
    ).toEqual(['payload_invalid']);
    expect(
      codes(
        await gql(staff, 'mutation($input: IssueMessageInput!) { addIssueMessage(input: $input) { hashId } }', {
          input: {
            issueHashId: issue.hashId,
            message: 'Files',
            fileIdentifiers: Array.from({ length: 11 }, (_, index) => `00000000-0000-4000-8000-0000000000${String(index).padStart(2, '0')}`),
          },
        }),
      ),
    ).toEqual(['too_many_files']);
    expect(
      codes(
        await gql(staff, 'mutation($input: IssueMessageInput!) { addIssueMessage(input: $input) { hashId } }', {
          input: { issueHashId: issue.hashId, message: 'Files', fileIdentifiers: ['00000000-0000-4000-8000-000000000000'] },
        }),
      ),
    ).toEqual(['no_temp_file_found']);

    const timeline = await gql<{ issueTimeline: { rows: TimelineItem[] } }>(
      customer,
      `{ issueTimeline(hashId: "${issue.hashId}") { rows { ${timelineFields} } } }`,
    );
    expect(timeline.data?.issueTimeline.rows.filter((row) => row.kind === 'MESSAGE').map((row) => row.message?.message)).toEqual([
      'Reopened by Gina Staff.',
      'Any news?',
    ]);

    const subscribed = await gql<{ subscribeToIssue: { subscribers: { hashId: string }[] } }>(
      customer,
      `mutation { subscribeToIssue(hashId: "${issue.hashId}") { subscribers { hashId } } }`,
    );
    expect(subscribed.data?.subscribeToIssue.subscribers).toEqual([{ hashId: customer.user.hashId }]);
    const unsubscribed = await gql<{ unsubscribeFromIssue: { subscribers: unknown[] } }>(
      customer,
      `mutation { unsubscribeFromIssue(hashId: "${issue.hashId}") { subscribers { hashId } } }`,
    );
    expect(unsubscribed.data?.unsubscribeFromIssue.subscribers).toEqual([]);
    const added = await gql<{ addIssueSubscribers: { subscribers: { hashId: string }[] } }>(
      staff,
      'mutation($hashId: ID!, $users: [ID!]!) { addIssueSubscribers(hashId: $hashId, userHashIds: $users) { subscribers { hashId } } }',
      { hashId: issue.hashId, users: [staff.user.hashId, customer.user.hashId] },
    );
    expect(added.data?.addIssueSubscribers.subscribers.map((user) => user.hashId)).toEqual([staff.user.hashId, customer.user.hashId]);
    expect(
      codes(
        await gql(staff, 'mutation($hashId: ID!, $users: [ID!]!) { addIssueSubscribers(hashId: $hashId, userHashIds: $users) { hashId } }', {
          hashId: issue.hashId,
          users: [stranger.user.hashId],
        }),
      ),
    ).toEqual(['user_has_no_access']);
    const removed = await gql<{ removeIssueSubscribers: { subscribers: { hashId: string }[] } }>(
      staff,
      'mutation($hashId: ID!, $users: [ID!]!) { removeIssueSubscribers(hashId: $hashId, userHashIds: $users) { subscribers { hashId } } }',
      { hashId: issue.hashId, users: [customer.user.hashId] },
    );
    expect(removed.data?.removeIssueSubscribers.subscribers).toEqual([{ hashId: staff.user.hashId }]);
  });

  it('pushes a posted message to the live timeline over graphql-ws: staff get internal messages too, customers only the others, strangers not_found', async () => {
    const issue = await buildIssue(t.services, { organizationHashId: ownerHashId });
    const before = await gql<{ issueTimeline: { rows: TimelineItem[] } }>(customer, `{ issueTimeline(hashId: "${issue.hashId}") { rows { cursor } } }`);
    const after = before.data?.issueTimeline.rows.at(-1)?.cursor ?? '';
    expect(after).not.toBe('');

    // Subscribed from the last item read, neither stream can miss what is posted however soon it comes.
    const staffItems = collect(staff, `subscription { issueTimeline(hashId: "${issue.hashId}", after: "${after}") { ${timelineFields} } }`, 2);
    const customerItems = collect(customer, `subscription { issueTimeline(hashId: "${issue.hashId}", after: "${after}") { ${timelineFields} } }`, 1);
    const strangerItems = collect(stranger, `subscription { issueTimeline(hashId: "${issue.hashId}") { kind } }`, 1);

    await gql(staff, 'mutation($input: IssueMessageInput!) { addIssueMessage(input: $input) { hashId } }', {
      input: { issueHashId: issue.hashId, message: 'Only for staff', isInternal: true },
    });
    await gql(customer, 'mutation($input: IssueMessageInput!) { addIssueMessage(input: $input) { hashId } }', {
      input: { issueHashId: issue.hashId, message: 'The inverter is back' },
    });

    const seenByStaff = (await staffItems).map((result) => result.data?.issueTimeline.message);
    expect(seenByStaff).toEqual([
      { message: 'Only for staff', isInternal: true, user: { hashId: staff.user.hashId } },
      { message: 'The inverter is back', isInternal: false, user: { hashId: customer.user.hashId } },
    ]);
    const seenByCustomer = (await customerItems).map((result) => result.data?.issueTimeline);
    expect(seenByCustomer).toEqual([
      {
        kind: 'MESSAGE',
        cursor: expect.any(String) as string,
        message: { message: 'The inverter is back', isInternal: false, user: { hashId: customer.user.hashId } },
        auditEntry: null,
      },
    ]);
    expect((await strangerItems)[0]?.errors?.[0]?.extensions?.code).toBe('not_found');
  });

  it('pushes what is written after a subscription without a cursor began', async () => {
    const issue = await buildIssue(t.services, { organizationHashId: ownerHashId });
    const items = collect(staff, `subscription { issueTimeline(hashId: "${issue.hashId}") { ${timelineFields} } }`, 2);
    // The subscription starts on its own time: keep resolving and reopening until it has heard two changes.
    let resolved = false;
    let done = false;
    const writes = (async () => {
      for (let round = 0; round < 200; round += 1) {
        const mutation = resolved ? 'reopenIssue' : 'resolveIssue';
        await gql(staff, `mutation { ${mutation}(hashId: "${issue.hashId}", silent: true) { hashId } }`);
        resolved = !resolved;
        if (done) {
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const received = await items;
    done = true;
    await writes;
    expect(received.map((result) => result.data?.issueTimeline.auditEntry?.changeType)).toEqual(['CONTROLLER_UPDATE', 'CONTROLLER_UPDATE']);
  });
});
