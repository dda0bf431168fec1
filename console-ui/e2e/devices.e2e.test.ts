import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { exampleDeviceConfig } from '../../contracts/device';
import { providerOrganizationId } from '../../contracts/limits';
import { GatewayClient } from '../../edge/gateway-client/client';
import { provision } from '../../edge/gateway-client/provision';
import { systemActor } from '../../graph/common/context';
import type { TestApp } from '../../test-support/app';
import { anOrganization } from '../../test-support/factories';
import { browserAvailable, signInAsCustomer, signInAsStaff, startConsole, type RunningConsole } from './browser';

const describeInBrowser = browserAvailable() ? describe : describe.skip;

const customer = { name: 'Dana Devices', email: 'dana@example.com', password: 'correct horse battery staple' };
const staffEmail = 'olivia.ops@gridport.example';
const statistics = { success: 1, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 0, responseError: 0 };
/** The example config's grid meter. */
const meterIndex = 2;

/** The example config with the battery limiter's second limit window moved into its first. */
function overlappingConfig(): unknown {
  const config = structuredClone(exampleDeviceConfig) as unknown as { activeControl: { limitSchedule?: { start: string }[] }[] };
  const second = config.activeControl[1]?.limitSchedule?.[1];
  if (second === undefined) {
    throw new Error('the example config has no second limit window');
  }
  second.start = '10:00';
  return config;
}

