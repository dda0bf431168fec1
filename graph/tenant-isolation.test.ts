import { isObjectType } from 'graphql';
import type { Actor } from './common/context';
import { systemActor } from './common/context';
import { anOrganization } from '../test-support/factories';
import { customerActor, testGraph, type TestGraph } from '../test-support/graphql';

/**
 * Tenant isolation over every root field of the composed graph: a customer of organisation B
 * (as a console user and as an API key) probes organisation A's rows through each field. Each
 * probe must be refused, or answer data in which nothing of A appears; afterwards A's rows are
 * as they were. A new root field fails this test until it has a probe.
 */
describe('tenant isolation in GraphQL', () => {
  let g: TestGraph;
  const a = { organizationHashId: '', organizationName: 'Victim Energy BV', userHashId: '', userEmail: 'victim.user@example.com', inviteHashId: '', inviteEmail: 'victim.invitee@example.com', apiKeyHashId: '', apiKeyName: 'Victim trading key' };
  let b: { id: number; hashId: string };
  let actors: { name: string; actor: Actor }[];

  beforeAll(async () => {
    g = await testGraph();
    const victim = await anOrganization(g.services, { name: a.organizationName });
    a.organizationHashId = victim.hashId;
    a.userHashId = (await g.services.users.create(systemActor('test'), { organizationHashId: victim.hashId, name: 'Victim User', email: a.userEmail, rights: ['customer.write'] })).hashId;
    const ops = { ...systemActor('test'), rights: ['gridport.ops' as const], userId: null };
    const [invite] = await g.services.userInvites.create(ops, { organizationHashId: victim.hashId, emails: [a.inviteEmail] });
    a.inviteHashId = invite?.hashId ?? '';
    a.apiKeyHashId = (await g.services.apiKeys.create(systemActor('test'), { organizationHashId: victim.hashId, name: a.apiKeyName, ipRanges: [], publicKey: null })).hashId;

    const prober = await anOrganization(g.services, { name: 'Prober BV' });
    b = { id: g.hashIds.decode('organization', prober.hashId) ?? 0, hashId: prober.hashId };
    actors = [
      { name: 'a console user of B', actor: customerActor(b.id, ['customer.read', 'customer.write']) },
      { name: 'an API key of B', actor: { kind: 'apiKey', userId: null, apiKeyId: 999, organizationId: b.id, rights: ['customer.write'], name: 'API key B' } },
    ];
  });

  afterAll(async () => {
    await g.close();
  });

  /** One probe per root field, aimed at A. */
  function probes(): Record<string, { query: string; variables?: Record<string, unknown> }> {
    return {
      apiKey: { query: 'query($h: ID!) { apiKey(hashId: $h) { hashId name } }', variables: { h: a.apiKeyHashId } },
      apiKeys: { query: 'query($o: String) { apiKeys(organizationHashId: $o) { rows { hashId name organizationName } } }', variables: { o: a.organizationHashId } },
      auditLog: { query: '{ auditLog { rows { objectHashId diff } } }' },
      me: { query: '{ me { name organization { hashId name } } }' },
      organization: { query: 'query($h: ID!) { organization(hashId: $h) { hashId name } }', variables: { h: a.organizationHashId } },
      organizations: { query: '{ organizations { rows { hashId name } } }' },
      user: { query: 'query($h: ID!) { user(hashId: $h) { hashId email } }', variables: { h: a.userHashId } },
      users: { query: 'query($o: String) { users(organizationHashId: $o) { rows { hashId email } } }', variables: { o: a.organizationHashId } },
      userInvites: { query: 'query($o: String) { userInvites(organizationHashId: $o) { rows { hashId email } } }', variables: { o: a.organizationHashId } },
      createApiKey: { query: 'mutation($o: ID!) { createApiKey(input: { organizationHashId: $o, name: "Stolen" }) { hashId apiKey } }', variables: { o: a.organizationHashId } },
      resetApiKey: { query: 'mutation($h: ID!) { resetApiKey(hashId: $h) { hashId apiKey } }', variables: { h: a.apiKeyHashId } },
      updateApiKey: { query: 'mutation($h: ID!) { updateApiKey(hashId: $h, input: { name: "Hijacked" }) }', variables: { h: a.apiKeyHashId } },
      deleteApiKey: { query: 'mutation($h: ID!) { deleteApiKey(hashId: $h) }', variables: { h: a.apiKeyHashId } },
      createOrganization: { query: 'mutation { createOrganization(input: { name: "Squatter", type: INSTALLER }) { hashId } }' },
      updateOrganization: { query: 'mutation($h: ID!) { updateOrganization(hashId: $h, input: { name: "Hijacked" }) { hashId name } }', variables: { h: a.organizationHashId } },
      login: { query: `mutation { login(input: { email: "${a.userEmail}", password: "not the password" }) { name } }` },
      logout: { query: 'mutation { logout }' },
      inviteUsers: { query: 'mutation($o: ID!) { inviteUsers(input: { organizationHashId: $o, emails: ["intruder@example.com"] }) { hashId } }', variables: { o: a.organizationHashId } },
      revokeUserInvite: { query: 'mutation($h: ID!) { revokeUserInvite(hashId: $h) }', variables: { h: a.inviteHashId } },
    };
  }

  it('has a probe for every root field of the graph', () => {
    const roots = [g.graphql.schema.getQueryType(), g.graphql.schema.getMutationType(), g.graphql.schema.getSubscriptionType()];
    const fields = roots.flatMap((root) => (root && isObjectType(root) ? Object.keys(root.getFields()) : []));
    expect(fields.filter((field) => !(field in probes()))).toEqual([]);
  });

  it('refuses each probe or answers nothing of A, for a console user and an API key of B', async () => {
    const markers = [a.organizationHashId, a.organizationName, a.userHashId, a.userEmail, a.inviteHashId, a.inviteEmail, a.apiKeyHashId, a.apiKeyName];
    const refusals = new Set(['forbidden', 'not_found', 'forbidden_organization', 'unauthorized', 'invalid_credentials']);
    for (const { name, actor } of actors) {
      for (const [field, probe] of Object.entries(probes())) {
        const result = await g.execute(actor, probe.query, probe.variables);
        const codes = (result.errors ?? []).map((error) => String(error.extensions?.code));
        const leaked = markers.filter((marker) => JSON.stringify(result.data ?? null).includes(marker));
        expect({ actor: name, field, leaked, unexpected: codes.filter((code) => !refusals.has(code)) }).toEqual({ actor: name, field, leaked: [], unexpected: [] });
      }
    }
  });

  it('leaves A as it was', async () => {
    const staff = { ...systemActor('test'), rights: ['gridport.admin' as const] };
    expect((await g.services.organizations.get(staff, a.organizationHashId)).name).toBe(a.organizationName);
    expect((await g.services.apiKeys.get({ ...staff, kind: 'user', userId: 1 }, a.apiKeyHashId)).name).toBe(a.apiKeyName);
    const invites = await g.services.userInvites.list(staff, { organizationHashId: a.organizationHashId, filter: '', rowsPerPage: 500 });
    expect(invites.rows.map((row) => row.email)).toEqual([a.inviteEmail]);
    const users = await g.services.users.list(staff, { organizationHashId: a.organizationHashId, filter: '', rowsPerPage: 500 });
    expect(users.rows.map((row) => row.email)).toEqual([a.userEmail]);
    const organizations = await g.services.organizations.list(staff, { filter: '', rowsPerPage: 500 });
    expect(organizations.rows.map((row) => row.name)).not.toContain('Squatter');
  });
});
