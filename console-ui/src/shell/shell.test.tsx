import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { adminMessages } from '../i18n/messages/admin';
import { customerMessages } from '../i18n/messages/customer';
import { navigate, profile, renderConsole, signedOut, type FakeHandler } from '../test-support/render';

const signedIn =
  (rights = profile().user.rights): FakeHandler =>
  (call) => {
    if (call.path === '/console-shared/v1/authentication/whoami') {
      return { status: 200, body: profile(rights) };
    }
    if (call.path === '/console-shared/v1/authentication/session' && call.method === 'DELETE') {
      return { status: 204 };
    }
    return undefined;
  };

describe('the shell', () => {
  it('redirects / to the device list of the customer area and shows the signed-in user', async () => {
    const harness = renderConsole('/', signedIn());
    expect(await screen.findByRole('heading', { name: 'Teleports' })).toBeInTheDocument();
    expect(harness.router.state.location.pathname).toBe('/teleports');
    expect(screen.getByTestId('signed-in-user')).toHaveTextContent('Casey CustomerSolar Farms Ltd');
  });

  it('sends a signed-out customer to the login screen with the page to return to', async () => {
    const harness = renderConsole('/issues?status=open', signedOut);
    expect(await screen.findByRole('heading', { name: 'Sign in to Gridport' })).toBeInTheDocument();
    expect(harness.router.state.location.pathname).toBe('/login');
    expect(harness.router.state.location.search).toBe(`?redirect=${encodeURIComponent('/issues?status=open')}`);
  });

  it('sends a signed-out visitor of the admin area to the SAML sign-in with the page as relay state', async () => {
    const harness = renderConsole('/admin/devices/abc/timeline', signedOut);
    await waitFor(() => expect(harness.left).toEqual([`/console-admin/v1/saml2/login?relayState=${encodeURIComponent('/admin/devices/abc/timeline')}`]));
  });

  it.each([
    ['/nothing/here', '/teleports'],
    ['/teleports/abc', '/teleports/abc/general'],
    ['/access-management', '/access-management/my-organization'],
  ])('the customer route table sends %s to %s', async (from, to) => {
    const harness = renderConsole(from, signedIn());
    await waitFor(() => expect(harness.router.state.location.pathname).toBe(to));
  });

  it.each([
    ['/admin', '/admin/devices'],
    ['/admin/unknown/path', '/admin/devices'],
    ['/admin/devices/abc', '/admin/devices/abc/timeline'],
    ['/admin/device-groups/g1', '/admin/device-groups/g1/general'],
    ['/admin/organizations/o1', '/admin/organizations/o1/general'],
    ['/admin/organizations/o1/billing', '/admin/organizations/o1/billing/invoices'],
  ])('the admin route table sends %s to %s', async (from, to) => {
    const harness = renderConsole(from, signedIn(['gridport.ops']));
    await waitFor(() => expect(harness.router.state.location.pathname).toBe(to));
  });

  it('keeps customers out of the admin area and staff out of the customer area', async () => {
    const customer = renderConsole('/admin/devices', signedIn());
    await waitFor(() => expect(customer.router.state.location.pathname).toBe('/teleports'));
    customer.unmount();
    const staff = renderConsole('/teleports', signedIn(['gridport.employee']));
    await waitFor(() => expect(staff.router.state.location.pathname).toBe('/admin/devices'));
  });

  it('loads an area’s texts when the area changes and only then', async () => {
    const loader = jest.fn(async (area: 'admin' | 'customer') => (area === 'admin' ? adminMessages : customerMessages));
    const harness = renderConsole('/admin/devices', signedIn(['gridport.admin']), { loadMessages: loader });
    expect(await screen.findByRole('heading', { name: 'Devices' })).toBeInTheDocument();
    await navigate(harness, '/admin/users');
    await navigate(harness, '/admin/issues');
    expect(await screen.findByRole('heading', { name: 'Issues' })).toBeInTheDocument();
    expect(loader.mock.calls).toEqual([['admin']]);
    await navigate(harness, '/forgot-password');
    await navigate(harness, '/reset-password');
    expect(loader.mock.calls).toEqual([['admin'], ['customer']]);
    await navigate(harness, '/admin/devices');
    expect(loader.mock.calls).toEqual([['admin'], ['customer'], ['admin']]);
    expect(harness.services.messages.currentArea).toBe('admin');
  });

  it('shows the loading bar while the route check runs and while calls are in flight', async () => {
    let answerWhoami: () => void = () => undefined;
    let answerIssues: () => void = () => undefined;
    const harness = renderConsole('/issues', (call) => {
      if (call.path === '/console-shared/v1/authentication/whoami') {
        return new Promise((resolve) => (answerWhoami = () => resolve({ status: 200, body: profile() })));
      }
      if (call.path === '/console/v1/issue') {
        return new Promise((resolve) => (answerIssues = () => resolve({ status: 200, body: { rows: [] } })));
      }
      return undefined;
    });
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
    await act(async () => answerWhoami());
    expect(await screen.findByRole('heading', { name: 'Issues' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).toBeNull();
    let call: Promise<unknown> = Promise.resolve();
    act(() => {
      call = harness.services.rest.request('/console/v1/issue');
    });
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
    await act(async () => {
      answerIssues();
      await call;
    });
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('asks who is signed in once, not on every navigation', async () => {
    const harness = renderConsole('/teleports', signedIn());
    await screen.findByRole('heading', { name: 'Teleports' });
    await navigate(harness, '/issues');
    await navigate(harness, '/settings');
    expect(harness.calls.filter((call) => call.path === '/console-shared/v1/authentication/whoami')).toHaveLength(1);
  });

  it('signs out: ends the session on the server and opens the login screen', async () => {
    const harness = renderConsole('/teleports', signedIn());
    await screen.findByRole('heading', { name: 'Teleports' });
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Gridport' })).toBeInTheDocument();
    // The session's calls (the screen's own GraphQL queries aside).
    expect(harness.calls.filter((call) => call.path.startsWith('/console-shared/')).map((call) => `${call.method} ${call.path}`)).toEqual([
      'GET /console-shared/v1/authentication/whoami',
      'DELETE /console-shared/v1/authentication/session',
    ]);
    expect(harness.services.session.getState().status).toBe('loggedOut');
  });
});
