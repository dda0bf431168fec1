import { generate } from 'otplib';
import { systemActor } from '../../graph/common/context';
import { testApp, type TestApp } from '../../test-support/app';
import { anOrganization, providerHashId } from '../../test-support/factories';

describe('user invites', () => {
  let t: TestApp;
  let organizationHashId: string;

  beforeAll(async () => {
    t = await testApp();
    organizationHashId = (await anOrganization(t.services, { name: 'Invited BV', type: 'installer' })).hashId;
  });

  afterAll(async () => {
    await t.close();
  });

  /** The invite link mailed to `email`: the invite's hash id and its code. */
  async function mailedLink(email: string): Promise<{ hashId: string; code: string }> {
    const mail = (await t.database
      .db('mails')
      .whereRaw('"to" @> ?::jsonb', [JSON.stringify([email])])
      .orderBy('id', 'desc')
      .first()) as { text: string };
    const url = new URL(/https?:\/\/\S+/.exec(mail.text)?.[0] ?? 'http://x');
    return { hashId: url.pathname.split('/').pop() ?? '', code: url.searchParams.get('code') ?? '' };
  }

  async function invite(cookie: string, emails: string[]) {
    return t.app.inject({ method: 'POST', url: '/console-admin/v1/user-invite', headers: { cookie }, payload: { organizationHashId, emails } });
  }

  it('are sent by Ops, accepted with a name, password and two-factor code, and sign the new user in', async () => {
    const ops = await t.signIn(['gridport.ops']);
    const created = await invite(ops, ['new.one@example.com', 'New.One@example.com', 'second@example.com']);
    expect(created.statusCode).toBe(201);
    expect((created.json() as { invites: { email: string; rights: string[] }[] }).invites.map((row) => [row.email, row.rights])).toEqual([
      ['new.one@example.com', ['customer.read']],
      ['second@example.com', ['customer.read']],
    ]);
    const { hashId, code } = await mailedLink('new.one@example.com');
    const base = `/console/v1/user-invite/${hashId}`;

    const seen = await t.app.inject({ method: 'GET', url: `${base}?code=${code}` });
    expect(seen.json()).toMatchObject({ hashId, email: 'new.one@example.com', organization: { hashId: organizationHashId, name: 'Invited BV' } });

    const early = await t.app.inject({
      method: 'POST',
      url: `${base}?code=${code}`,
      payload: { name: 'New One', password: 'a good long password', twoFactorCode: '123456' },
    });
    expect(early.json()).toEqual({ key: '2fa_code_required', details: { reason: 'create a two-factor challenge first' } });

    const challenge = await t.app.inject({ method: 'POST', url: `${base}/create-challenge?code=${code}` });
    const { secret } = challenge.json() as { secret: string };
    const wrong = await t.app.inject({
      method: 'POST',
      url: `${base}?code=${code}`,
      payload: { name: 'New One', password: 'a good long password', twoFactorCode: '000000' },
    });
    expect(wrong.json()).toEqual({ key: '2fa_code_invalid' });

    const converted = await t.app.inject({
      method: 'POST',
      url: `${base}?code=${code}`,
      payload: { name: 'New One', password: 'a good long password', twoFactorCode: await generate({ secret }) },
    });
    expect(converted.statusCode).toBe(201);
    expect((converted.json() as { recoveryCodes: string[] }).recoveryCodes).toHaveLength(10);
    const cookie = String(converted.headers['set-cookie']).split(';')[0] ?? '';
    const whoami = await t.app.inject({ method: 'GET', url: '/console-shared/v1/authentication/whoami', headers: { cookie } });
    expect(whoami.json()).toMatchObject({ user: { name: 'New One', email: 'new.one@example.com' }, organization: { hashId: organizationHashId } });

    const twice = await t.app.inject({ method: 'GET', url: `${base}?code=${code}` });
    expect(twice.statusCode).toBe(404);
  });

  it('refuse an email with a user (user_exists) or an open invite (has_invite), and more than 20 emails', async () => {
    const ops = await t.signIn(['gridport.ops']);
    await invite(ops, ['pending@example.com']);
    const again = await invite(ops, ['pending@example.com', 'fresh@example.com']);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ key: 'has_invite', details: { emails: ['pending@example.com'] } });
    await t.services.users.create(systemActor('test'), { organizationHashId, name: 'Existing', email: 'existing@example.com', rights: ['customer.read'] });
    const existing = await invite(ops, ['EXISTING@example.com']);
    expect(existing.json()).toEqual({ key: 'user_exists', details: { emails: ['existing@example.com'] } });
    const many = await invite(
      ops,
      Array.from({ length: 21 }, (_, i) => `many${i}@example.com`),
    );
    expect(many.json()).toEqual({ key: 'payload_invalid', details: [{ path: 'emails', message: 'emails field must have less than or equal to 20 items' }] });
  });

  it('take staff rights beyond employee into the provider organisation from Admin only, and rights that fit the organisation', async () => {
    const provider = providerHashId(t.services);
    const post = (cookie: string, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/console-admin/v1/user-invite', headers: { cookie }, payload });
    const ops = await t.signIn(['gridport.ops']);
    const employee = await post(ops, { organizationHashId: provider, emails: ['reader@gridport.example'] });
    expect(employee.statusCode).toBe(201);
    expect((employee.json() as { invites: { rights: string[] }[] }).invites[0]?.rights).toEqual(['gridport.employee']);
    const escalation = await post(ops, { organizationHashId: provider, emails: ['colleague@gridport.example'], rights: ['gridport.admin'] });
    expect(escalation.statusCode).toBe(403);
    expect(escalation.json()).toEqual({ key: 'forbidden', details: { reason: 'inviting with a staff right beyond employee needs the admin right' } });
    const admin = await t.signIn(['gridport.admin']);
    expect((await post(admin, { organizationHashId: provider, emails: ['colleague@gridport.example'], rights: ['gridport.ops'] })).statusCode).toBe(201);
    const misplaced = await post(admin, { organizationHashId, emails: ['mixed@example.com'], rights: ['gridport.ops'] });
    expect(misplaced.statusCode).toBe(400);
    expect(misplaced.json()).toEqual({
      key: 'payload_invalid',
      details: [{ path: 'rights', message: 'Customer users hold customer rights only, not gridport.ops' }],
    });
  });

  it('answer a wrong code with invalid_code, a lapsed invite with secret_expired, and a revoked one with not_found', async () => {
    const ops = await t.signIn(['gridport.ops']);
    await invite(ops, ['lapsing@example.com', 'revoked@example.com']);
    const lapsing = await mailedLink('lapsing@example.com');
    const wrong = await t.app.inject({ method: 'GET', url: `/console/v1/user-invite/${lapsing.hashId}?code=not-the-code` });
    expect(wrong.json()).toEqual({ key: 'invalid_code' });
    await t.database
      .db('user_invites')
      .where('email', 'lapsing@example.com')
      .update({ expires_at: new Date(Date.now() - 1000) });
    const lapsed = await t.app.inject({ method: 'POST', url: `/console/v1/user-invite/${lapsing.hashId}/create-challenge?code=${lapsing.code}` });
    expect(lapsed.statusCode).toBe(410);
    expect(lapsed.json().key).toBe('secret_expired');

    const revoked = await mailedLink('revoked@example.com');
    const sales = await t.signIn(['gridport.sales']);
    expect((await t.app.inject({ method: 'DELETE', url: `/console-admin/v1/user-invite/${revoked.hashId}`, headers: { cookie: sales } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/console-admin/v1/user-invite/${revoked.hashId}`, headers: { cookie: ops } })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `/console/v1/user-invite/${revoked.hashId}?code=${revoked.code}` })).statusCode).toBe(404);
  });

  it('are listed to staff, and to a customer only within their organisation', async () => {
    const ops = await t.signIn(['gridport.ops']);
    await invite(ops, ['listed@example.com']);
    const staff = await t.app.inject({
      method: 'GET',
      url: `/console-admin/v1/user-invite?organizationHashId=${organizationHashId}&filter=listed`,
      headers: { cookie: ops },
    });
    expect((staff.json() as { rows: { email: string }[] }).rows.map((row) => row.email)).toEqual(['listed@example.com']);
    const other = await anOrganization(t.services, { name: 'Other BV', type: 'installer' });
    const outsider = await t.signIn(['customer.write'], other.hashId);
    const theirs = await t.app.inject({ method: 'GET', url: '/console/v1/user-invite', headers: { cookie: outsider } });
    expect(theirs.json()).toEqual({ rows: [], nextPageOffset: null });
    const insider = await t.signIn(['customer.read'], organizationHashId);
    const ours = await t.app.inject({ method: 'GET', url: '/console/v1/user-invite?filter=listed', headers: { cookie: insider } });
    expect((ours.json() as { rows: { email: string }[] }).rows.map((row) => row.email)).toEqual(['listed@example.com']);
  });
});
