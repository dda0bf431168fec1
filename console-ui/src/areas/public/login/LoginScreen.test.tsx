import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { profile, renderConsole, signedOut, type FakeHandler } from '../../../test-support/render';

/** A login endpoint for a user with two-factor on: code 123456 and recovery code rc-1 work. */
const twoFactorLogin: FakeHandler = (call) => {
  if (call.path !== '/console-shared/v1/login') {
    return signedOut(call);
  }
  const body = call.body as Record<string, string>;
  if (body.password !== 'correct horse battery') {
    return { status: 401, body: { key: 'invalid_credentials' } };
  }
  if (body.code === undefined && body.recoveryCode === undefined) {
    return { status: 401, body: { key: '2fa_code_required' } };
  }
  if (body.code === '123456' || body.recoveryCode === 'rc-1') {
    return { status: 200, body: profile() };
  }
  return { status: 401, body: { key: '2fa_code_invalid' } };
};

async function fillCredentials(password = 'correct horse battery') {
  await userEvent.type(screen.getByLabelText('Email'), 'casey@example.com');
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('login', () => {
  it('signs in with email and password and opens the page asked for', async () => {
    const harness = renderConsole(`/login?redirect=${encodeURIComponent('/issues')}`, (call) =>
      call.path === '/console-shared/v1/login' ? { status: 200, body: profile() } : signedOut(call),
    );
    await screen.findByRole('heading', { name: 'Sign in to Gridport' });
    await fillCredentials();
    expect(await screen.findByRole('heading', { name: 'Issues' })).toBeInTheDocument();
    expect(harness.router.state.location.pathname).toBe('/issues');
    expect(harness.calls.find((call) => call.path === '/console-shared/v1/login')?.body).toEqual({
      email: 'casey@example.com',
      password: 'correct horse battery',
    });
  });

  it('says so when the email or password is wrong', async () => {
    renderConsole('/login', twoFactorLogin);
    await screen.findByRole('heading', { name: 'Sign in to Gridport' });
    await fillCredentials('wrong');
    expect(await screen.findByRole('alert')).toHaveTextContent('The email or password is wrong.');
  });

  it('asks for the two-factor code when the account has it on, and signs in with it', async () => {
    const harness = renderConsole('/login', twoFactorLogin);
    await screen.findByRole('heading', { name: 'Sign in to Gridport' });
    await fillCredentials();
    const code = await screen.findByLabelText('Two-factor code');
    await userEvent.type(code, '12345');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Exactly 6 characters')).toBeInTheDocument();
    await userEvent.type(code, '9');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('The code is not valid.')).toBeInTheDocument();
    await userEvent.clear(code);
    await userEvent.type(code, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Teleports' })).toBeInTheDocument();
    const logins = harness.calls.filter((call) => call.path === '/console-shared/v1/login').map((call) => call.body);
    expect(logins).toEqual([
      { email: 'casey@example.com', password: 'correct horse battery' },
      { email: 'casey@example.com', password: 'correct horse battery', code: '123459' },
      { email: 'casey@example.com', password: 'correct horse battery', code: '123456' },
    ]);
  });

  it('takes a recovery code instead of the two-factor code', async () => {
    const harness = renderConsole('/login', twoFactorLogin);
    await screen.findByRole('heading', { name: 'Sign in to Gridport' });
    await fillCredentials();
    await screen.findByLabelText('Two-factor code');
    await userEvent.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    await userEvent.type(screen.getByLabelText('Recovery code'), 'rc-1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Teleports' })).toBeInTheDocument();
    expect(harness.calls.filter((call) => call.path === '/console-shared/v1/login').at(-1)?.body).toEqual({
      email: 'casey@example.com',
      password: 'correct horse battery',
      recoveryCode: 'rc-1',
    });
  });

  it('checks the email with the shared schema before sending', async () => {
    const harness = renderConsole('/login', twoFactorLogin);
    await screen.findByRole('heading', { name: 'Sign in to Gridport' });
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    await userEvent.type(screen.getByLabelText('Password'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Invalid email (RFC 5322)')).toBeInTheDocument();
    expect(harness.calls.filter((call) => call.path === '/console-shared/v1/login')).toEqual([]);
  });

  it('tells of too many failed attempts', async () => {
    renderConsole('/login', (call) =>
      call.path === '/console-shared/v1/login' ? { status: 401, body: { key: 'too_many_failed_attempts' } } : signedOut(call),
    );
    await screen.findByRole('heading', { name: 'Sign in to Gridport' });
    await fillCredentials();
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many failed attempts. Try again in 15 minutes.');
  });

  it('sends staff to the SAML sign-in', async () => {
    const harness = renderConsole('/login', signedOut);
    await screen.findByRole('heading', { name: 'Sign in to Gridport' });
    await userEvent.click(screen.getByRole('button', { name: 'Staff sign in' }));
    expect(harness.left).toEqual([`/console-admin/v1/saml2/login?relayState=${encodeURIComponent('/admin/devices')}`]);
  });
});
