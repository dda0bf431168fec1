import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { exampleDeviceConfig } from '../../contracts/device';
import type { ForwardedMessage } from '../../contracts/forwarding';
import { GatewayClient } from '../../edge/gateway-client/client';
import { provision } from '../../edge/gateway-client/provision';
import { systemActor } from '../../graph/common/context';
import { defaultForwardingSettings } from '../../graph/forwarding/services/forwarding-settings';
import type { TestApp } from '../../test-support/app';
import { anOrganization, buildDeviceGroup, buildUser, providerHashId } from '../../test-support/factories';
import { browserAvailable, signInAsStaff, startConsole, type RunningConsole } from './browser';

const describeInBrowser = browserAvailable() ? describe : describe.skip;

const developer = { name: 'Devi Developer', email: 'devi.developer@gridport.example' };
const system = systemActor('test');
const statistics = { success: 1, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 0, responseError: 0 };
/** The example config's grid meter. */
const meterIndex = 2;
const reportCount = 5;

/** The HTTP endpoint the destination posts to: every message it was sent, in order. */
interface Receiver {
  url: string;
  messages: ForwardedMessage[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function startReceiver(): Promise<Receiver> {
  const messages: ForwardedMessage[] = [];
  const server: Server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const parsed = JSON.parse(body) as ForwardedMessage | ForwardedMessage[] | { messages: ForwardedMessage[] };
      messages.push(...(Array.isArray(parsed) ? parsed : 'messages' in parsed ? parsed.messages : [parsed]));
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/in`, messages, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The digits a health figure shows (the delivered count, the reports waiting). */
async function figure(page: Page, testId: string): Promise<number> {
  return Number((await page.getByTestId(testId).innerText()).replace(/\D/g, ''));
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describeInBrowser('forwarding in Chromium', () => {
  let running: RunningConsole | undefined;
  let t: TestApp;
  let baseUrl: string;
  let page: Page;
  let folder: string;
  let receiver: Receiver | undefined;
  let gateway: GatewayClient | undefined;
  let deviceHashId: string;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-forwarding-e2e-'));
    receiver = await startReceiver();
    // The receiver listens on 127.0.0.1: private networks allowed, as FORWARDING_ALLOW_PRIVATE_NETWORKS=true does.
    running = await startConsole({ hub: true, deliver: true, forwarding: { ...defaultForwardingSettings, allowPrivateNetworks: true, pollMs: 100 } });
    ({ t, baseUrl, page } = running);
    const organization = await anOrganization(t.services, { name: 'Harbour Energy BV' });
    await buildUser(t.services, { ...developer, organizationHashId: providerHashId(t.services), rights: ['gridport.developer', 'gridport.ops'] });
    await buildDeviceGroup(t.services, { organizationHashId: organization.hashId, name: 'North sites' });
    const group = (await t.services.deviceGroups.list(system, { filter: 'North sites', rowsPerPage: 1 })).rows[0];
    const shipped = await t.services.devices.ship(system, { organizationHashId: organization.hashId, name: 'Harbour meter' });
    deviceHashId = shipped.hashId;
    // In production in the group: only such devices' reports are forwarded.
    const ops = await t.signIn(['gridport.ops']);
    const placed = await t.app.inject({
      method: 'PUT',
      url: `/console-admin/v1/device/${deviceHashId}`,
      headers: { cookie: ops },
      payload: { config: exampleDeviceConfig, deviceGroupHashId: group?.hashId, inProduction: true },
    });
    expect(placed.statusCode).toBe(200);
    const identity = await provision({ baseUrl, token: shipped.provisioningToken, identifier: 'gw-harbour-meter', directory: path.join(folder, 'identity') });
    gateway = new GatewayClient({ baseUrl, identity, storeDirectory: path.join(folder, 'reports'), networkInterface: 'eth0', minBackoffMs: 50 });
    await gateway.start();
    await gateway.connected();
  });

  afterAll(async () => {
    await gateway?.stop();
    await running?.close();
    await receiver?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('lets staff create an HTTP destination, forward a group to it, and watch the lag fall to zero and the delivered count rise', async () => {
    const url = receiver?.url ?? '';
    await signInAsStaff(page, baseUrl, '/admin/message-destinations', developer.email);
    await page.getByRole('button', { name: 'Add message destination' }).click();
    await page.getByRole('link', { name: 'HTTP', exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill('Harbour webhook');
    await page.getByLabel('Search organisations by name').fill('Harbour');
    await page.getByRole('list', { name: 'Organisations found' }).getByRole('button', { name: 'Harbour Energy BV' }).click();
    await page.getByLabel('URL', { exact: true }).fill(url);
    // By keyboard: a click aims at coordinates, and the form's checks settling above the button can move it (seen once under load).
    await page.getByRole('button', { name: 'Add to Headers (optional)' }).press('Enter');
    await page.getByLabel('Headers (optional) 1: Name').fill('Authorization');
    await page.getByLabel('Headers (optional) 1: Value').fill('Bearer harbour-token');
    await page.getByRole('button', { name: 'Create message destination' }).click();
    await page.getByRole('heading', { name: 'Harbour webhook' }).waitFor();
    const destinationHashId = /^\/admin\/message-destinations\/([^/]+)\/general$/.exec(new URL(page.url()).pathname)?.[1] ?? '';
    expect(destinationHashId).not.toBe('');
    await page.getByText('Set — leave empty to keep.').waitFor();

    // The group forwards its meter reports there.
    const group = (await t.services.deviceGroups.list(system, { filter: 'North sites', rowsPerPage: 1 })).rows[0];
    await page.goto(`${baseUrl}/admin/device-groups/${group?.hashId ?? ''}/message-destinations`);
    await page.getByRole('button', { name: 'Add destination' }).click();
    await page.getByLabel('Search destinations by name').fill('Harbour');
    await page.getByRole('list', { name: 'Destinations found' }).getByRole('button', { name: 'Harbour webhook (HTTP)' }).click();
    await page.getByLabel('Meter power', { exact: true }).check();
    await page.getByRole('button', { name: 'Forward', exact: true }).click();
    await page.getByRole('table', { name: 'Forwarding to message destinations' }).getByRole('link', { name: 'Harbour webhook' }).waitFor();

    await page.goto(`${baseUrl}/admin/message-destinations/${destinationHashId}/general`);
    await page.getByTestId('health-delivered').waitFor();
    const deliveredBefore = await figure(page, 'health-delivered');

    const firstAt = Date.now() - 60_000;
    for (let index = 0; index < reportCount; index += 1) {
      await gateway?.report({
        type: 'meterPower',
        at: new Date(firstAt + index * 1000).toISOString(),
        asset: meterIndex,
        observations: { activePower: 4200 + index, connectionStatistics: statistics },
      });
    }

    // The page reads the health again while open: the reports are delivered, the lag falls to zero.
    await until('the delivered count to rise by every report', async () => (await figure(page, 'health-delivered')) >= deliveredBefore + reportCount, 60_000);
    await until('the lag to fall to zero', async () => (await figure(page, 'health-lag-reports')) === 0);
    expect(await page.getByTestId('health-state').innerText()).toBe('Active');
    const received = (receiver?.messages ?? []).filter((message) => message.device.hashId === deviceHashId && message.messageType === 'meterPower');
    expect(received.map((message) => message.values.activePower)).toEqual([4200, 4201, 4202, 4203, 4204]);
  });
});
