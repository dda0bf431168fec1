import type { Page } from 'playwright-core';
import { systemActor } from '../../graph/common/context';
import type { TestApp } from '../../test-support/app';
import { anOrganization, providerHashId } from '../../test-support/factories';
import { browserAvailable, expectNoPermission, signInAsStaff, startConsole, type RunningConsole } from './browser';

const describeInBrowser = browserAvailable() ? describe : describe.skip;

const sales = { name: 'Sasha Sales', email: 'sasha.sales@gridport.example' };
const employee = { name: 'Eli Employee', email: 'eli.employee@gridport.example' };

describeInBrowser('the organisation screens in Chromium', () => {
  let running: RunningConsole | undefined;
  let t: TestApp;
  let baseUrl: string;
  let page: Page;
  let harbourHashId: string;

  beforeAll(async () => {
    running = await startConsole();
    ({ t, baseUrl, page } = running);
    harbourHashId = (await anOrganization(t.services, { name: 'Harbour Energy BV' })).hashId;
    const system = systemActor('test');
    const provider = providerHashId(t.services);
    await t.services.users.create(system, { organizationHashId: provider, name: sales.name, email: sales.email, rights: ['gridport.sales'] });
    await t.services.users.create(system, { organizationHashId: provider, name: employee.name, email: employee.email, rights: ['gridport.employee'] });
  });

  afterAll(async () => {
    await running?.close();
  });

  it('lets sales create an organisation, find it by name (a filter the address keeps), change it and see the change in its history', async () => {
    await signInAsStaff(page, baseUrl, '/admin/organizations', sales.email);
    await page.getByRole('heading', { name: 'Organisations' }).waitFor();
    await page.getByRole('row').filter({ hasText: 'Harbour Energy BV' }).waitFor();

    await page.getByRole('button', { name: 'Add organisation' }).click();
    await page.getByRole('heading', { name: 'New organisation' }).waitFor();
    // Checked in the browser before anything is sent, in the console's words (forms/validation-texts.ts, which the
    // built bundle must run before the contracts' schemas are made).
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await page.getByRole('alert').nth(1).waitFor();
    expect(await page.getByRole('alert').allTextContents()).toEqual(['Required', 'Required']);
    await page.getByLabel('Name').fill('Northwind Solar');
    await page.getByLabel('Type').selectOption('asset-owner');
    await page.getByLabel('Invoice frequency').selectOption('daily');
    await page.getByLabel('Charge period (months)').fill('1');
    await page.getByLabel('Runtime (months)').fill('12');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await page.getByRole('heading', { name: 'Northwind Solar' }).waitFor();
    const created = new URL(page.url()).pathname;
    expect(created).toMatch(/^\/admin\/organizations\/[^/]+\/general$/);
    expect(await page.getByTestId('object-subtitle').textContent()).toBe('Asset owner');

    await page.getByRole('navigation').getByRole('link', { name: 'Organisations' }).click();
    // The list, not the organisation left behind: its form has a Name field too.
    await page.getByRole('row').filter({ hasText: 'Harbour Energy BV' }).waitFor();
    await page.getByLabel('Name').fill('northwind');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL((url) => url.searchParams.get('filter') === 'northwind');
    await page.getByRole('row').filter({ hasText: 'Harbour Energy BV' }).waitFor({ state: 'detached' });
    await page.getByRole('row').filter({ hasText: 'Northwind Solar' }).waitFor();
    // A reload (or a link) opens the same view.
    await page.reload();
    await page.getByRole('row').filter({ hasText: 'Northwind Solar' }).waitFor();
    expect(await page.getByLabel('Name').inputValue()).toBe('northwind');
    expect(await page.getByRole('row').filter({ hasText: 'Harbour Energy BV' }).count()).toBe(0);

    await page.getByRole('row').filter({ hasText: 'Northwind Solar' }).click();
    await page.waitForURL((url) => url.pathname === created);
    await page.getByLabel('Invoice customer reference').fill('PO-2026-17');
    await page.getByRole('button', { name: 'Save organisation' }).click();
    const history = page.getByRole('list', { name: 'History' });
    await history.getByTestId('diff-entry').filter({ hasText: 'invoiceCustomerReference' }).filter({ hasText: 'PO-2026-17' }).waitFor();
    expect(await page.getByLabel('Invoice customer reference').inputValue()).toBe('PO-2026-17');
    const saved = await t.services.organizations.get(systemActor('test'), created.split('/')[3] ?? '');
    expect(saved).toMatchObject({
      name: 'Northwind Solar',
      type: 'asset-owner',
      invoiceFrequency: 'daily',
      invoiceCustomerReference: 'PO-2026-17',
      subscriptionDefaults: { chargePeriod: 1, runtime: 12 },
    });
  });

  it('shows an employee the add and save controls disabled with the hint, and the server refuses the same calls', async () => {
    await signInAsStaff(page, baseUrl, '/admin/organizations', employee.email);
    await page.getByRole('row').filter({ hasText: 'Harbour Energy BV' }).waitFor();
    await expectNoPermission(page.getByRole('button', { name: 'Add organisation' }));

    await page.goto(`${baseUrl}/admin/organizations/${harbourHashId}/general`);
    await page.getByRole('heading', { name: 'Harbour Energy BV' }).waitFor();
    expect(await page.getByLabel('Name').isDisabled()).toBe(true);
    await expectNoPermission(page.getByRole('button', { name: 'Save organisation' }));

    const graphql = await page.request.post(`${baseUrl}/graphql`, {
      data: { query: 'mutation { createOrganization(input: { name: "Sneaky BV", type: INSTALLER }) { hashId } }' },
    });
    const answer = (await graphql.json()) as { errors?: { extensions?: { code?: string } }[] };
    expect(answer.errors?.map((error) => error.extensions?.code)).toEqual(['forbidden']);
    const rest = await page.request.post(`${baseUrl}/console-admin/v1/organization`, { data: { name: 'Sneaky BV', type: 'installer' } });
    expect(rest.status()).toBe(403);
    expect(await rest.json()).toEqual(expect.objectContaining({ key: 'forbidden' }));
    const update = await page.request.put(`${baseUrl}/console-admin/v1/organization/${harbourHashId}`, { data: { name: 'Renamed' } });
    expect(update.status()).toBe(403);
  });
});
