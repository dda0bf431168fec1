import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { profile, renderConsole, type FakeHandler, type SeenCall } from '../../test-support/render';

const whoamiSignedOut = (call: SeenCall) => (call.path === '/console-shared/v1/authentication/whoami' ? { status: 401, body: { key: 'unauthorized' } } : undefined);

/** A login endpoint for a user with two-factor on: code 123456 and recovery code rc-1 work. */
const twoFactorLogin: FakeHandler = (call) => {
  if (call.path !== '/console-shared/v1/login') {
    return whoamiSignedOut(call);
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
      call.path === '/console-shared/v1/login' ? { status: 200, body: profile() } : whoamiSignedOut(call),
    );
    await screen.findByRole('heading', { name: 'Sign in to Gridport' });
    await fillCredentials();
    expect(await screen.findByRole('heading', { name: 'Issues' })).toBeInTheDocument();
    expect(harness.router.state.location.pathname).toBe('/issues');
    expect(harness.calls.find((call) => call.path === '/console-shared/v1/login')?.body).toEqual({ email: 'casey@example.com', password: 'correct horse battery' });
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
    expect(await screen.findByText('code must be exactly 6 characters')).toBeInTheDocument();
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
    renderConsole('/login', (call) => (call.path === '/console-shared/v1/login' ? { status: 401, body: { key: 'too_many_failed_attempts' } } : whoamiSignedOut(call)));
    await screen.findByRole('heading', { name: 'Sign in to Gridport' });
    await fillCredentials();
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many failed attempts. Try again in 15 minutes.');
  });

  it('sends staff to the SAML sign-in', async () => {
    const harness = renderConsole('/login', whoamiSignedOut);
    await screen.findByRole('heading', { name: 'Sign in to Gridport' });
    await userEvent.click(screen.getByRole('button', { name: 'Staff sign in' }));
    expect(harness.left).toEqual([`/console-admin/v1/saml2/login?relayState=${encodeURIComponent('/admin/devices')}`]);
  });
});

describe('forgot password', () => {
  it('asks for the link and says it is on its way', async () => {
    const harness = renderConsole('/forgot-password', (call) => (call.path === '/console/v1/password-reset' ? { status: 204 } : whoamiSignedOut(call)));
    await screen.findByRole('heading', { name: 'Forgot password' });
    await userEvent.type(screen.getByLabelText('Email'), '  casey@example.com ');
    await userEvent.click(screen.getByRole('button', { name: 'Send link' }));
    expect(await screen.findByRole('status')).toHaveTextContent('If an account exists for casey@example.com, a link to reset the password is on its way.');
    expect(harness.calls.find((call) => call.path === '/console/v1/password-reset')).toEqual({
      method: 'POST',
      path: '/console/v1/password-reset',
      query: {},
      body: { email: 'casey@example.com' },
    });
  });

  it('tells of too many resets', async () => {
    renderConsole('/forgot-password', (call) =>
      call.path === '/console/v1/password-reset' ? { status: 429, body: { key: 'rate_limit_exceeded_for_password_reset' } } : whoamiSignedOut(call),
    );
    await screen.findByRole('heading', { name: 'Forgot password' });
    await userEvent.type(screen.getByLabelText('Email'), 'casey@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many password resets for this email. Try again in an hour.');
  });
});

describe('reset password', () => {
  const resetPath = `/reset-password?email=${encodeURIComponent('casey@example.com')}&code=abc`;

  it('sets the new password with the code of the link', async () => {
    const harness = renderConsole(resetPath, (call) => (call.path === '/console/v1/password-reset/reset' ? { status: 204 } : whoamiSignedOut(call)));
    await screen.findByRole('heading', { name: 'Choose a new password' });
    await userEvent.type(screen.getByLabelText('New password'), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('password must be at least 12 characters')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('New password'), ' but long now');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your password is changed. Sign in with the new one.');
    expect(harness.calls.find((call) => call.path === '/console/v1/password-reset/reset')).toEqual({
      method: 'POST',
      path: '/console/v1/password-reset/reset',
      query: { email: 'casey@example.com' },
      body: { password: 'short but long now', code: 'abc' },
    });
  });

  it('asks for a recovery code when the account has two-factor on', async () => {
    const harness = renderConsole(resetPath, (call) => {
      if (call.path !== '/console/v1/password-reset/reset') {
        return whoamiSignedOut(call);
      }
      return (call.body as { recoveryCode?: string }).recoveryCode === 'rc-1' ? { status: 204 } : { status: 401, body: { key: '2fa_code_required' } };
    });
    await screen.findByRole('heading', { name: 'Choose a new password' });
    await userEvent.type(screen.getByLabelText('New password'), 'a long new password');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    await userEvent.type(await screen.findByLabelText('Recovery code (only if two-factor is on)'), 'rc-1');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your password is changed.');
    expect(harness.calls.filter((call) => call.path === '/console/v1/password-reset/reset').at(-1)?.body).toEqual({ password: 'a long new password', code: 'abc', recoveryCode: 'rc-1' });
  });

  it('says when the link has expired', async () => {
    renderConsole(resetPath, (call) => (call.path === '/console/v1/password-reset/reset' ? { status: 410, body: { key: 'password_reset_expired' } } : whoamiSignedOut(call)));
    await screen.findByRole('heading', { name: 'Choose a new password' });
    await userEvent.type(screen.getByLabelText('New password'), 'a long new password');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This reset link has expired. Ask for a new one.');
  });

  it('says when the link is incomplete', async () => {
    renderConsole('/reset-password?email=casey%40example.com', whoamiSignedOut);
    expect(await screen.findByRole('alert')).toHaveTextContent('This reset link is incomplete. Open the link from the mail again.');
  });
});

