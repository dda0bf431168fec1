import type { LightMyRequestResponse } from 'fastify';
import { systemActor } from '../graph/common/context';
import { sessionCookieName } from '../graph/identity/services/session.service';
import { testApp, type TestApp } from '../test-support/app';
import { anOrganization } from '../test-support/factories';

interface GraphqlAnswer<T> {
  data?: T | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: { code?: string; details?: unknown } }[];
}

/** Sign-in, invites and API-key writes through POST /graphql on the real HTTP app: cookies, throttle and rights as over REST. */
describe('identity over HTTP GraphQL', () => {
  let t: TestApp;
  let customerHashId: string;
  let otherHashId: string;
  const password = 'a long enough password';

  beforeAll(async () => {
    t = await testApp({}, { graphql: true });
    customerHashId = (await anOrganization(t.services, { name: 'Graph Solar BV', type: 'asset-owner' })).hashId;
    otherHashId = (await anOrganization(t.services, { name: 'Someone Else BV', type: 'installer' })).hashId;
  });

  afterAll(async () => {
    await t.close();
  });

  async function post<T>(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') {
    const response = await t.app.inject({ method: 'POST', url: '/graphql', remoteAddress, headers, payload: { query, variables } });
    return { response, body: response.json() as GraphqlAnswer<T> };
  }

  function cookieOf(response: LightMyRequestResponse): string {
    return String(response.headers['set-cookie']).split(';')[0] ?? '';
  }

  async function customer(email: string): Promise<void> {
    await t.services.users.create(systemActor('test'), {
      organizationHashId: customerHashId,
      name: 'Graph Person',
      email,
      rights: ['customer.write'],
      password,
    });
  }

  it('login sets the same session cookie as REST; me follows it; logout ends it', async () => {
    await customer('graph.login@example.com');
    const { response, body } = await post<{ login: { kind: string; name: string; organization: { hashId: string } } }>(
      'mutation Login($input: LoginInput!) { login(input: $input) { kind name organization { hashId } } }',
      { input: { email: ' Graph.Login@example.com ', password } },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data?.login).toEqual({ kind: 'USER', name: 'Graph Person', organization: { hashId: customerHashId } });
    expect(String(response.headers['set-cookie'])).toMatch(
      new RegExp(`^${sessionCookieName}=[\\w-]+\\.[\\w-]+\\.[\\w-]+; Path=/; Expires=.+; HttpOnly; SameSite=Lax$`),
    );
    const cookie = cookieOf(response);

    const me = await post<{ me: { name: string } }>('{ me { name } }', {}, { cookie });
    expect(me.body.data?.me).toEqual({ name: 'Graph Person' });

    const out = await post<{ logout: boolean }>('mutation { logout }', {}, { cookie });
    expect(out.body.data?.logout).toBe(true);
    expect(String(out.response.headers['set-cookie'])).toContain('Expires=Thu, 01 Jan 1970');
    const after = await post('{ me { name } }', {}, { cookie });
    expect(after.response.statusCode).toBe(401);
  });

  it('lets no alias go uncounted: a failed login ends the request, and the sixth failure locks the email for REST and GraphQL alike', async () => {
    await customer('graph.brute@example.com');
    const attempts = (from: number) =>
      Array.from({ length: 8 }, (_, index) => `a${index}: login(input: { email: "graph.brute@example.com", password: "guess ${from + index}" }) { name }`).join(
        '\n',
      );
    const counted = async () =>
      Number((await t.database.db('login_attempts').where('email', 'graph.brute@example.com').count<{ count: string }[]>('* as count'))[0]?.count);
    // login is non-null and mutations run in order: the first failure stops the rest, and it is counted.
    const first = await post(`mutation { ${attempts(0)} }`, {}, {}, '10.9.0.1');
    expect(first.body.errors?.map((error) => [error.path?.[0], error.extensions?.code])).toEqual([['a0', 'invalid_credentials']]);
    expect(await counted()).toBe(1);
    for (let request = 1; request < 6; request += 1) {
      const next = await post(`mutation { ${attempts(request * 8)} }`, {}, {}, `10.9.0.${request + 1}`);
      expect(next.body.errors?.map((error) => error.extensions?.code)).toEqual(['invalid_credentials']);
    }
    expect(await counted()).toBe(6);
    const locked = await post(`mutation { login(input: { email: "graph.brute@example.com", password: "${password}" }) { name } }`, {}, {}, '10.9.0.20');
    expect(locked.body.errors?.map((error) => error.extensions?.code)).toEqual(['too_many_failed_attempts']);
    const rest = await t.app.inject({
      method: 'POST',
      url: '/console-shared/v1/login',
      remoteAddress: '10.9.0.21',
      payload: { email: 'graph.brute@example.com', password },
    });
    expect(rest.json()).toEqual({ key: 'too_many_failed_attempts' });
  });

  it('refuses batched requests outright, so a batch cannot multiply attempts either', async () => {
    const one = { query: 'mutation { login(input: { email: "x@example.com", password: "y" }) { name } }' };
    const response = await t.app.inject({ method: 'POST', url: '/graphql', payload: [one, one, one] });
    expect(response.statusCode).toBe(400);
    const logins = await t.database.db('login_attempts').where('email', 'x@example.com').count<{ count: string }[]>('* as count');
    expect(Number(logins[0]?.count)).toBe(0);
  });

  it('refuses a login input that breaks the rules with payload_invalid and the issues', async () => {
    const { body } = await post('mutation { login(input: { email: "not an email", password: "x" }) { name } }');
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'payload_invalid', details: [{ path: 'email', message: 'Invalid email (RFC 5322)' }] });
  });

  it('invites: Ops invite and revoke; customers list only their own; naming another organisation is forbidden_organization', async () => {
    const ops = await t.signIn(['gridport.ops']);
    const invited = await post<{ inviteUsers: { hashId: string; email: string; rights: string[]; organization: { name: string } }[] }>(
      'mutation Invite($input: UserInviteInput!) { inviteUsers(input: $input) { hashId email rights expiresAt organization { name } } }',
      { input: { organizationHashId: customerHashId, emails: ['graph.invitee@example.com'] } },
      { cookie: ops },
    );
    expect(invited.body.errors).toBeUndefined();
    const [invite] = invited.body.data?.inviteUsers ?? [];
    expect(invite).toMatchObject({ email: 'graph.invitee@example.com', rights: ['CUSTOMER_READ'], organization: { name: 'Graph Solar BV' } });

    const again = await post(
      'mutation { inviteUsers(input: { organizationHashId: "' + customerHashId + '", emails: ["graph.invitee@example.com"] }) { hashId } }',
      {},
      { cookie: ops },
    );
    expect(again.body.errors?.[0]?.extensions).toEqual({ code: 'has_invite', details: { emails: ['graph.invitee@example.com'] } });
    const tooMany = await post(
      'mutation I($e: [String!]!) { inviteUsers(input: { organizationHashId: "' + customerHashId + '", emails: $e }) { hashId } }',
      { e: Array.from({ length: 21 }, (_, i) => `n${i}@example.com`) },
      { cookie: ops },
    );
    expect(tooMany.body.errors?.[0]?.extensions?.code).toBe('payload_invalid');

    const employee = await t.signIn(['gridport.employee']);
    const notOps = await post(
      'mutation { inviteUsers(input: { organizationHashId: "' + customerHashId + '", emails: ["e@example.com"] }) { hashId } }',
      {},
      { cookie: employee },
    );
    expect(notOps.body.errors?.[0]?.extensions?.code).toBe('forbidden');

    const own = await t.signIn(['customer.read'], customerHashId);
    const list = await post<{ userInvites: { rows: { email: string }[] } }>('{ userInvites { rows { email } } }', {}, { cookie: own });
    expect(list.body.data?.userInvites.rows.map((row) => row.email)).toEqual(['graph.invitee@example.com']);
    const stranger = await t.signIn(['customer.write'], otherHashId);
    const strangers = await post<{ userInvites: { rows: unknown[] } }>('{ userInvites { rows { email } } }', {}, { cookie: stranger });
    expect(strangers.body.data?.userInvites.rows).toEqual([]);
    const naming = await post('query L($o: String) { userInvites(organizationHashId: $o) { rows { email } } }', { o: customerHashId }, { cookie: stranger });
    expect(naming.body.errors?.[0]?.extensions).toEqual({ code: 'forbidden_organization', details: { organizationHashId: customerHashId } });

    const revokeByCustomer = await post('mutation R($h: ID!) { revokeUserInvite(hashId: $h) }', { h: invite?.hashId }, { cookie: own });
    expect(revokeByCustomer.body.errors?.[0]?.extensions?.code).toBe('forbidden');
    const revoked = await post<{ revokeUserInvite: boolean }>('mutation R($h: ID!) { revokeUserInvite(hashId: $h) }', { h: invite?.hashId }, { cookie: ops });
    expect(revoked.body.data?.revokeUserInvite).toBe(true);
    const gone = await post<{ userInvites: { rows: unknown[] } }>('{ userInvites { rows { email } } }', {}, { cookie: own });
    expect(gone.body.data?.userInvites.rows).toEqual([]);
  });

  it('API keys: a developer creates, resets, updates and deletes; the secret authenticates; employees and customers may not write', async () => {
    const developer = await t.signIn(['gridport.developer']);
    const created = await post<{ createApiKey: { hashId: string; apiKey: string } }>(
      'mutation C($input: ApiKeyCreateInput!) { createApiKey(input: $input) { hashId apiKey } }',
      { input: { organizationHashId: customerHashId, name: 'Graph key', ipRanges: ['10.0.0.0/8'] } },
      { cookie: developer },
    );
    expect(created.body.errors).toBeUndefined();
    const { hashId, apiKey } = created.body.data?.createApiKey ?? { hashId: '', apiKey: '' };
    const asKey = await post<{ me: { kind: string } }>('{ me { kind } }', {}, { authorization: `Bearer ${apiKey}` }, '10.1.2.3');
    expect(asKey.body.data?.me).toEqual({ kind: 'API_KEY' });

    const reset = await post<{ resetApiKey: { hashId: string; apiKey: string } }>(
      'mutation R($h: ID!) { resetApiKey(hashId: $h) { hashId apiKey } }',
      { h: hashId },
      { cookie: developer },
    );
    expect(reset.body.data?.resetApiKey.hashId).toBe(hashId);
    expect(reset.body.data?.resetApiKey.apiKey).not.toBe(apiKey);
    const oldSecret = await post('{ me { kind } }', {}, { authorization: `Bearer ${apiKey}` }, '10.1.2.3');
    expect(oldSecret.response.statusCode).toBe(401);
    expect(oldSecret.body.errors?.[0]?.extensions).toEqual({ code: 'unauthorized' });

    const badRange = await post('mutation U($h: ID!) { updateApiKey(hashId: $h, input: { ipRanges: ["10.0.0.0/33"] }) }', { h: hashId }, { cookie: developer });
    expect(badRange.body.errors?.[0]?.extensions?.code).toBe('payload_invalid');
    const updated = await post<{ updateApiKey: boolean }>(
      'mutation U($h: ID!) { updateApiKey(hashId: $h, input: { name: "Renamed key" }) }',
      { h: hashId },
      { cookie: developer },
    );
    expect(updated.body.data?.updateApiKey).toBe(true);
    const seen = await post<{ apiKey: { name: string; ipRanges: string[] } }>(
      'query G($h: ID!) { apiKey(hashId: $h) { name ipRanges } }',
      { h: hashId },
      { cookie: developer },
    );
    expect(seen.body.data?.apiKey).toEqual({ name: 'Renamed key', ipRanges: ['10.0.0.0/8'] });

    const employee = await t.signIn(['gridport.employee']);
    const customerUser = await t.signIn(['customer.write'], customerHashId);
    for (const cookie of [employee, customerUser]) {
      const refused = await post('mutation D($h: ID!) { deleteApiKey(hashId: $h) }', { h: hashId }, { cookie });
      expect(refused.body.errors?.[0]?.extensions?.code).toBe('forbidden');
    }
    const deleted = await post<{ deleteApiKey: boolean }>('mutation D($h: ID!) { deleteApiKey(hashId: $h) }', { h: hashId }, { cookie: developer });
    expect(deleted.body.data?.deleteApiKey).toBe(true);
    const missing = await post('query G($h: ID!) { apiKey(hashId: $h) { name } }', { h: hashId }, { cookie: developer });
    expect(missing.body.errors?.[0]?.extensions?.code).toBe('not_found');
  });
});
