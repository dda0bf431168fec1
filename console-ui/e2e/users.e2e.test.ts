import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { systemActor } from '../../graph/common/context';
import type { TestApp } from '../../test-support/app';
import { anOrganization, providerHashId } from '../../test-support/factories';
import { browserAvailable, expectNoPermission, launchBrowser, signInAsStaff, startConsole, type RunningConsole } from './browser';

const describeInBrowser = browserAvailable() ? describe : describe.skip;

const ops = { name: 'Olivia Ops', email: 'olivia.ops@gridport.example' };
const employee = { name: 'Emma Employee', email: 'emma.employee@gridport.example' };
const invitee = { name: 'Ingrid Invited', email: 'ingrid@harbour.example', password: 'a long enough password' };

describeInBrowser('the user and invite screens in Chromium', () => {
  let running: RunningConsole | undefined;
  let t: TestApp;
  let baseUrl: string;
  let page: Page;
  let organizationHashId: string;

  beforeAll(async () => {
    running = await startConsole();
    ({ t, baseUrl, page } = running);
    organizationHashId = (await anOrganization(t.services, { name: 'Harbour Energy BV' })).hashId;
    const system = systemActor('test');
    const provider = providerHashId(t.services);
    await t.services.users.create(system, { organizationHashId: provider, name: ops.name, email: ops.email, rights: ['gridport.ops'] });
    await t.services.users.create(system, { organizationHashId: provider, name: employee.name, email: employee.email, rights: ['gridport.employee'] });
  });

  afterAll(async () => {
    await running?.close();
  });

  /** The invite link mailed to `email`, as a path of this server (the mail is written after the invite commits). */
  async function mailedInvitePath(email: string): Promise<string> {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const mail = (await t.database
        .db('mails')
        .whereRaw('"to" @> ?::jsonb', [JSON.stringify([email])])
        .orderBy('id', 'desc')
        .first()) as { text: string } | undefined;
      const link = mail === undefined ? undefined : /https?:\/\/\S+/.exec(mail.text)?.[0];
      if (link !== undefined) {
        const url = new URL(link);
        return `${url.pathname}${url.search}`;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no invite mail to ${email}`);
  }

  it('lets Ops invite a customer, who accepts in another browser, signs in and sees the users of their organisation', async () => {
    await signInAsStaff(page, baseUrl, `/admin/user-invites/add?organizationHashId=${organizationHashId}`, ops.email);
    await page.getByText('Chosen: Harbour Energy BV').waitFor();
    await page.getByLabel('Emails').fill(invitee.email);
    await page.getByRole('checkbox', { name: 'Write' }).check();
    await page.getByRole('button', { name: 'Send invites' }).click();
    await page.waitForURL((url) => url.pathname === `/admin/organizations/${organizationHashId}/users`);
    await page.getByRole('table', { name: 'Open invites' }).getByText(invitee.email).waitFor();

    await page.getByRole('navigation').getByRole('link', { name: 'User invites' }).click();
    const row = page.getByRole('row').filter({ hasText: invitee.email });
    await row.filter({ hasText: 'Harbour Energy BV' }).filter({ hasText: 'Read, Write' }).waitFor();

    const invitePath = await mailedInvitePath(invitee.email);
    const second = await launchBrowser();
    try {
      const other = await second.context.newPage();
      await other.goto(`${baseUrl}${invitePath}`);
      await other.getByLabel('Your name').fill(invitee.name);
      await other.getByLabel('Password').fill(invitee.password);
      const secret = (await other.getByTestId('two-factor-secret').textContent()) ?? '';
      await other.getByLabel('Code from the app').fill(await generate({ secret }));
      await other.getByRole('button', { name: 'Create account' }).click();
      const recoveryCode = (await other.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem').first().textContent()) ?? '';

      // A real sign-in of the new user: password, then a recovery code (the app's code of this
      // half minute was spent on accepting).
      await other.context().clearCookies();
      await other.goto(`${baseUrl}/login`);
      await other.getByLabel('Email').fill(invitee.email);
      await other.getByLabel('Password').fill(invitee.password);
      await other.getByRole('button', { name: 'Sign in', exact: true }).click();
      await other.getByRole('button', { name: 'Use a recovery code instead' }).click();
      await other.getByLabel('Recovery code').fill(recoveryCode);
      await other.getByRole('button', { name: 'Sign in', exact: true }).click();
      await other.getByRole('heading', { name: 'Teleports' }).waitFor();

      await other.goto(`${baseUrl}/access-management/my-organization`);
      const users = other.getByRole('table', { name: 'Users of your organisation' });
      await users.getByRole('row').filter({ hasText: invitee.name }).filter({ hasText: 'Read, Write' }).waitFor();
      await other.getByText('No open invites.').waitFor();
    } finally {
      await second.close();
    }

    // Accepted, the invite leaves the admin list.
    await page.reload();
    await page.getByText('No open invites match these filters.').waitFor();
  });

  it('shows an employee the invite and revoke controls disabled with the hint, and the server refuses them the calls', async () => {
    const invite = await t.services.userInvites.create(systemActor('test'), { organizationHashId, emails: ['later@harbour.example'] });
    await signInAsStaff(page, baseUrl, '/admin/user-invites', employee.email);
    await expectNoPermission(page.getByRole('button', { name: 'Invite users' }));
    await page.getByText('later@harbour.example').click();
    await expectNoPermission(page.getByRole('dialog').getByRole('button', { name: 'Revoke' }));
    await page.keyboard.press('Escape');

    await page.goto(`${baseUrl}/admin/user-invites/add?organizationHashId=${organizationHashId}`);
    await expectNoPermission(page.getByRole('button', { name: 'Send invites' }));
    await page.goto(`${baseUrl}/admin/organizations/${organizationHashId}/users`);
    await expectNoPermission(page.getByRole('button', { name: 'Invite users' }));

    const graphql = (query: string) => page.request.post(`${baseUrl}/graphql`, { data: { query } });
    const inviting = await graphql(
      `mutation { inviteUsers(input: { organizationHashId: "${organizationHashId}", emails: ["x@harbour.example"] }) { hashId } }`,
    );
    expect((await inviting.json()).errors?.[0]?.extensions?.code).toBe('forbidden');
    const revoking = await graphql(`mutation { revokeUserInvite(hashId: "${invite[0]?.hashId ?? ''}") }`);
    expect((await revoking.json()).errors?.[0]?.extensions?.code).toBe('forbidden');
    const rest = await page.request.post(`${baseUrl}/console-admin/v1/user-invite`, { data: { organizationHashId, emails: ['x@harbour.example'] } });
    expect(rest.status()).toBe(403);

    const customer = await t.services.users.create(systemActor('test'), {
      organizationHashId,
      name: 'Casey Customer',
      email: 'casey@harbour.example',
      rights: ['customer.read'],
    });
    await page.goto(`${baseUrl}/admin/users/${customer.hashId}/general`);
    await expectNoPermission(page.getByRole('button', { name: 'Save' }));
    const update = await page.request.put(`${baseUrl}/console-admin/v1/user/${customer.hashId}`, { data: { name: 'Renamed' } });
    expect(update.status()).toBe(403);
  });
});
