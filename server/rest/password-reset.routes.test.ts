import { systemActor } from '../../graph/common/context';
import { testApp, type TestApp } from '../../test-support/app';
import { anOrganization } from '../../test-support/factories';

describe('password reset', () => {
  let t: TestApp;
  let organizationHashId: string;
  let people = 0;

  beforeAll(async () => {
    t = await testApp();
    organizationHashId = (await anOrganization(t.services, { name: 'Reset BV', type: 'asset-owner' })).hashId;
  });

  afterAll(async () => {
    await t.close();
  });

  async function person(): Promise<string> {
    people += 1;
    const email = `forgetful${people}@example.com`;
    await t.services.users.create(systemActor('test'), {
      organizationHashId,
      name: `Forgetful ${people}`,
      email,
      rights: ['customer.read'],
      password: 'the old password 123',
    });
    return email;
  }

  /** The code in the newest reset mail to `email`, read from the mails Gridport kept. */
  async function mailedCode(email: string): Promise<string> {
    const mail = (await t.database
      .db('mails')
      .whereRaw('"to" @> ?::jsonb', [JSON.stringify([email])])
      .orderBy('id', 'desc')
      .first()) as { text: string; subject: string };
    expect(mail.subject).toBe('Reset your Gridport password');
    const link = /https?:\/\/\S+/.exec(mail.text)?.[0] ?? '';
    expect(link.startsWith(`http://localhost:8080/reset-password?email=${encodeURIComponent(email)}&code=`)).toBe(true);
    return new URL(link).searchParams.get('code') ?? '';
  }

  const login = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/console-shared/v1/login', remoteAddress: `10.20.${people}.1`, payload: { email, password } });

  it('mails a code that sets a new password once and ends every session', async () => {
    const email = await person();
    const before = await login(email, 'the old password 123');
    const oldCookie = String(before.headers['set-cookie']).split(';')[0] ?? '';

    const requested = await t.app.inject({ method: 'POST', url: '/console/v1/password-reset', payload: { email } });
    expect(requested.statusCode).toBe(204);
    const code = await mailedCode(email);
    const waiting = await t.app.inject({ method: 'GET', url: `/console/v1/password-reset?email=${encodeURIComponent(email)}&code=${code}` });
    expect(waiting.statusCode).toBe(200);
    expect(waiting.json()).toEqual({ expiresAt: expect.any(String) });

    const tooShort = await t.app.inject({
      method: 'POST',
      url: `/console/v1/password-reset/reset?email=${encodeURIComponent(email)}`,
      payload: { password: 'short', code },
    });
    expect(tooShort.json()).toEqual({ key: 'payload_invalid', details: [{ path: 'password', message: 'password must be at least 12 characters' }] });

    const reset = await t.app.inject({
      method: 'POST',
      url: `/console/v1/password-reset/reset?email=${encodeURIComponent(email)}`,
      payload: { password: 'a brand new password', code },
    });
    expect(reset.statusCode).toBe(204);
    expect((await login(email, 'the old password 123')).json()).toEqual({ key: 'invalid_credentials' });
    expect((await login(email, 'a brand new password')).statusCode).toBe(200);
    const whoami = await t.app.inject({ method: 'GET', url: '/console-shared/v1/authentication/whoami', headers: { cookie: oldCookie } });
    expect(whoami.json()).toEqual({ key: 'unauthorized' });

    const again = await t.app.inject({
      method: 'POST',
      url: `/console/v1/password-reset/reset?email=${encodeURIComponent(email)}`,
      payload: { password: 'yet another password', code },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ key: 'invalid_code' });
  });

  it('answers an unknown email like a known one, and mails nothing', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/console/v1/password-reset', payload: { email: 'nobody-here@example.com' } });
    expect(response.statusCode).toBe(204);
    expect(await t.database.db('mails').whereRaw('"to" @> ?::jsonb', [JSON.stringify(['nobody-here@example.com'])])).toEqual([]);
  });

  it('answers a lapsed code with 410 password_reset_expired', async () => {
    const email = await person();
    await t.app.inject({ method: 'POST', url: '/console/v1/password-reset', payload: { email } });
    const code = await mailedCode(email);
    await t.database.db('password_resets').update({ expires_at: new Date(Date.now() - 1000) });
    const status = await t.app.inject({ method: 'GET', url: `/console/v1/password-reset?email=${encodeURIComponent(email)}&code=${code}` });
    expect(status.statusCode).toBe(410);
    expect(status.json()).toEqual({ key: 'password_reset_expired' });
    const reset = await t.app.inject({
      method: 'POST',
      url: `/console/v1/password-reset/reset?email=${encodeURIComponent(email)}`,
      payload: { password: 'a brand new password', code },
    });
    expect(reset.statusCode).toBe(410);
    expect(reset.json()).toEqual({ key: 'password_reset_expired' });
  });

  it('allows three resets an hour per email, then 429 rate_limit_exceeded_for_password_reset', async () => {
    const email = await person();
    for (let i = 0; i < 3; i += 1) {
      expect((await t.app.inject({ method: 'POST', url: '/console/v1/password-reset', payload: { email } })).statusCode).toBe(204);
    }
    const fourth = await t.app.inject({ method: 'POST', url: '/console/v1/password-reset', payload: { email } });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual({ key: 'rate_limit_exceeded_for_password_reset', details: { perHour: 3 } });
  });

  it('answers a known and an unknown email alike, request after request: 204 three times, then 429', async () => {
    const known = await person();
    const unknown = 'never-signed-up@example.com';
    const answers = async (email: string) => {
      const seen: { status: number; body: string }[] = [];
      for (let i = 0; i < 5; i += 1) {
        const response = await t.app.inject({ method: 'POST', url: '/console/v1/password-reset', payload: { email } });
        seen.push({ status: response.statusCode, body: response.body });
      }
      return seen;
    };
    const forKnown = await answers(known);
    const forUnknown = await answers(unknown);
    expect(forUnknown).toEqual(forKnown);
    const limited = { status: 429, body: JSON.stringify({ key: 'rate_limit_exceeded_for_password_reset', details: { perHour: 3 } }) };
    expect(forKnown).toEqual([{ status: 204, body: '' }, { status: 204, body: '' }, { status: 204, body: '' }, limited, limited]);
    // The allowance is per email, not by letter case, and another email has its own.
    const upper = await t.app.inject({ method: 'POST', url: '/console/v1/password-reset', payload: { email: unknown.toUpperCase() } });
    expect(upper.statusCode).toBe(429);
    expect((await t.app.inject({ method: 'POST', url: '/console/v1/password-reset', payload: { email: 'someone-else@example.com' } })).statusCode).toBe(204);
    // Nothing of the unknown email is kept but a hash of it.
    expect(await t.database.db('password_reset_requests').whereRaw('email_hash like ?', ['%@%'])).toEqual([]);
  });

  it('answers GET alike for a known email with a waiting reset and an unknown one; only the mailed code tells more', async () => {
    const known = await person();
    expect((await t.app.inject({ method: 'POST', url: '/console/v1/password-reset', payload: { email: known } })).statusCode).toBe(204);
    const code = await mailedCode(known);
    const status = (email: string, query: string) =>
      t.app.inject({ method: 'GET', url: `/console/v1/password-reset?email=${encodeURIComponent(email)}${query}` });
    const guess = '&code=a-guessed-code';
    for (const query of [guess, '']) {
      const sequence = async (email: string) => {
        const seen: { status: number; body: string }[] = [];
        for (let i = 0; i < 3; i += 1) {
          const response = await status(email, query);
          seen.push({ status: response.statusCode, body: response.body });
        }
        return seen;
      };
      const forKnown = await sequence(known);
      expect({ query, answers: await sequence('no-account-here@example.com') }).toEqual({ query, answers: forKnown });
    }
    expect((await status(known, guess)).json()).toEqual({ key: 'not_found' });
    expect((await status(known, '')).json()).toEqual({ key: 'query_invalid', details: [{ path: 'code', message: 'code is a required field' }] });
    const right = await status(known, `&code=${code}`);
    expect(right.statusCode).toBe(200);
    expect(right.json()).toEqual({ expiresAt: expect.any(String) });
  });

  it('needs a recovery code as well when two-factor is on', async () => {
    const email = await person();
    await t.database
      .db('users')
      .whereRaw('lower(email) = ?', [email])
      .update({ two_factor_secret: JSON.stringify({ iv: '00', encryptedData: '00', tag: '00' }), recovery_code_hashes: JSON.stringify([]) });
    await t.app.inject({ method: 'POST', url: '/console/v1/password-reset', payload: { email } });
    const code = await mailedCode(email);
    const response = await t.app.inject({
      method: 'POST',
      url: `/console/v1/password-reset/reset?email=${encodeURIComponent(email)}`,
      payload: { password: 'a brand new password', code },
    });
    expect(response.json()).toEqual({ key: '2fa_code_required' });
    const wrong = await t.app.inject({
      method: 'POST',
      url: `/console/v1/password-reset/reset?email=${encodeURIComponent(email)}`,
      payload: { password: 'a brand new password', code, recoveryCode: 'aaaaa-bbbbb' },
    });
    expect(wrong.json()).toEqual({ key: '2fa_code_invalid' });
  });
});
