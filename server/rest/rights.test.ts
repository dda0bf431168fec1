import { hasAnyRight, rights, type Right } from '../../contracts/rights';
import { isStaffRight } from '../../contracts/rights';
import { testApp, type TestApp } from '../../test-support/app';
import { anOrganization } from '../../test-support/factories';
import { routeAccess } from './route';

/**
 * Every route with every right: anonymous callers get 401; a console session whose right the
 * route does not name gets 403; one whose right it names gets past the check (whatever the
 * placeholder ids and empty bodies then earn). Routes for API keys only refuse sessions.
 */
describe('rights on every route', () => {
  let t: TestApp;
  const sessions = new Map<Right, string>();

  beforeAll(async () => {
    t = await testApp();
    const customer = await anOrganization(t.services, { name: 'Rights BV' });
    for (const right of rights) {
      sessions.set(right, await t.signIn([right], isStaffRight(right) ? undefined : customer.hashId));
    }
  });

  afterAll(async () => {
    await t.close();
  });

  const placeholder = (url: string) => url.replace(/:contactId/g, '1').replace(/:[A-Za-z]+/g, 'aaaaaaaa');

  it('are listed: the identity routes are all there', () => {
    expect(routeAccess.size).toBeGreaterThan(30);
  });

  it('answer anonymous callers 401 and sessions by their right', async () => {
    const wrong: string[] = [];
    for (const route of routeAccess.values()) {
      if (route.auth === 'public') {
        continue;
      }
      const url = placeholder(route.url);
      const call = (cookie?: string) =>
        t.app.inject({
          method: route.method as 'GET',
          url,
          headers: cookie ? { cookie, 'content-type': 'application/json' } : { 'content-type': 'application/json' },
          payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}',
        });
      const anonymous = await call();
      if (anonymous.statusCode !== 401) {
        wrong.push(`${route.method} ${route.url} anonymous: ${anonymous.statusCode}`);
      }
      for (const right of rights) {
        const response = await call(sessions.get(right));
        const allowed = route.actors.includes('user') && hasAnyRight([right], route.auth);
        // Refused for who is calling (rights or kind of session), not for the state of things.
        const body = response.json() as { key: string; details?: { required?: unknown; reason?: string } };
        const refused =
          response.statusCode === 403 &&
          body.key === 'forbidden' &&
          (body.details?.required !== undefined || /^this route needs/.test(body.details?.reason ?? ''));
        if (allowed === refused || response.statusCode === 401) {
          wrong.push(`${route.method} ${route.url} as ${right}: ${response.statusCode} ${response.body.slice(0, 80)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
