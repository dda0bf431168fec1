import type { Page } from 'playwright-core';
import { systemActor } from '../../graph/common/context';
import type { TestApp } from '../../test-support/app';
import { anOrganization, buildDevice, buildIssue, providerHashId } from '../../test-support/factories';
import { browserAvailable, signInAsCustomer, signInAsStaff, startConsole, type RunningConsole } from './browser';

const describeInBrowser = browserAvailable() ? describe : describe.skip;

const customer = { name: 'Casey Customer', email: 'casey@example.com', password: 'correct horse battery staple' };
const staff = { name: 'Olivia Ops', email: 'olivia.ops@gridport.example' };
const monitoringNote = 'The gateway has been offline since 05:00.';

describeInBrowser('the issue screens in Chromium', () => {
  let running: RunningConsole | undefined;
  let t: TestApp;
  let baseUrl: string;
  let page: Page;
  let deviceHashId: string;
  let issueHashId: string;

  beforeAll(async () => {
    running = await startConsole();
    ({ t, baseUrl, page } = running);
    const organization = await anOrganization(t.services, { name: 'Harbour Energy BV' });
    const system = systemActor('test');
    await t.services.users.create(system, {
      organizationHashId: organization.hashId,
      name: customer.name,
      email: customer.email,
      rights: ['customer.read', 'customer.write'],
      password: customer.password,
    });
    await t.services.users.create(system, { organizationHashId: providerHashId(t.services), name: staff.name, email: staff.email, rights: ['gridport.ops'] });
    deviceHashId = (await buildDevice(t.services, { organizationHashId: organization.hashId, name: 'Harbour battery' })).hashId;
    const issue = await buildIssue(t.services, {
      deviceHashId,
      title: 'Harbour battery offline',
      source: 'monitoring',
      gridportIssueOwner: true,
      autoClose: true,
    });
    issueHashId = issue.hashId;
    await buildIssue(t.services, { organizationHashId: organization.hashId, title: 'Question about the invoice' });

    // What the monitor told the customer, as a message on the issue's timeline.
    const ops = await t.signIn(['gridport.ops']);
    const posted = await t.app.inject({
      method: 'POST',
      url: '/console-admin/v1/issue-messages',
      headers: { cookie: ops },
      payload: { issueHashId, message: monitoringNote },
    });
    expect(posted.statusCode).toBe(201);
  });

  afterAll(async () => {
    await running?.close();
  });

  it('lets a customer open an issue from the list, read its timeline and post a message that appears live', async () => {
    await signInAsCustomer(page, baseUrl, customer.email, customer.password);

    await page.getByRole('navigation').getByRole('link', { name: 'Issues' }).click();
    await page.getByRole('heading', { name: 'Issues' }).waitFor();
    await page.getByRole('button', { name: 'Open (2)' }).waitFor();
    await page.getByRole('row').filter({ hasText: 'Question about the invoice' }).waitFor();
    await page.getByRole('row').filter({ hasText: 'Harbour battery offline' }).click();

    await page.getByRole('heading', { name: 'Harbour battery offline' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/issues/${issueHashId}`);
    expect(await page.getByRole('link', { name: 'Harbour battery' }).getAttribute('href')).toBe(`/teleports/${deviceHashId}/general`);
    await page.getByTestId('issue-message').filter({ hasText: monitoringNote }).waitFor();
    // Customers may not upload files: there is no attach control.
    expect(await page.getByLabel('Attach files').count()).toBe(0);

    await page.getByLabel('Message', { exact: true }).fill('Our site lost power; it is back since 06:10.');
    await page.getByRole('button', { name: 'Send message' }).click();
    // The issueTimeline subscription brings the new message into the timeline.
    await page.getByTestId('issue-message').filter({ hasText: 'Our site lost power; it is back since 06:10.' }).filter({ hasText: customer.name }).waitFor();
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe('');
    expect(await page.getByTestId('issue-message').count()).toBe(2);

    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByRole('button', { name: 'Unsubscribe' }).waitFor();
    await page.getByTestId('issue-subscribers').getByText(customer.name).waitFor();
  });

  it('lets staff filter the list, assign the issue, post an internal message and resolve it', async () => {
    await signInAsStaff(page, baseUrl, '/admin/issues', staff.email);
    await page.getByRole('heading', { name: 'Issues' }).waitFor();
    await page.getByRole('row').filter({ hasText: 'Question about the invoice' }).waitFor();

    // The device is found by name and kept in the address as its hash id.
    await page.getByLabel('Device: search devices by name').fill('Harbour');
    await page
      .getByRole('list', { name: 'Device: devices found' })
      .getByRole('button', { name: /Harbour battery/ })
      .click();
    await page.getByText(/^Chosen: Harbour battery/).waitFor();
    await page.getByLabel('Status').selectOption('open');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL((url) => url.searchParams.get('deviceHashId') === deviceHashId);
    await page.getByRole('row').filter({ hasText: 'Question about the invoice' }).waitFor({ state: 'detached' });
    await page.getByRole('row').filter({ hasText: 'Harbour battery offline' }).click();
    await page.getByRole('heading', { name: 'Harbour battery offline' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/admin/issues/${issueHashId}`);
    // What the customer wrote, and ops may attach files.
    await page.getByTestId('issue-message').filter({ hasText: 'Our site lost power' }).waitFor();
    await page.getByLabel('Attach files').waitFor();

    await page.getByRole('button', { name: 'Assign', exact: true }).click();
    const assign = page.getByRole('dialog', { name: 'Assign the issue' });
    await assign.getByLabel('Search users by name or email').fill('Olivia');
    await assign.getByLabel(/Olivia Ops/).check();
    await assign.getByRole('button', { name: 'Assign', exact: true }).click();
    await page.getByTestId('issue-assignee').getByText(staff.name).waitFor();
    // The assignment is on the timeline as an audit entry, brought live.
    await page.getByTestId('audit-entry').filter({ hasText: 'Updated' }).filter({ hasText: 'assignedUser' }).first().waitFor();
    // The diff names the user it assigned, read through the users list by hash id (not shown as the hash id).
    await page.getByTestId('diff-entry').filter({ hasText: 'assignedUser' }).filter({ hasText: staff.name }).first().waitFor();

    expect(await page.getByLabel('Internal (staff only)').isChecked()).toBe(true);
    await page.getByLabel('Message', { exact: true }).fill('Asked the installer to check the breaker.');
    await page.getByLabel('Attach files').setInputFiles({ name: 'breaker.txt', mimeType: 'text/plain', buffer: Buffer.from('Breaker B2 tripped at 05:02.\n') });
    await page.getByRole('list', { name: 'Attachments' }).getByRole('link', { name: 'breaker.txt' }).waitFor();
    await page.getByRole('button', { name: 'Send message' }).click();
    const internal = page.getByTestId('issue-message').filter({ hasText: 'Asked the installer to check the breaker.' }).filter({ hasText: 'Internal' });
    await internal.waitFor();
    // The attached file is served to who may see the issue.
    const href = await internal.getByRole('link', { name: 'breaker.txt' }).getAttribute('href');
    const file = await page.request.get(`${baseUrl}${href ?? ''}`);
    expect(await file.text()).toBe('Breaker B2 tripped at 05:02.\n');

    await page.getByRole('button', { name: 'Resolve', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Resolve this issue?' });
    await confirm.getByRole('button', { name: 'Resolve', exact: true }).click();
    await page.getByRole('button', { name: 'Reopen', exact: true }).waitFor();
    expect(await page.getByTestId('issue-status').first().textContent()).toBe('Resolved');

    const resolved = await t.services.issues.get(systemActor('test'), issueHashId);
    expect(resolved).toMatchObject({ status: 'resolved', assignedUser: { name: staff.name } });
  });
});
