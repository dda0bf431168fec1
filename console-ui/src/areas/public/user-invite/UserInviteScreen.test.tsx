import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { profile, renderConsole, type FakeHandler } from '../../../test-support/render';

describe('user invite', () => {
  const invite = {
    hashId: 'inv1',
    email: 'new@example.com',
    expiresAt: '2026-11-29T00:00:00.000Z',
    rights: ['customer.read'],
    organization: { hashId: 'o1', name: 'Solar Farms Ltd' },
  };

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
    expect(await screen.findByRole('img', { name: 'QR code of the key: scan it with your authenticator app' })).toBeInTheDocument();
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
