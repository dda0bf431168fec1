import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { providerOrganizationId } from '../../contracts/limits';
import { systemActor } from '../../graph/common/context';
import { HashIds } from '../../graph/common/hash-ids';
import { createServices, type Services } from '../../graph/services';
import { generateSigningKeyPair, readAuthnRequest } from '../../graph/identity/services/dev-identity-provider';
import { defaultSamlSettings, samlPaths, type SamlSettings } from '../../graph/identity/services/saml.service';
import { testApp, testSecrets, captureLogs, type TestApp } from '../../test-support/app';
import { buildApp } from '../app';
import { databaseAnswers, openDatabase, type OpenDatabase } from '../database';

/**
 * Staff sign-in behind a load balancer (issue 14, item 10): two app instances on one database,
 * each with its own services and its own connections. A sign-in started on one node finishes
 * on the other, and its response is taken once, on whichever node it is posted to.
 */
describe('staff sign-in with SAML on two nodes', () => {
  let first: TestApp;
  let second: { app: FastifyInstance; services: Services; database: OpenDatabase | null };
  let folder: string;
  let users = 0;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-saml-nodes-'));
    const keyFile = path.join(folder, 'dev-identity-provider.json');
    writeFileSync(keyFile, JSON.stringify(await generateSigningKeyPair()));
    const saml: SamlSettings = { ...defaultSamlSettings, devIdentityProviderKeyFile: keyFile };
    first = await testApp({ saml });
    // The second node's own pool on the first node's schema (PGlite is one connection per worker, so shared there).
    const url = process.env.DATABASE_URL || null;
    const database = url ? openDatabase({ url, schema: first.database.schema, poolMax: 4 }) : null;
    const db = database?.db ?? first.database.db;
    const services = createServices({
      db,
      hashIds: new HashIds(testSecrets.hashIdSecret),
      sessionSecret: testSecrets.sessionSecret,
      encryptionKey: testSecrets.encryptionKey,
    });
    const app = await buildApp({ services, log: captureLogs().log, version: 'test', databaseAnswers: () => databaseAnswers(db), saml });
    second = { app, services, database };
  });

  afterAll(async () => {
    await second.app.close();
    second.services.mail.close();
    await second.database?.db.destroy();
    await first.close();
    rmSync(folder, { recursive: true, force: true });
  });

  async function staff(): Promise<string> {
    users += 1;
    const email = `two-nodes-${users}-${Date.now()}@example.com`;
    await first.services.users.create(systemActor('test'), {
      organizationHashId: first.hashIds.encode('organization', providerOrganizationId),
      name: `Staff ${users}`,
      email,
      rights: ['gridport.ops'],
    });
    return email;
  }

  /** GET /saml2/login on `node`: the development identity provider's location, with the AuthnRequest's id. */
  async function startOn(node: FastifyInstance): Promise<{ location: string; requestId: string }> {
    const response = await node.inject({ method: 'GET', url: `${samlPaths.login}?relayState=${encodeURIComponent('/admin/users')}` });
    expect(response.statusCode).toBe(302);
    const location = new URL(String(response.headers.location));
    return { location: `${location.pathname}${location.search}`, requestId: readAuthnRequest(location.searchParams.get('SAMLRequest') ?? '').id };
  }

  /** The fields the development identity provider's form posts back, for `email`. */
  async function identityProvider(node: FastifyInstance, location: string, email: string): Promise<Record<string, string>> {
    const response = await node.inject({ method: 'GET', url: `${location}&email=${encodeURIComponent(email)}` });
    expect(response.statusCode).toBe(200);
    const field = (name: string) =>
      (new RegExp(`name="${name}" value="([^"]*)"`).exec(response.body)?.[1] ?? '')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
    return { SAMLResponse: field('SAMLResponse'), RelayState: field('RelayState') };
  }

  function finishOn(node: FastifyInstance, fields: Record<string, string>) {
    return node.inject({
      method: 'POST',
      url: samlPaths.acs,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
  }

  it('starts on one node, finishes on the other, and refuses the same response again on either', async () => {
    const email = await staff();
    const { location, requestId } = await startOn(first.app);
    expect(await first.database.db('saml_requests').where('id', requestId).first()).toMatchObject({ id: requestId });
    const fields = await identityProvider(second.app, location, email);

    const finished = await finishOn(second.app, fields);
    expect(finished.statusCode).toBe(303);
    expect(finished.headers.location).toBe('/admin/users');
    const cookie = String(finished.headers['set-cookie']).split(';')[0] ?? '';
    const whoami = await first.app.inject({ method: 'GET', url: '/console-shared/v1/authentication/whoami', headers: { cookie } });
    expect(whoami.json().user).toMatchObject({ email });
    expect(await first.database.db('saml_requests').where('id', requestId).first()).toBeUndefined();

    for (const node of [first.app, second.app]) {
      const replay = await finishOn(node, fields);
      expect({ status: replay.statusCode, body: replay.json(), cookie: replay.headers['set-cookie'] }).toEqual({
        status: 401,
        body: { key: 'saml2_post_validation_failed', details: { reason: 'InResponseTo is not valid' } },
        cookie: undefined,
      });
    }
  });

  it('lets one of two posts of one response, sent to both nodes at once, sign in', async () => {
    const email = await staff();
    for (let round = 0; round < 5; round += 1) {
      const { location } = await startOn(second.app);
      const fields = await identityProvider(first.app, location, email);
      const answers = await Promise.all([finishOn(first.app, fields), finishOn(second.app, fields), finishOn(first.app, fields), finishOn(second.app, fields)]);
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect({ round, statuses }).toEqual({ round, statuses: [303, 401, 401, 401] });
    }
  });

  it('refuses a response to a request made more than ten minutes ago, on the other node too', async () => {
    const email = await staff();
    const { location, requestId } = await startOn(first.app);
    const fields = await identityProvider(first.app, location, email);
    await first.database
      .db('saml_requests')
      .where('id', requestId)
      .update({ created_at: new Date(Date.now() - 11 * 60_000) });
    const late = await finishOn(second.app, fields);
    expect({ status: late.statusCode, body: late.json() }).toEqual({
      status: 401,
      body: { key: 'saml2_post_validation_failed', details: { reason: 'InResponseTo is not valid' } },
    });
  });
});
