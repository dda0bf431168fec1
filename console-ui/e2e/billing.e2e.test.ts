import { spawnSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { systemActor } from '../../graph/common/context';
import type { CliIo } from '../../server/cli';
import { parseCommand, runDatabaseCommand, type DatabaseCommand } from '../../server/operator-commands';
import type { TestApp } from '../../test-support/app';
import { anOrganization, buildUser, providerHashId } from '../../test-support/factories';
import { browserAvailable, signInAsStaff, startConsole, type RunningConsole } from './browser';

const describeInBrowser = browserAvailable() ? describe : describe.skip;

const staff = { name: 'Bea Billing', email: 'bea.billing@gridport.example' };
const system = systemActor('test');

/** `gridport billing invoice ...` as the command line runs it, against the test server's database. */
async function gridport(t: TestApp, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const lines: string[] = [];
  const errors: string[] = [];
  const io: CliIo = { out: (text) => lines.push(text), err: (text) => errors.push(text) };
  const parsed = parseCommand(argv, io);
  if (parsed.kind !== 'run') {
    return { code: parsed.code, out: lines.join('\n'), err: errors.join('\n') };
  }
  const code = await runDatabaseCommand(parsed.command as DatabaseCommand, parsed.values, t.services, [], io);
  return { code, out: lines.join('\n'), err: errors.join('\n') };
}

/** Fetches `url` in the page, with the page's session cookie: its type and bytes. */
async function fetchInPage(page: Page, url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const answer = await page.evaluate(async (target) => {
    const response = await fetch(target, { credentials: 'same-origin' });
    const bytes = new Uint8Array(await response.arrayBuffer());
    let binary = '';
    for (const byte of bytes) {
      binary += String.fromCharCode(byte);
    }
    return { status: response.status, type: response.headers.get('content-type'), base64: btoa(binary) };
  }, url);
  return { status: answer.status, type: answer.type, bytes: Buffer.from(answer.base64, 'base64') };
}

describeInBrowser('billing in Chromium', () => {
  let running: RunningConsole | undefined;
  let t: TestApp;
  let baseUrl: string;
  let page: Page;
  let organizationHashId: string;
  let deviceHashId: string;

  beforeAll(async () => {
    running = await startConsole();
    ({ t, baseUrl, page } = running);
    const organization = await anOrganization(t.services, { name: 'Polder Solar BV' });
    organizationHashId = organization.hashId;
    await buildUser(t.services, { ...staff, organizationHashId: providerHashId(t.services), rights: ['gridport.ops', 'gridport.developer'] });
    deviceHashId = (await t.services.devices.ship(system, { organizationHashId, name: 'Polder inverter' })).hashId;
  });

  afterAll(async () => {
    await running?.close();
  });

  it("lets staff set an organisation's pricing, add a manual charge to a device, and open the invoice the command line made, and its PDF", async () => {
    // Pricing: usage with tiers of its own and one rate; a tier of volume 0 is refused in the form.
    await signInAsStaff(page, baseUrl, `/admin/organizations/${organizationHashId}/billing`, staff.email);
    await page.waitForURL((url) => url.pathname.endsWith('/billing/invoices'));
    await page.getByText('No invoices yet.').waitFor();
    await page.getByRole('navigation', { name: 'Billing' }).getByRole('link', { name: 'Pricing' }).click();
    await page.getByText('No tiers of its own: the default tiers apply', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('button', { name: 'Add tier' }).click();
    await page.getByLabel('Tier 1: up to units').fill('0');
    await page.getByLabel('Tier 1: discount %').fill('0');
    await page.getByRole('button', { name: 'Save pricing' }).click();
    await page.getByText('Tier volume must be positive').waitFor();
    await page.getByLabel('Tier 1: up to units').fill('100');
    await page.getByRole('button', { name: 'Add tier' }).click();
    await page.getByLabel('Tier 2: up to units').fill('1000');
    await page.getByLabel('Tier 2: discount %').fill('10');
    await page.getByLabel('asset.solar (default € 29,18)').fill('20');
    await page.getByRole('button', { name: 'Save pricing' }).click();
    await page.getByRole('list', { name: 'Volume tiers' }).getByText('1000: 10 %').waitFor();
    await page.getByTestId('forecast-monthly').waitFor();
    const saved = await t.services.organizations.get(system, organizationHashId);
    expect(saved.pricing).toEqual({
      type: 'usage',
      rates: { 'asset.solar': 20 },
      tiers: [
        { volume: 100, discount: 0 },
        { volume: 1000, discount: 10 },
      ],
      expiresAt: null,
    });

    // A manual charge on the device, in euro, billable in January.
    await page.goto(`${baseUrl}/admin/devices/${deviceHashId}/billing`);
    await page.waitForURL((url) => url.pathname.endsWith('/billing/subscription'));
    await page.getByRole('link', { name: 'Add charge' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a charge' });
    await dialog.getByLabel('Description').fill('Gateway hardware');
    await dialog.getByLabel('Amount in euro').fill('1234,5');
    await dialog.getByLabel('Ledger account').selectOption('hardware');
    await dialog.getByLabel('Billable at (empty: now)').fill('2026-01-15T10:00');
    await dialog.getByRole('button', { name: 'Add charge' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/billing/charges'));
    const charges = page.getByRole('table', { name: 'Charges' });
    await charges.getByText('Gateway hardware').waitFor();
    await charges.getByText('€ 1.234,50').waitFor();

    // The invoicing job from the command line, at a moment after the charge's month.
    const run = await gridport(t, ['billing', 'invoice', '--organization', organizationHashId, '--at', '2026-02-01T12:00:00Z']);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const publicId = /^(GP-2026-\d{6}) /.exec(run.out)?.[1] ?? '';
    expect(publicId).toMatch(/^GP-2026-\d{6}$/);

    // The invoice in the console: its charge, its totals, and its PDF.
    await page.goto(`${baseUrl}/admin/organizations/${organizationHashId}/billing/invoices`);
    await page.getByRole('table', { name: 'Invoices' }).getByRole('link', { name: publicId }).click();
    await page.getByRole('heading', { name: publicId }).waitFor();
    await page.getByRole('table', { name: 'Charges on this invoice' }).getByText('Gateway hardware').waitFor();
    const totals = page.getByRole('table', { name: 'Totals per ledger account' });
    await totals
      .getByRole('row', { name: /Hardware/ })
      .getByText('€ 1.234,50')
      .waitFor();
    const pdfLink = page.getByRole('link', { name: 'Open the PDF' });
    const pdfUrl = (await pdfLink.getAttribute('href')) ?? '';
    expect(pdfUrl).toMatch(/^\/console-admin\/v1\/billing-invoice\/\w+\/pdf$/);
    const popupOpened = page.context().waitForEvent('page');
    await pdfLink.click();
    const popup = await popupOpened;
    expect(popup.url()).toBe(`${baseUrl}${pdfUrl}`);
    await popup.close();

    const pdf = await fetchInPage(page, pdfUrl);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toMatch(/^application\/pdf/);
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = spawnSync('pdftotext', ['-layout', '-', '-'], { input: pdf.bytes });
    expect(text.status).toBe(0);
    expect(text.stdout.toString()).toContain(publicId);
    expect(text.stdout.toString()).toContain('Gateway hardware');
  });
});
