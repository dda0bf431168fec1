import { generate } from 'otplib';
import type { LightMyRequestResponse } from 'fastify';
import { systemActor } from '../../graph/common/context';
import { sessionCookieName } from '../../graph/identity/services/session.service';
import { testApp, type TestApp } from '../../test-support/app';
import { anOrganization } from '../../test-support/factories';

describe('login and two-factor', () => {
  let t: TestApp;
  let customerHashId: string;
  let address = 0;
  let people = 0;
  const password = 'a long enough password';

  beforeAll(async () => {
    t = await testApp();
    const organization = await anOrganization(t.services, { name: 'Windpark Zuid', type: 'asset-owner' });
    customerHashId = organization.hashId;
  });

  afterAll(async () => {
    await t.close();
  });

  /** A customer with a password; each test signs in from an address of its own. */
  async function person(): Promise<{ email: string; from: string }> {
    people += 1;
    address += 1;
    const email = `person${people}@example.com`;
    await t.services.users.create(systemActor('test'), {
      organizationHashId: customerHashId,
      name: `Person ${people}`,
      email,
      rights: ['customer.write'],
      password,
    });
    return { email, from: `10.0.0.${address}` };
  }

  function login(from: string, body: Record<string, unknown>): Promise<LightMyRequestResponse> {
    return t.app.inject({ method: 'POST', url: '/console-shared/v1/login', remoteAddress: from, payload: body });
  }

  function cookieOf(response: LightMyRequestResponse): string {
    const header = response.headers['set-cookie'];
    const value = Array.isArray(header) ? header[0] : header;
    return (value ?? '').split(';')[0] ?? '';
  }

  it('starts a session in an httpOnly, SameSite=Lax cookie and answers who signed in', async () => {
    const { email, from } = await person();
    const response = await login(from, { email: `  ${email.toUpperCase()}\u200B`, password });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ user: { email, rights: ['customer.read', 'customer.write'] }, organization: { hashId: customerHashId } });
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(new RegExp(`^${sessionCookieName}=[\\w-]+\\.[\\w-]+\\.[\\w-]+; Path=/; Expires=.+; HttpOnly; SameSite=Lax$`));
    const whoami = await t.app.inject({ method: 'GET', url: '/console-shared/v1/authentication/whoami', headers: { cookie: cookieOf(response) } });
    expect(whoami.statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown email alike with 401 invalid_credentials', async () => {
    const { email, from } = await person();
    for (const body of [
      { email, password: 'not the password at all' },
      { email: 'nobody@example.com', password },
    ]) {
      const response = await login(from, body);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ key: 'invalid_credentials' });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
  });

  it('refuses an email that is not one with "Invalid email (RFC 5322)"', async () => {
    const response = await login('10.9.9.9', { email: 'not an email', password });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ key: 'payload_invalid', details: [{ path: 'email', message: 'Invalid email (RFC 5322)' }] });
  });

  it('locks an email after the sixth failed login, even for the right password', async () => {
    const { email } = await person();
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      const response = await login(`10.1.0.${attempt}`, { email, password: 'wrong password here' });
      expect(response.json()).toEqual({ key: 'invalid_credentials' });
    }
    const locked = await login('10.1.0.99', { email, password });
    expect(locked.statusCode).toBe(401);
    expect(locked.json()).toEqual({ key: 'too_many_failed_attempts' });
  });

  it('locks an address after six failed logins, whatever the emails', async () => {
    address += 1;
    const from = `10.2.0.${address}`;
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      await login(from, { email: `guess${attempt}@example.com`, password: 'wrong password here' });
    }
    const { email } = await person();
    const locked = await login(from, { email, password });
    expect(locked.json()).toEqual({ key: 'too_many_failed_attempts' });
    const elsewhere = await login('10.3.0.1', { email, password });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('counts every one of many parallel guesses', async () => {
    const { email } = await person();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => login(`10.4.0.${i + 1}`, { email, password: `wrong password ${i}` })));
    const keys = answers.map((response) => (response.json() as { key: string }).key).sort();
    expect(keys).toEqual([...Array(6).fill('invalid_credentials'), ...Array(6).fill('too_many_failed_attempts')]);
  });

  describe('with two-factor', () => {
    async function withTwoFactor(): Promise<{ email: string; from: string; cookie: string; secret: string; recoveryCodes: string[] }> {
      const { email, from } = await person();
      const cookie = cookieOf(await login(from, { email, password }));
      const challenge = await t.app.inject({ method: 'POST', url: '/console/v1/settings/two-factor/generate-challenge', headers: { cookie }, payload: {} });
      expect(challenge.statusCode).toBe(200);
      const { secret, keyuri } = challenge.json() as { secret: string; keyuri: string };
      expect(keyuri).toBe(`otpauth://totp/Gridport:${encodeURIComponent(email)}?secret=${secret}&issuer=Gridport`);
      const confirmed = await t.app.inject({
        method: 'POST',
        url: '/console/v1/settings/two-factor/change-app',
        headers: { cookie },
        payload: { twoFactorCode: await generate({ secret }) },
      });
      expect(confirmed.statusCode).toBe(200);
      const { recoveryCodes } = confirmed.json() as { recoveryCodes: string[] };
      expect(recoveryCodes).toHaveLength(10);
      return { email, from, cookie, secret, recoveryCodes };
    }

    it('asks for the code, refuses a wrong one, and takes a right one once', async () => {
      const { email, from, secret } = await withTwoFactor();
      expect((await login(from, { email, password })).json()).toEqual({ key: '2fa_code_required' });
      expect((await login(from, { email, password, code: '000000' })).json()).toEqual({ key: '2fa_code_invalid' });
      // The code of the next time step: the current one was spent confirming the app.
      const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
      expect((await login(from, { email, password, code })).statusCode).toBe(200);
      expect((await login(from, { email, password, code })).json()).toEqual({ key: '2fa_code_invalid' });
    });

    it('takes each recovery code once', async () => {
      const { email, from, recoveryCodes } = await withTwoFactor();
      const [first] = recoveryCodes;
      expect((await login(from, { email, password, recoveryCode: first })).statusCode).toBe(200);
      expect((await login(from, { email, password, recoveryCode: first })).json()).toEqual({ key: '2fa_code_invalid' });
    });

    it('needs the current app, or a recovery code, to set up another', async () => {
      const { cookie, recoveryCodes } = await withTwoFactor();
      const url = '/console/v1/settings/two-factor/generate-challenge';
      expect((await t.app.inject({ method: 'POST', url, headers: { cookie }, payload: {} })).json()).toEqual({ key: '2fa_code_required' });
      expect((await t.app.inject({ method: 'POST', url, headers: { cookie }, payload: { twoFactorCode: '123456' } })).json()).toEqual({
        key: '2fa_code_invalid',
      });
      const allowed = await t.app.inject({ method: 'POST', url, headers: { cookie }, payload: { recoveryCode: recoveryCodes[1] } });
      expect(allowed.statusCode).toBe(200);
      const renewed = await t.app.inject({ method: 'POST', url: '/console/v1/settings/two-factor/new-recovery-codes', headers: { cookie } });
      expect(renewed.statusCode).toBe(200);
      expect((renewed.json() as { recoveryCodes: string[] }).recoveryCodes).toHaveLength(10);
    });

    it('answers change-app without a challenge with invalid_code, and after it lapsed with secret_expired', async () => {
      const { email, from } = await person();
      const cookie = cookieOf(await login(from, { email, password }));
      const url = '/console/v1/settings/two-factor/change-app';
      const none = await t.app.inject({ method: 'POST', url, headers: { cookie }, payload: { twoFactorCode: '123456' } });
      expect(none.statusCode).toBe(400);
      expect(none.json()).toEqual({ key: 'invalid_code', details: { reason: 'generate a challenge first' } });
      await t.app.inject({ method: 'POST', url: '/console/v1/settings/two-factor/generate-challenge', headers: { cookie }, payload: {} });
      await t.database
        .db('users')
        .whereRaw('lower(email) = ?', [email])
        .update({ pending_two_factor_expires_at: new Date(Date.now() - 1000) });
      const lapsed = await t.app.inject({ method: 'POST', url, headers: { cookie }, payload: { twoFactorCode: '123456' } });
      expect(lapsed.statusCode).toBe(410);
      expect(lapsed.json()).toEqual({ key: 'secret_expired' });
    });

    it('refuses a code that is not six characters with payload_invalid', async () => {
      const { email, from } = await person();
      const cookie = cookieOf(await login(from, { email, password }));
      const response = await t.app.inject({
        method: 'POST',
        url: '/console/v1/settings/two-factor/change-app',
        headers: { cookie },
        payload: { twoFactorCode: '12345' },
      });
      expect(response.json()).toEqual({ key: 'payload_invalid', details: [{ path: 'twoFactorCode', message: 'twoFactorCode must be exactly 6 characters' }] });
    });

    it('are settings of customers: staff without admin are forbidden, and recovery codes need two-factor on', async () => {
      const staff = await t.signIn(['gridport.ops']);
      const forbidden = await t.app.inject({ method: 'POST', url: '/console/v1/settings/two-factor/new-recovery-codes', headers: { cookie: staff } });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json().key).toBe('forbidden');
      const { email, from } = await person();
      const cookie = cookieOf(await login(from, { email, password }));
      const off = await t.app.inject({ method: 'POST', url: '/console/v1/settings/two-factor/new-recovery-codes', headers: { cookie } });
      expect(off.json()).toEqual({ key: 'forbidden', details: { reason: 'two-factor is not set up' } });
    });
  });
});