describe('user invite', () => {
  const invite = { hashId: 'inv1', email: 'new@example.com', expiresAt: '2026-11-29T00:00:00.000Z', rights: ['customer.read'], organization: { hashId: 'o1', name: 'Solar Farms Ltd' } };

  function inviteServer(): FakeHandler {
    let challenges = 0;
    let signedIn = false;
    return (call) => {
      if (call.path === '/console-shared/v1/authentication/whoami') {
        return signedIn ? { status: 200, body: profile() } : { status: 401, body: { key: 'unauthorized' } };
      }
      if (call.query.code !== 'secret-code') {
        return { status: 400, body: { key: 'invalid_code' } };
      }
      if (call.path === '/console/v1/user-invite/inv1' && call.method === 'GET') {
        return { status: 200, body: invite };
      }
      if (call.path === '/console/v1/user-invite/inv1/create-challenge') {
        challenges += 1;
        return { status: 200, body: { secret: `SECRET${challenges}`, keyuri: `otpauth://totp/Gridport:new%40example.com?secret=SECRET${challenges}` } };
      }
      if (call.path === '/console/v1/user-invite/inv1' && call.method === 'POST') {
        const { twoFactorCode } = call.body as { twoFactorCode: string };
        if (twoFactorCode === '000000') {
          return { status: 410, body: { key: 'secret_expired' } };
        }
        if (twoFactorCode !== '654321') {
          return { status: 401, body: { key: '2fa_code_invalid' } };
        }
        signedIn = true;
        return { status: 201, body: { recoveryCodes: ['rc-a', 'rc-b'] } };
      }
      return undefined;
    };
  }

  it('sets up the account with two-factor, shows the recovery codes and continues signed in', async () => {
    const harness = renderConsole('/user-invite/inv1?code=secret-code', inviteServer());
    expect(await screen.findByRole('heading', { name: 'Join Solar Farms Ltd on Gridport' })).toBeInTheDocument();
    expect(screen.getByText('You were invited as new@example.com.')).toBeInTheDocument();
    expect(screen.getByTestId('two-factor-secret')).toHaveTextContent('SECRET1');
    expect(screen.getByRole('link', { name: 'Open in authenticator app' })).toHaveAttribute('href', 'otpauth://totp/Gridport:new%40example.com?secret=SECRET1');
    await userEvent.type(screen.getByLabelText('Your name'), 'Nia New');
    await userEvent.type(screen.getByLabelText('Password'), 'a long new password');
    await userEvent.type(screen.getByLabelText('Code from the app'), '111111');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('The code is not valid.')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Code from the app'));
    await userEvent.type(screen.getByLabelText('Code from the app'), '654321');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('heading', { name: 'Your recovery codes' })).toBeInTheDocument();
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['rc-a', 'rc-b']);
    await userEvent.click(screen.getByRole('button', { name: 'Continue to Gridport' }));
    expect(await screen.findByRole('heading', { name: 'Teleports' })).toBeInTheDocument();
    expect(harness.calls.filter((call) => call.method === 'POST' && call.path === '/console/v1/user-invite/inv1').at(-1)?.body).toEqual({
      name: 'Nia New',
      password: 'a long new password',
      twoFactorCode: '654321',
    });
  });

  it('shows a new key when the first has expired', async () => {
    renderConsole('/user-invite/inv1?code=secret-code', inviteServer());
    await screen.findByRole('heading', { name: 'Join Solar Farms Ltd on Gridport' });
    await userEvent.type(screen.getByLabelText('Your name'), 'Nia New');
    await userEvent.type(screen.getByLabelText('Password'), 'a long new password');
    await userEvent.type(screen.getByLabelText('Code from the app'), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(screen.getByTestId('two-factor-secret')).toHaveTextContent('SECRET2'));
    expect(screen.getByText('The key has expired. A new one is shown; add it to your app again.')).toBeInTheDocument();
  });

  it('says when the invite is not valid', async () => {
    renderConsole('/user-invite/inv1?code=wrong', inviteServer());
    expect(await screen.findByRole('alert')).toHaveTextContent('This invite is not valid any more. Ask for a new one.');
  });
});
