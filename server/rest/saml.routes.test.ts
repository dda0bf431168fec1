import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DOMParser, XMLSerializer, type Element } from '@xmldom/xmldom';
import type { Right } from '../../contracts/rights';
import { providerOrganizationId } from '../../contracts/limits';
import { organizationCreateSchema } from '../../contracts/organization';
import { validate } from '../../contracts/validation';
import { systemActor } from '../../graph/common/context';
import {
  devIdentityProviderIssuer,
  generateSigningKeyPair,
  readAuthnRequest,
  samlResponseXml,
  signAssertion,
  type SigningKeyPair,
} from '../../graph/identity/services/dev-identity-provider';
import { defaultSamlSettings, samlPaths } from '../../graph/identity/services/saml.service';
import { sessionCookieName } from '../../graph/identity/services/session.service';
import { testApp, type TestApp } from '../../test-support/app';

const assertionNs = 'urn:oasis:names:tc:SAML:2.0:assertion';
const protocolNs = 'urn:oasis:names:tc:SAML:2.0:protocol';

describe('staff sign-in with SAML', () => {
  let t: TestApp;
  let folder: string;
  let devKeys: SigningKeyPair;
  let otherKeys: SigningKeyPair;
  let users = 0;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-saml-'));
    [devKeys, otherKeys] = await Promise.all([generateSigningKeyPair(), generateSigningKeyPair('Someone else')]);
    const keyFile = path.join(folder, 'dev-identity-provider.json');
    writeFileSync(keyFile, JSON.stringify(devKeys));
    t = await testApp({ saml: { ...defaultSamlSettings, devIdentityProviderKeyFile: keyFile } });
  });

  afterAll(async () => {
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  async function user(rights: Right[], organizationHashId = t.hashIds.encode('organization', providerOrganizationId)): Promise<string> {
    users += 1;
    const email = `saml${users}-${Date.now()}@example.com`;
    await t.services.users.create(systemActor('test'), { organizationHashId, name: `SAML ${users}`, email, rights });
    return email;
  }

  /** GET /saml2/login: the redirect to the identity provider, as a path and query on this app. */
  async function login(relayState?: string): Promise<{ location: string; requestId: string; acs: string }> {
    const query = relayState === undefined ? '' : `?relayState=${encodeURIComponent(relayState)}`;
    const response = await t.app.inject({ method: 'GET', url: `${samlPaths.login}${query}` });
    expect(response.statusCode).toBe(302);
    const location = new URL(String(response.headers.location));
    const request = readAuthnRequest(location.searchParams.get('SAMLRequest') ?? '');
    return { location: `${location.pathname}${location.search}`, requestId: request.id, acs: request.assertionConsumerServiceUrl };
  }

  function formField(html: string, name: string): string {
    const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
    return (match?.[1] ?? '')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  }

  /** The development identity provider's answer for `email`: the fields its auto-submitted form posts. */
  async function devIdentityProvider(location: string, email: string): Promise<{ SAMLResponse: string; RelayState: string }> {
    const response = await t.app.inject({ method: 'GET', url: `${location}&email=${encodeURIComponent(email)}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    return { SAMLResponse: formField(response.body, 'SAMLResponse'), RelayState: formField(response.body, 'RelayState') };
  }

  function acs(fields: Record<string, string>) {
    return t.app.inject({
      method: 'POST',
      url: samlPaths.acs,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
  }

  /** A response made here, as an attacker or a misbehaving provider would. */
  function response(options: { email: string; requestId: string; acs: string; audience?: string; issuedAt?: Date }): string {
    return samlResponseXml({
      issuer: devIdentityProviderIssuer,
      email: options.email,
      audience: options.audience ?? 'gridport',
      destination: options.acs,
      inResponseTo: options.requestId,
      issuedAt: options.issuedAt,
    });
  }

  const base64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

  /** Refused with this status and key, for this reason when one is given, and without a session cookie. */
  function expectRefused(answer: Awaited<ReturnType<typeof acs>>, status: number, key: string, reason?: RegExp): void {
    expect({ status: answer.statusCode, key: answer.json().key }).toEqual({ status, key });
    if (reason) {
      expect(answer.json().details.reason).toMatch(reason);
    }
    expect(answer.headers['set-cookie']).toBeUndefined();
  }

  it('signs a staff user in through the development identity provider and returns to the relay state', async () => {
    const email = await user(['gridport.ops']);
    const { location } = await login('/admin/organizations?page=2');
    expect(location).toMatch(/^\/dev-idp\/sso\?SAMLRequest=/);

    const chooser = await t.app.inject({ method: 'GET', url: location });
    expect(chooser.statusCode).toBe(200);
    expect(chooser.body).toContain('<input type="email" name="email"');

    const fields = await devIdentityProvider(location, email);
    expect(fields.RelayState).toBe('/admin/organizations?page=2');
    const answer = await acs(fields);
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/admin/organizations?page=2');
    const setCookie = String(answer.headers['set-cookie']);
    expect(setCookie).toMatch(new RegExp(`^${sessionCookieName}=[^;]+; Path=/; Expires=.+; HttpOnly; SameSite=Lax$`));

    const whoami = await t.app.inject({ method: 'GET', url: '/console-shared/v1/authentication/whoami', headers: { cookie: setCookie.split(';')[0] } });
    expect(whoami.statusCode).toBe(200);
    expect(whoami.json().user).toMatchObject({ email, rights: ['gridport.ops'] });
  });

  it('replaces an absolute, protocol-relative or missing relay state with /admin/devices', async () => {
    const email = await user(['gridport.employee']);
    for (const relayState of ['https://evil.example/admin', '//evil.example/admin', '/\\evil.example', 'admin/devices', undefined]) {
      const { location } = await login(relayState);
      const answer = await acs(await devIdentityProvider(location, email));
      expect({ relayState, status: answer.statusCode, location: answer.headers.location }).toEqual({ relayState, status: 303, location: '/admin/devices' });
    }
  });

  it('refuses a response posted twice: its request was answered already', async () => {
    const email = await user(['gridport.ops']);
    const fields = await devIdentityProvider((await login('/admin')).location, email);
    expect((await acs(fields)).statusCode).toBe(303);
    expectRefused(await acs(fields), 401, 'saml2_post_validation_failed', /^InResponseTo is not valid$/);
  });

  it('accepts a response made here and signed with the provider key: the control for the refusals that follow', async () => {
    const email = await user(['gridport.admin']);
    const flow = await login();
    const answer = await acs({ SAMLResponse: base64(signAssertion(response({ email, ...flow }), devKeys)), RelayState: '/admin/users' });
    expect({ status: answer.statusCode, location: answer.headers.location }).toEqual({ status: 303, location: '/admin/users' });
    expect(String(answer.headers['set-cookie'])).toMatch(new RegExp(`^${sessionCookieName}=`));
  });

  it('refuses an unsigned response with saml2_post_validation_failed', async () => {
    const email = await user(['gridport.admin']);
    const flow = await login();
    expectRefused(await acs({ SAMLResponse: base64(response({ email, ...flow })) }), 401, 'saml2_post_validation_failed', /^Invalid signature$/);
  });

  it('refuses a response whose NameID was changed after signing', async () => {
    const [victim, attacker] = [await user(['gridport.admin']), await user(['gridport.employee'])];
    const flow = await login();
    const signed = signAssertion(response({ email: attacker, ...flow }), devKeys);
    expect(signed).toContain(attacker);
    expectRefused(await acs({ SAMLResponse: base64(signed.replace(attacker, victim)) }), 401, 'saml2_post_validation_failed', /^Invalid signature$/);
  });

  it('refuses a signature-wrapping attack: a second, unsigned assertion beside the signed one', async () => {
    const [victim, attacker] = [await user(['gridport.admin']), await user(['gridport.employee'])];
    const flow = await login();
    const document = new DOMParser().parseFromString(signAssertion(response({ email: attacker, ...flow }), devKeys), 'text/xml');
    const signedAssertion = document.getElementsByTagNameNS(assertionNs, 'Assertion')[0] as Element;
    const forged = signedAssertion.cloneNode(true) as Element;
    forged.removeChild(forged.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'Signature')[0] as Element);
    (forged.getElementsByTagNameNS(assertionNs, 'NameID')[0] as Element).textContent = victim;
    forged.setAttribute('ID', '_forged');
    signedAssertion.parentNode?.insertBefore(forged, signedAssertion);
    expectRefused(
      await acs({ SAMLResponse: base64(new XMLSerializer().serializeToString(document)) }),
      401,
      'saml2_post_validation_failed',
      /multiple assertions/,
    );
  });

  it('refuses a signature-wrapping attack: the signed assertion moved under Extensions and a forged one in its place', async () => {
    const [victim, attacker] = [await user(['gridport.admin']), await user(['gridport.employee'])];
    const flow = await login();
    const document = new DOMParser().parseFromString(signAssertion(response({ email: attacker, ...flow }), devKeys), 'text/xml');
    const root = document.documentElement as Element;
    const signedAssertion = document.getElementsByTagNameNS(assertionNs, 'Assertion')[0] as Element;
    // The forged assertion keeps the ID and the signature of the original, which now sits in Extensions.
    const forged = signedAssertion.cloneNode(true) as Element;
    (forged.getElementsByTagNameNS(assertionNs, 'NameID')[0] as Element).textContent = victim;
    const extensions = document.createElementNS(protocolNs, 'samlp:Extensions');
    root.replaceChild(forged, signedAssertion);
    extensions.appendChild(signedAssertion);
    root.insertBefore(extensions, root.getElementsByTagNameNS(protocolNs, 'Status')[0] as Element);
    expectRefused(
      await acs({ SAMLResponse: base64(new XMLSerializer().serializeToString(document)) }),
      401,
      'saml2_post_validation_failed',
      /ID cannot refer to more than one element/,
    );
  });

  it('refuses a response signed by another key', async () => {
    const email = await user(['gridport.admin']);
    const flow = await login();
    expectRefused(
      await acs({ SAMLResponse: base64(signAssertion(response({ email, ...flow }), otherKeys)) }),
      401,
      'saml2_post_validation_failed',
      /^Invalid signature$/,
    );
  });

  it('refuses an expired response', async () => {
    const email = await user(['gridport.admin']);
    const flow = await login();
    const signed = signAssertion(response({ email, ...flow, issuedAt: new Date(Date.now() - 60 * 60_000) }), devKeys);
    expectRefused(await acs({ SAMLResponse: base64(signed) }), 401, 'saml2_post_validation_failed', /^No valid subject confirmation/);
  });

  it('refuses a response for another audience', async () => {
    const email = await user(['gridport.admin']);
    const flow = await login();
    const signed = signAssertion(response({ email, ...flow, audience: 'someone-else' }), devKeys);
    expectRefused(await acs({ SAMLResponse: base64(signed) }), 401, 'saml2_post_validation_failed', /^SAML assertion audience mismatch/);
  });

  it('refuses a signed response that answers no request of ours', async () => {
    const email = await user(['gridport.admin']);
    const { acs: destination } = await login();
    const signed = signAssertion(response({ email, acs: destination, requestId: '_not-ours' }), devKeys);
    expectRefused(await acs({ SAMLResponse: base64(signed) }), 401, 'saml2_post_validation_failed', /^InResponseTo is not valid$/);
  });

  it('refuses a valid response that names no email with 401 saml2_profile_is_missing', async () => {
    const flow = await login();
    const answer = await acs({ SAMLResponse: base64(signAssertion(response({ email: 'jdoe', ...flow }), devKeys)) });
    expectRefused(answer, 401, 'saml2_profile_is_missing');
  });

  it('answers a post without SAMLResponse with 400 saml2_data_missing', async () => {
    expectRefused(await acs({ RelayState: '/admin' }), 400, 'saml2_data_missing');
    const empty = await t.app.inject({ method: 'POST', url: samlPaths.acs });
    expectRefused(empty, 400, 'saml2_data_missing');
  });

  it('answers a JSON or malformed body with 400 url_encoded_body_invalid', async () => {
    const json = await t.app.inject({ method: 'POST', url: samlPaths.acs, headers: { 'content-type': 'application/json' }, payload: '{"SAMLResponse":"x"}' });
    expectRefused(json, 400, 'url_encoded_body_invalid');
    const malformed = await t.app.inject({
      method: 'POST',
      url: samlPaths.acs,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'SAMLResponse=%E0%A4%A',
    });
    expect(malformed.json()).toEqual({ key: 'url_encoded_body_invalid', details: { reason: 'a field is not correctly percent-encoded' } });
  });

  it('refuses a customer user or an unknown email with 403 forbidden', async () => {
    const organization = await t.services.organizations.create(
      systemActor('test'),
      validate(organizationCreateSchema, { name: `Customer ${Date.now()}`, type: 'asset-owner' }, 'payload_invalid'),
    );
    const customer = await user(['customer.write'], organization.hashId);
    for (const email of [customer, 'nobody@example.com']) {
      const answer = await acs(await devIdentityProvider((await login()).location, email));
      expectRefused(answer, 403, 'forbidden');
      expect(answer.json().details).toEqual({ email });
    }
  });

  it('the development identity provider refuses a malformed AuthnRequest or one for another service', async () => {
    const malformed = await t.app.inject({ method: 'GET', url: `${samlPaths.devIdentityProvider}?SAMLRequest=bm90LWRlZmxhdGVk&email=a%40example.com` });
    expect({ status: malformed.statusCode, key: malformed.json().key }).toEqual({ status: 401, key: 'saml2_request_validation_failed' });
    const { location } = await login();
    const other = await t.app.inject({ method: 'GET', url: `${location}&email=a%40example.com`, headers: { host: 'elsewhere.example' } });
    expect(other.json()).toEqual({ key: 'saml2_request_validation_failed', details: { reason: 'the AuthnRequest is not from this Gridport' } });
  });

  it('keeps answering payload_not_json for a form body elsewhere', async () => {
    const cookie = await t.signIn(['gridport.ops']);
    const answer = await t.app.inject({
      method: 'POST',
      url: '/console-admin/v1/organization',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=x',
    });
    expect({ status: answer.statusCode, key: answer.json().key }).toEqual({ status: 400, key: 'payload_not_json' });
  });
});

describe('staff sign-in with SAML through a configured identity provider', () => {
  let external: TestApp;
  let providerKeys: SigningKeyPair;
  let devKeys: SigningKeyPair;
  let email: string;

  beforeAll(async () => {
    [providerKeys, devKeys] = await Promise.all([generateSigningKeyPair('Example IdP'), generateSigningKeyPair()]);
    external = await testApp({
      saml: { ...defaultSamlSettings, entryPoint: 'https://idp.example.com/sso', idpCert: providerKeys.certificate, devIdentityProvider: false },
    });
    email = `external-${Date.now()}@example.com`;
    await external.services.users.create(systemActor('test'), {
      organizationHashId: external.hashIds.encode('organization', providerOrganizationId),
      name: 'External',
      email,
      rights: ['gridport.developer'],
    });
  });

  afterAll(async () => {
    await external.close();
  });

  async function externalLogin() {
    const answer = await external.app.inject({ method: 'GET', url: `${samlPaths.login}?relayState=%2Fadmin%2Fissues` });
    expect(answer.statusCode).toBe(302);
    const location = new URL(String(answer.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe('https://idp.example.com/sso');
    expect(location.searchParams.get('RelayState')).toBe('/admin/issues');
    const request = readAuthnRequest(location.searchParams.get('SAMLRequest') ?? '');
    return { requestId: request.id, acs: request.assertionConsumerServiceUrl };
  }

  function post(xml: string) {
    return external.app.inject({
      method: 'POST',
      url: samlPaths.acs,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ SAMLResponse: Buffer.from(xml).toString('base64'), RelayState: '/admin/issues' }).toString(),
    });
  }

  const made = (flow: { requestId: string; acs: string }) =>
    samlResponseXml({ issuer: 'https://idp.example.com', email, audience: 'gridport', destination: flow.acs, inResponseTo: flow.requestId });

  it('redirects to the provider, accepts its signature and no other, and runs no development provider', async () => {
    const accepted = await post(signAssertion(made(await externalLogin()), providerKeys));
    expect({ status: accepted.statusCode, location: accepted.headers.location }).toEqual({ status: 303, location: '/admin/issues' });

    const byDevelopmentKey = await post(signAssertion(made(await externalLogin()), devKeys));
    expect({ status: byDevelopmentKey.statusCode, key: byDevelopmentKey.json().key, cookie: byDevelopmentKey.headers['set-cookie'] }).toEqual({
      status: 401,
      key: 'saml2_post_validation_failed',
      cookie: undefined,
    });

    const devIdentityProvider = await external.app.inject({ method: 'GET', url: `${samlPaths.devIdentityProvider}?SAMLRequest=x` });
    expect(devIdentityProvider.statusCode).toBe(404);
  });
});

describe('staff sign-in with SAML without any identity provider', () => {
  let bare: TestApp;

  beforeAll(async () => {
    bare = await testApp({ saml: { ...defaultSamlSettings, devIdentityProvider: false } });
  });

  afterAll(async () => {
    await bare.close();
  });

  it('answers the login with 401 saml2_redirect_validation_failed and a response with 401 saml2_post_validation_failed', async () => {
    const login = await bare.app.inject({ method: 'GET', url: samlPaths.login });
    expect({ status: login.statusCode, body: login.json() }).toEqual({
      status: 401,
      body: { key: 'saml2_redirect_validation_failed', details: { reason: 'no identity provider is configured' } },
    });
    const post = await bare.app.inject({
      method: 'POST',
      url: samlPaths.acs,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'SAMLResponse=PHg%2B',
    });
    expect({ status: post.statusCode, body: post.json() }).toEqual({
      status: 401,
      body: { key: 'saml2_post_validation_failed', details: { reason: 'no identity provider is configured' } },
    });
  });
});