describeInBrowser('the device screens in Chromium', () => {
  let running: RunningConsole | undefined;
  let t: TestApp;
  let baseUrl: string;
  let page: Page;
  let folder: string;
  let gateway: GatewayClient;
  let hashId: string;

  /** A meter report from the gateway, now. */
  const meterPower = (watts: number) =>
    gateway.report({
      type: 'meterPower',
      at: new Date().toISOString(),
      asset: meterIndex,
      observations: { activePower: watts, connectionStatistics: statistics },
    });

  /**
   * Sends the meter's power until the page shows `shown`: the page's subscription starts when
   * the screen opens, and a report stored before it is not sent to it.
   */
  async function driveUntilShown(watts: number, shown: string): Promise<void> {
    const figure = page.getByTestId(`live-power-${meterIndex}`).getByText(shown, { exact: true });
    for (let attempt = 0; attempt < 20; attempt += 1) {
      await meterPower(watts);
      try {
        await figure.waitFor({ timeout: 1_000 });
        return;
      } catch {
        // Not subscribed yet: send again.
      }
    }
    throw new Error(`the live value never showed ${shown}`);
  }

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-devices-e2e-'));
    running = await startConsole({ hub: true });
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
    await t.services.users.create(system, {
      organizationHashId: t.hashIds.encode('organization', providerOrganizationId),
      name: 'Olivia Ops',
      email: staffEmail,
      rights: ['gridport.ops'],
    });
    const shipped = await t.services.devices.ship(system, { organizationHashId: organization.hashId, name: 'Harbour battery' });
    hashId = shipped.hashId;
    const ops = await t.signIn(['gridport.ops']);
    const exposed = await t.app.inject({
      method: 'PUT',
      url: `/console-admin/v1/device/${hashId}`,
      headers: { cookie: ops },
      payload: { config: exampleDeviceConfig, isExposedToCustomer: true },
    });
    expect(exposed.statusCode).toBe(200);

    const identity = await provision({ baseUrl, token: shipped.provisioningToken, identifier: 'gw-harbour', directory: path.join(folder, 'identity') });
    gateway = new GatewayClient({
      baseUrl,
      identity,
      storeDirectory: path.join(folder, 'reports'),
      networkInterface: 'eth0',
      minBackoffMs: 50,
      // The device's answer to debugPing: an ack report echoing the payload.
      onMessage: async ({ id, payload }) => {
        const message = payload as { type?: string; payload?: string };
        if (message.type === 'debugPing') {
          await gateway.report({
            type: 'ack',
            at: new Date().toISOString(),
            observations: { messageId: id, messageType: 'debugPing', payload: message.payload ?? '' },
          });
        }
      },
    });
    await gateway.start();
    await gateway.connected();
  });

  afterAll(async () => {
    await gateway?.stop();
    await running?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('shows a customer their devices, a live value changing, the schema message for overlapping windows; then signs out', async () => {
    await signInAsCustomer(page, baseUrl, customer.email, customer.password);
    await page.getByTestId('device-count').getByText('1 teleports').waitFor();
    await page.getByRole('button', { name: 'All (1)' }).waitFor();

    await page.getByRole('row').filter({ hasText: 'Harbour battery' }).click();
    await page.getByRole('heading', { name: 'Harbour battery' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/teleports/${hashId}/general`);
    expect(await page.getByTestId(`live-asset-${meterIndex}`).locator('dt').textContent()).toBe('grid-meter');
    await driveUntilShown(12_345, '12.3 kW');
    await meterPower(-250_000);
    await page.getByTestId(`live-power-${meterIndex}`).getByText('-250 kW', { exact: true }).waitFor();
    // The chart is drawn (uPlot's canvas), and on a phone it fits the screen: nothing scrolls sideways.
    await page.getByTestId('power-chart').locator('canvas').waitFor();
    const desktopWidth = (await page.getByTestId('power-chart').locator('canvas').boundingBox())?.width ?? 0;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(() => (document.querySelector('[data-testid="power-chart"] canvas')?.getBoundingClientRect().width ?? 1000) <= 390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(desktopWidth).toBeGreaterThan(390);
    if (process.env.CONSOLE_SCREENSHOTS) {
      await page.screenshot({ path: path.join(process.env.CONSOLE_SCREENSHOTS, 'device-general-phone.png'), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('link', { name: 'Configuration' }).click();
    await page.getByRole('status').getByText('The configuration is valid.').waitFor();
    await page.getByLabel('Configuration').fill(JSON.stringify(overlappingConfig(), null, 2));
    await page.getByTestId('config-issues').getByText('Invalid schedules: time windows cannot overlap.').waitFor();
    expect(await page.getByTestId('config-issues').locator('li').allTextContents()).toEqual([
      'activeControl[1].limitSchedule[1] Invalid schedules: time windows cannot overlap.',
    ]);
    expect(await page.getByRole('button', { name: 'Save configuration' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Gridport' }).waitFor();
  });

  it('signs staff in through SAML into the device timeline, which shows reports and the answer to a debugPing live', async () => {
    // Signed out whatever the test before did.
    await signInAsStaff(page, baseUrl, `/admin/devices/${hashId}/timeline`, staffEmail);
    await page.getByRole('heading', { name: 'Live reports' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/admin/devices/${hashId}/timeline`);
    expect(await page.getByTestId('signed-in-user').textContent()).toContain('Olivia Ops');
    // Beside the live reports, the device's history from the audit log with each entry's typed diff.
    await page.getByRole('heading', { name: 'History' }).waitFor();
    await page.getByTestId('audit-entry').filter({ hasText: 'Device shipped' }).waitFor();
    await page.getByTestId('audit-entry').filter({ hasText: 'Updated' }).getByTestId('diff-entry').filter({ hasText: 'isExposedToCustomer:No→Yes' }).waitFor();

    const meterItem = page.getByTestId('timeline-item').filter({ hasText: 'meterPower' }).filter({ hasText: '"activePower":4321' });
    for (let attempt = 0; attempt < 20 && (await meterItem.count()) === 0; attempt += 1) {
      await meterPower(4_321);
      await page.waitForTimeout(500);
    }
    await meterItem.first().waitFor();

    await page.getByRole('link', { name: 'Debugging' }).click();
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText(/^Message .+ queued\.$/).waitFor();
    await page.getByTestId('timeline-item').filter({ hasText: 'ack' }).filter({ hasText: '"payload":"ping from the console"' }).waitFor();
  });
});
