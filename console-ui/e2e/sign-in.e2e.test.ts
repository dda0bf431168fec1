import type { Page } from 'playwright-core';
import { systemActor } from '../../graph/common/context';
import type { TestApp } from '../../test-support/app';
import { anOrganization } from '../../test-support/factories';
import { browserAvailable, startConsole, type RunningConsole } from './browser';

const describeInBrowser = browserAvailable() ? describe : describe.skip;

const customer = { name: 'Casey Customer', email: 'casey@example.com', password: 'correct horse battery staple' };

describeInBrowser('the console in Chromium', () => {
  let running: RunningConsole | undefined;
  let t: TestApp;
  let baseUrl: string;
  let page: Page;
  let organizationName: string;

  beforeAll(async () => {
    running = await startConsole();
    ({ t, baseUrl, page } = running);
    const organization = await anOrganization(t.services, { name: 'Solar Farms Ltd' });
    organizationName = organization.name;
    await t.services.users.create(systemActor('test'), {
      organizationHashId: organization.hashId,
      name: customer.name,
      email: customer.email,
      rights: ['customer.read', 'customer.write'],
      password: customer.password,
    });
  });

  afterAll(async () => {
    await running?.close();
  });

  it('serves the console for a deep link and /release.json', async () => {
    const release = await page.request.get(`${baseUrl}/release.json`);
    expect(await release.json()).toEqual({ version: 'test' });
    const response = await page.goto(`${baseUrl}/teleports/abc/configuration`);
    expect(response?.status()).toBe(200);
    // Signed out: the route check sends the deep link to the login screen, to come back after.
    await page.getByRole('heading', { name: 'Sign in to Gridport' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/teleports/abc/configuration');
  });

  it('signs a customer in through the login screen, shows the signed-in shell, and signs out', async () => {
    await page.goto(`${baseUrl}/`);
    await page.getByRole('heading', { name: 'Sign in to Gridport' }).waitFor();
    await page.getByLabel('Email').fill(customer.email);
    await page.getByLabel('Password').fill('a wrong password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('The email or password is wrong.').waitFor();

    await page.getByLabel('Password').fill(customer.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Teleports' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/teleports');
    expect(await page.getByTestId('signed-in-user').textContent()).toBe(`${customer.name}${organizationName}`);
    expect(await page.getByRole('navigation').getByRole('link').allTextContents()).toEqual(['Teleports', 'Issues', 'Access management', 'Settings']);

    // The session survives a reload (the cookie), and the route table's redirects apply.
    await page.goto(`${baseUrl}/access-management`);
    await page.getByRole('heading', { name: 'My organisation' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/access-management/my-organization');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Gridport' }).waitFor();
    const whoami = await page.request.get(`${baseUrl}/console-shared/v1/authentication/whoami`);
    expect(whoami.status()).toBe(401);
    await page.goto(`${baseUrl}/teleports`);
    await page.getByRole('heading', { name: 'Sign in to Gridport' }).waitFor();
  });
});
