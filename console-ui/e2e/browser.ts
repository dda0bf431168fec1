import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { consoleBuildFolder } from '../../server/rest/console.routes';
import { testApp, type TestApp, type TestAppOptions } from '../../test-support/app';

/** Debian's Chromium: the only browser the console's tests use. */
export const chromiumPath = '/usr/bin/chromium';

/** Headless, offline-friendly: no first-run, sync, component updates or background traffic. */
const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const required = (name: string) => /^(1|true|yes|on)$/i.test(process.env[name] ?? '');

/**
 * Whether the browser tests can run here. Without Chromium they skip, saying so, unless
 * REQUIRE_BROWSER=1 or REQUIRE_SERVICES=1 (CI installs Chromium and must not skip silently).
 */
export function browserAvailable(): boolean {
  if (existsSync(chromiumPath)) {
    return true;
  }
  if (required('REQUIRE_BROWSER') || required('REQUIRE_SERVICES')) {
    throw new Error(`REQUIRE_BROWSER or REQUIRE_SERVICES is set but ${chromiumPath} is missing: install Debian's chromium package`);
  }
  process.stderr.write(
    `Skipping the console's browser tests: ${chromiumPath} is missing (apt-get install chromium; REQUIRE_BROWSER=1 or REQUIRE_SERVICES=1 makes this a failure).\n`,
  );
  return false;
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Chromium with a fresh profile in a temporary folder, removed on close. */
export async function launchBrowser(): Promise<Browser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'gridport-chromium-'));
  // headless: Playwright passes --headless itself; the profile folder is --user-data-dir.
  const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath, headless: true, args: chromiumFlags });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A test server (GraphQL on, PGlite) serving the built console, and Chromium with one page. */
export interface RunningConsole {
  t: TestApp;
  baseUrl: string;
  browser: Browser;
  page: Page;
  /** Closes the browser, then the server. */
  close(): Promise<void>;
}

/**
 * Starts the built console on a test server listening on a free port, and a browser with a page
 * open. Test data can be added through `t.services` afterwards: the server reads it per request.
 * Fails at once when the console is not built, rather than timing out on a missing page.
 */
export async function startConsole(options: TestAppOptions = {}): Promise<RunningConsole> {
  if (!existsSync(path.join(consoleBuildFolder, 'index.html'))) {
    throw new Error(`the console is not built in ${consoleBuildFolder}: run npm run build:console (npm run test:e2e does)`);
  }
  const t = await testApp({}, { graphql: true, ...options });
  try {
    const baseUrl = await t.listen();
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      return {
        t,
        baseUrl,
        browser,
        page,
        close: async () => {
          await browser.close();
          await t.close();
        },
      };
    } catch (error) {
      await browser.close();
      throw error;
    }
  } catch (error) {
    await t.close();
    throw error;
  }
}

/**
 * Signs a staff user in through the development identity provider by opening `path` (an admin
 * screen): the console sends staff to SAML, the provider asks which staff user signs in.
 */
export async function signInAsStaff(page: Page, baseUrl: string, path: string, email: string): Promise<void> {
  await page.context().clearCookies();
  await page.goto(`${baseUrl}${path}`);
  await page.locator('input[name="email"]').fill(email);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/admin'));
}

/** Signs a customer user in with email and password on /login, and waits for the device list. */
export async function signInAsCustomer(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.context().clearCookies();
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Teleports' }).waitFor();
}

/** Checks that `control` is disabled and that hovering it shows the "No permission" hint. */
export async function expectNoPermission(control: Locator): Promise<void> {
  await control.waitFor();
  if (!(await control.isDisabled())) {
    throw new Error(`expected ${control.toString()} to be disabled for want of rights`);
  }
  // A disabled button takes no pointer events itself: hover the tooltip's anchor around it.
  await control.locator('xpath=..').hover();
  await control.page().getByRole('tooltip', { name: 'No permission' }).waitFor();
  await control.page().mouse.move(0, 0);
}
