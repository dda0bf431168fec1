import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderConsole, signedOut } from '../../../test-support/render';

describe('reset password', () => {
  const resetPath = `/reset-password?email=${encodeURIComponent('casey@example.com')}&code=abc`;

  it('sets the new password with the code of the link', async () => {
    const harness = renderConsole(resetPath, (call) => (call.path === '/console/v1/password-reset/reset' ? { status: 204 } : signedOut(call)));
    await screen.findByRole('heading', { name: 'Choose a new password' });
    await userEvent.type(screen.getByLabelText('New password'), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('At least 12 characters')).toBeInTheDocument();
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
        return signedOut(call);
      }
      return (call.body as { recoveryCode?: string }).recoveryCode === 'rc-1' ? { status: 204 } : { status: 401, body: { key: '2fa_code_required' } };
    });
    await screen.findByRole('heading', { name: 'Choose a new password' });
    await userEvent.type(screen.getByLabelText('New password'), 'a long new password');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    await userEvent.type(await screen.findByLabelText('Recovery code (only if two-factor is on)'), 'rc-1');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your password is changed.');
    expect(harness.calls.filter((call) => call.path === '/console/v1/password-reset/reset').at(-1)?.body).toEqual({
      password: 'a long new password',
      code: 'abc',
      recoveryCode: 'rc-1',
    });
  });

  it('says when the link has expired', async () => {
    renderConsole(resetPath, (call) =>
      call.path === '/console/v1/password-reset/reset' ? { status: 410, body: { key: 'password_reset_expired' } } : signedOut(call),
    );
    await screen.findByRole('heading', { name: 'Choose a new password' });
    await userEvent.type(screen.getByLabelText('New password'), 'a long new password');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This reset link has expired. Ask for a new one.');
  });

  it('says when the link is incomplete', async () => {
    renderConsole('/reset-password?email=casey%40example.com', signedOut);
    expect(await screen.findByRole('alert')).toHaveTextContent('This reset link is incomplete. Open the link from the mail again.');
  });
});
