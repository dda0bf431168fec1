import type { Page } from 'playwright-core';
import { exampleDeviceConfig } from '../../contracts/device';
import { systemActor } from '../../graph/common/context';
import type { TestApp } from '../../test-support/app';
import { anOrganization, buildDevice, buildPartnership, providerHashId } from '../../test-support/factories';
import { browserAvailable, expectNoPermission, signInAsCustomer, signInAsStaff, startConsole, type RunningConsole } from './browser';

const describeInBrowser = browserAvailable() ? describe : describe.skip;

const developer = { name: 'Dana Developer', email: 'dana.developer@gridport.example' };
const employee = { name: 'Eli Employee', email: 'eli.employee@gridport.example' };
const partnerUser = { name: 'Pat Partner', email: 'pat@grid-traders.example', password: 'correct horse battery staple' };

describeInBrowser('API keys and partnerships in Chromium', () => {
  let running: RunningConsole | undefined;
  let t: TestApp;
  let baseUrl: string;
  let page: Page;
  let ownerHashId: string;
  let partnerHashId: string;
  let deviceHashId: string;
  let existingKeyHashId: string;

  beforeAll(async () => {
    running = await startConsole();
    ({ t, baseUrl, page } = running);
    const system = systemActor('test');
    ownerHashId = (await anOrganization(t.services, { name: 'Harbour Energy BV' })).hashId;
    partnerHashId = (await anOrganization(t.services, { name: 'Grid Traders BV' })).hashId;
    // Customers see devices exposed to them; the API reads those whose cloud API is on.
    deviceHashId = (
      await buildDevice(t.services, {
        organizationHashId: ownerHashId,
        name: 'Harbour battery',
        config: exampleDeviceConfig,
        isExposedToCustomer: true,
        cloudApi: 'READ',
      })
    ).hashId;
    await buildDevice(t.services, { organizationHashId: partnerHashId, name: 'Traders own meter', config: exampleDeviceConfig, isExposedToCustomer: true });
    for (const [user, rights] of [
      [developer, ['gridport.developer']],
      [employee, ['gridport.employee']],
    ] as const) {
      await t.services.users.create(system, { organizationHashId: providerHashId(t.services), name: user.name, email: user.email, rights: [...rights] });
    }
    await t.services.users.create(system, {
      organizationHashId: partnerHashId,
      name: partnerUser.name,
      email: partnerUser.email,
      rights: ['customer.read'],
      password: partnerUser.password,
    });
    // What the employee sees (and may not change): a key and a partnership of another organisation pair.
    existingKeyHashId = (await t.services.apiKeys.create(system, { organizationHashId: ownerHashId, name: 'Existing key', ipRanges: [], publicKey: null }))
      .hashId;
    await buildPartnership(t.services, { ownerOrganizationHashId: ownerHashId, description: 'Earlier partnership', allDevices: true });

    await running.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  });

  afterAll(async () => {
    await running?.close();
  });

  it("lets a developer make an API key that reads the organisation's devices, and share a device that the partner then sees", async () => {
    await signInAsStaff(page, baseUrl, `/admin/organizations/${ownerHashId}/api-keys`, developer.email);
    await page.getByRole('row').filter({ hasText: 'Existing key' }).waitFor();
    await page.getByRole('button', { name: 'Create API key' }).click();
    const create = page.getByRole('dialog', { name: 'Create an API key' });
    await create.getByLabel('Name').fill('Trading desk');
    await create.getByRole('button', { name: 'Create', exact: true }).click();

    const shown = page.getByRole('dialog', { name: 'API key created' });
    await shown.getByText('it is shown only this once', { exact: false }).waitFor();
    const secret = (await shown.getByTestId('api-key-secret').textContent()) ?? '';
    expect(secret.length).toBeGreaterThan(20);
    await shown.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Secret copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    const devices = await page.request.get(`${baseUrl}/v2/device`, { headers: { authorization: `Bearer ${secret}` } });
    expect(devices.status()).toBe(200);
    expect(((await devices.json()) as { devices: { hashId: string }[] }).devices.map((device) => device.hashId)).toEqual([deviceHashId]);

    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('heading', { name: 'Trading desk' }).waitFor();
    await page.getByText(`${developer.name} <${developer.email}>`).waitFor();

    await page.goto(`${baseUrl}/admin/organizations/${ownerHashId}/partnerships`);
    await page.getByRole('table', { name: 'Partnerships' }).getByText('Earlier partnership').waitFor();
    await page.getByRole('button', { name: 'Create partnership' }).click();
    const share = page.getByRole('dialog', { name: 'Create a partnership' });
    await share.getByLabel('Search organisations by name').fill('Grid Traders');
    await share.getByRole('list', { name: 'Organisations found' }).getByRole('button', { name: 'Grid Traders BV' }).click();
    await share.getByLabel('Description').fill('Trading on the day-ahead market');
    await share.getByLabel('Search devices by name or identifier').fill('Harbour');
    await share
      .getByRole('list', { name: 'Devices found' })
      .getByRole('button', { name: /^Harbour battery/ })
      .click();
    await share.getByRole('list', { name: 'Chosen devices' }).getByText('Harbour battery').waitFor();
    await share.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('row').filter({ hasText: 'Harbour Energy BV → Grid Traders BV' }).filter({ hasText: 'Listed (1): Harbour battery' }).waitFor();

    await signInAsCustomer(page, baseUrl, partnerUser.email, partnerUser.password);
    const teleports = page.getByRole('table', { name: 'Teleports' });
    await teleports.getByText('Harbour battery').waitFor();
    await teleports.getByText('Traders own meter').waitFor();
    await page.goto(`${baseUrl}/access-management/accepted-partnerships`);
    const accepted = page.getByRole('table', { name: 'Accepted partnerships' }).getByRole('row').filter({ hasText: 'Harbour Energy BV' });
    await accepted.getByText('Trading on the day-ahead market').waitFor();
    await accepted.locator('summary').click();
    expect(await accepted.getByRole('link', { name: 'Harbour battery' }).getAttribute('href')).toBe(`/teleports/${deviceHashId}/general`);
  });

  it('shows an employee the keys and partnerships with every write control disabled, and the server refuses the writes', async () => {
    await signInAsStaff(page, baseUrl, `/admin/organizations/${ownerHashId}/api-keys`, employee.email);
    await page.getByRole('row').filter({ hasText: 'Existing key' }).waitFor();
    await expectNoPermission(page.getByRole('button', { name: 'Create API key' }));

    await page.goto(`${baseUrl}/admin/organizations/${ownerHashId}/api-keys/${existingKeyHashId}`);
    await page.getByRole('heading', { name: 'Existing key' }).waitFor();
    for (const name of ['Edit', 'Reset secret', 'Delete']) {
      await expectNoPermission(page.getByRole('button', { name, exact: true }));
    }

    await page.goto(`${baseUrl}/admin/organizations/${ownerHashId}/partnerships`);
    const earlier = page.getByRole('row').filter({ hasText: 'Earlier partnership' });
    await earlier.waitFor();
    await expectNoPermission(page.getByRole('button', { name: 'Create partnership' }));
    await expectNoPermission(earlier.getByRole('button', { name: 'Edit' }));
    await expectNoPermission(earlier.getByRole('button', { name: 'Delete' }));

    const graphql = (query: string, variables: Record<string, unknown>) => page.request.post(`${baseUrl}/graphql`, { data: { query, variables } });
    const createKey = await graphql('mutation($input: ApiKeyCreateInput!) { createApiKey(input: $input) { hashId } }', {
      input: { organizationHashId: ownerHashId, name: 'Not allowed' },
    });
    const createPartnership = await graphql('mutation($input: PartnershipCreateInput!) { createPartnership(input: $input) { hashId } }', {
      input: { ownerOrganizationHashId: ownerHashId, partnerOrganizationHashId: partnerHashId, role: 'VIEWER', allDevices: true },
    });
    // GraphQL answers the refusal as an error with the catalogue's key; REST as the key's status.
    for (const refused of [createKey, createPartnership]) {
      expect(((await refused.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe('forbidden');
    }
    const restKey = await page.request.post(`${baseUrl}/v1/api-key`, { data: { organizationHashId: ownerHashId, name: 'Not allowed' } });
    expect(restKey.status()).toBe(403);
    const restPartnership = await page.request.post(`${baseUrl}/console-admin/v1/partnership`, {
      data: { ownerOrganizationHashId: ownerHashId, partnerOrganizationHashId: partnerHashId, role: 'viewer', allDevices: true },
    });
    expect(restPartnership.status()).toBe(403);
  });
});
