import type { Page } from 'playwright-core';
import { systemActor } from '../../graph/common/context';
import type { TestApp } from '../../test-support/app';
import { anOrganization, buildApiKey, buildDevice, buildDeviceGroup, buildUser, providerHashId } from '../../test-support/factories';
import { browserAvailable, expectNoPermission, signInAsStaff, startConsole, type RunningConsole } from './browser';

const describeInBrowser = browserAvailable() ? describe : describe.skip;

const ops = { name: 'Olivia Ops', email: 'olivia.ops@gridport.example' };
const employee = { name: 'Eddie Employee', email: 'eddie.employee@gridport.example' };
const system = systemActor('test');

describeInBrowser('the device group screens in Chromium', () => {
  let running: RunningConsole | undefined;
  let t: TestApp;
  let baseUrl: string;
  let page: Page;
  let organizationHashId: string;
  let deviceHashId: string;
  let apiKeyHashId: string;
  /** A group with a linked key, for the staff user who may only look. */
  let shownGroupHashId: string;

  beforeAll(async () => {
    running = await startConsole();
    ({ t, baseUrl, page } = running);
    organizationHashId = (await anOrganization(t.services, { name: 'Harbour Energy BV' })).hashId;
    await buildUser(t.services, { ...ops, rights: ['gridport.ops'] });
    await buildUser(t.services, { ...employee, organizationHashId: providerHashId(t.services), rights: ['gridport.employee'] });
    deviceHashId = (await buildDevice(t.services, { organizationHashId, name: 'Harbour battery' })).hashId;
    apiKeyHashId = (await buildApiKey(t.services, { organizationHashId, name: 'Trader feed' })).hashId;
    shownGroupHashId = (await buildDeviceGroup(t.services, { organizationHashId, name: 'South sites' })).hashId;
    await t.services.deviceGroups.linkApiKey(system, { deviceGroupHashId: shownGroupHashId, apiKeyHashId });
  });

  afterAll(async () => {
    await running?.close();
  });

  it('lets ops create a group, move a device into it, see the delete refused while it has the device, and link an API key', async () => {
    await signInAsStaff(page, baseUrl, '/admin/device-groups', ops.email);
    await page.getByRole('button', { name: 'Add device group' }).click();
    await page.getByLabel('Name', { exact: true }).fill('North sites');
    const organization = page.getByRole('group', { name: 'Organisation' });
    await organization.getByLabel('Search organisations by name').fill('Harbour');
    await organization.getByRole('list', { name: 'Organisations found' }).getByRole('button', { name: 'Harbour Energy BV' }).click();
    await page.getByLabel('Outage emails: new email').fill('ops@harbour.example');
    await page.getByRole('button', { name: 'Add email' }).click();
    await page.getByRole('button', { name: 'Create device group' }).click();
    await page.getByRole('heading', { name: 'North sites' }).waitFor();
    const groupHashId = /^\/admin\/device-groups\/([^/]+)\/general$/.exec(new URL(page.url()).pathname)?.[1] ?? '';
    expect(await t.services.deviceGroups.get(system, groupHashId)).toMatchObject({
      organizationHashId,
      deviceOutageEmails: ['ops@harbour.example'],
      deviceCount: 0,
    });
    await page.getByText('No device is in this group.', { exact: false }).waitFor();

    // The device joins the group from its settings.
    await page.goto(`${baseUrl}/admin/devices/${deviceHashId}/settings`);
    const placement = page.getByRole('form', { name: 'Organisation and group' });
    await placement.getByTestId('chosen-organization').getByText('Harbour Energy BV').waitFor();
    await placement.getByLabel('Device group').selectOption({ label: 'North sites' });
    await placement.getByRole('button', { name: 'Save organisation and group' }).click();
    await page.getByText('The device was saved.').waitFor();
    await placement.getByRole('link', { name: 'Open the group' }).click();
    await page.getByRole('table', { name: 'Devices in this group' }).getByRole('link', { name: 'Harbour battery' }).waitFor();

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog', { name: 'Delete this device group?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('delete-refusal').getByText('This group still has 1 device; move it out first', { exact: false }).waitFor();

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Search API keys by name').fill('Trader');
    await page.getByRole('list', { name: 'API keys found' }).getByRole('button', { name: 'Trader feed' }).click();
    await page.getByRole('button', { name: 'Link API key' }).click();
    await page.getByRole('table', { name: 'Linked API keys' }).getByRole('link', { name: 'Trader feed' }).waitFor();
    expect(await t.services.deviceGroups.get(system, groupHashId)).toMatchObject({ deviceCount: 1, apiKeys: [{ hashId: apiKeyHashId, name: 'Trader feed' }] });
  });

  it('shows staff who may only look every write control disabled with the hint, and the server refuses them', async () => {
    await signInAsStaff(page, baseUrl, '/admin/device-groups', employee.email);
    await expectNoPermission(page.getByRole('button', { name: 'Add device group' }));
    await page.goto(`${baseUrl}/admin/device-groups/add`);
    await expectNoPermission(page.getByRole('button', { name: 'Create device group' }));

    await page.goto(`${baseUrl}/admin/device-groups/${shownGroupHashId}/general`);
    await page.getByRole('heading', { name: 'South sites' }).waitFor();
    await expectNoPermission(page.getByRole('button', { name: 'Delete', exact: true }));
    await expectNoPermission(page.getByRole('button', { name: 'Save device group' }));
    await page.getByRole('link', { name: 'API keys' }).click();
    await expectNoPermission(page.getByRole('button', { name: 'Link API key' }));
    await expectNoPermission(page.getByRole('button', { name: 'Unlink Trader feed' }));

    await page.goto(`${baseUrl}/admin/devices/${deviceHashId}/settings`);
    await expectNoPermission(page.getByRole('button', { name: 'Save organisation and group' }));
    await expectNoPermission(page.getByRole('button', { name: 'Save outage contacts' }));

    // The same session asking the server directly: refused over GraphQL and over REST.
    const graphql = await page.request.post(`${baseUrl}/graphql`, {
      data: {
        query: 'mutation Create($input: DeviceGroupCreateInput!) { createDeviceGroup(input: $input) { hashId } }',
        variables: { input: { name: 'Sneaky', organizationHashId } },
      },
    });
    expect(((await graphql.json()) as { errors?: { extensions?: { code?: string } }[] }).errors?.[0]?.extensions?.code).toBe('forbidden');
    const rest = await page.request.post(`${baseUrl}/console-admin/v1/device-group`, { data: { name: 'Sneaky', organizationHashId } });
    expect(rest.status()).toBe(403);
    expect(await rest.json()).toMatchObject({ key: 'forbidden' });
    expect((await t.services.deviceGroups.list(system, { filter: 'Sneaky', rowsPerPage: 50 })).rows).toEqual([]);
  });
});
