import { act, screen } from '@testing-library/react';
import { profile, renderConsole, type FakeHandler } from '../test-support/render';
import { sessionExpiryRedirectMs } from './session-store';

/** Signed in until the session lapses: then every call is 401 with `key`. */
function lapsingSession(key: string): { handler: FakeHandler; lapse: () => void } {
  let lapsed = false;
  const handler: FakeHandler = (call) => {
    if (call.path === '/console-shared/v1/authentication/session' && call.method === 'DELETE') {
      return { status: 204 };
    }
    if (lapsed) {
      return { status: 401, body: { key } };
    }
    if (call.path === '/console-shared/v1/authentication/whoami') {
      return { status: 200, body: profile() };
    }
    if (call.path === '/graphql') {
      // The issue and device lists' queries, answered empty.
      const counts = { openCount: 0, assignedToMeCount: 0, assignedToMyOrganizationCount: 0 };
      const devices = { rows: [], nextPageOffset: null, count: 0 };
      const deviceCount = { totalCount: 0, operationalCount: 0, inactiveCount: 0 };
      return { status: 200, body: { data: { issues: { rows: [], nextPageOffset: null }, issueCount: counts, devices, deviceCount } } };
    }
    return { status: 200, body: { rows: [] } };
  };
  return { handler, lapse: () => (lapsed = true) };
}

describe('session expiry', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it.each(['jwt_expired', 'unauthorized'])('a %s while signed in shows the message, then after 3 s signs out to the login screen', async (key) => {
    const session = lapsingSession(key);
    const harness = renderConsole('/issues?status=open', session.handler);
    expect(await screen.findByRole('heading', { name: 'Issues' })).toBeInTheDocument();
    jest.useFakeTimers();
    session.lapse();
    await act(async () => {
      await expect(harness.services.rest.request('/console/v1/issue')).rejects.toMatchObject({ kind: 'unauthorized', key });
    });
    expect(screen.getByRole('status')).toHaveTextContent('Your session has expired. Please sign in again.');
    expect(sessionExpiryRedirectMs).toBe(3000);
    await act(async () => {
      await jest.advanceTimersByTimeAsync(2999);
    });
    expect(harness.left).toEqual([]);
    await act(async () => {
      await jest.advanceTimersByTimeAsync(1);
    });
    expect(harness.left).toEqual([`/login?redirect=${encodeURIComponent('/issues?status=open')}`]);
    expect(harness.calls.at(-1)).toEqual({ method: 'DELETE', path: '/console-shared/v1/authentication/session', query: {}, body: undefined });
    expect(harness.services.session.getState().status).toBe('unknown');
  });

  it('a second failure during the message does not redirect twice', async () => {
    const session = lapsingSession('jwt_expired');
    const harness = renderConsole('/teleports', session.handler);
    await screen.findByRole('heading', { name: 'Teleports' });
    jest.useFakeTimers();
    session.lapse();
    await act(async () => {
      await Promise.allSettled([harness.services.rest.request('/console/v1/device'), harness.services.rest.request('/console/v1/device/count')]);
    });
    await act(async () => {
      await jest.advanceTimersByTimeAsync(3000);
    });
    expect(harness.left).toEqual([`/login?redirect=${encodeURIComponent('/teleports')}`]);
  });

  it('a wrong password before signing in is not a session expiry', async () => {
    const harness = renderConsole('/login', (call) =>
      call.path === '/console-shared/v1/authentication/whoami' || call.path === '/console-shared/v1/login'
        ? { status: 401, body: { key: call.path.endsWith('login') ? 'invalid_credentials' : 'unauthorized' } }
        : undefined,
    );
    await screen.findByRole('heading', { name: 'Sign in to Gridport' });
    await act(async () => {
      await expect(harness.services.session.login({ email: 'a@example.com', password: 'x' })).rejects.toMatchObject({ key: 'invalid_credentials' });
    });
    expect(harness.services.session.getState()).toEqual({ status: 'loggedOut', profile: null, failure: null, expired: false });
  });
});
