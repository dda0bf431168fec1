import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderConsole, signedOut } from '../../../test-support/render';

describe('forgot password', () => {
  it('asks for the link and says it is on its way', async () => {
    const harness = renderConsole('/forgot-password', (call) => (call.path === '/console/v1/password-reset' ? { status: 204 } : signedOut(call)));
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
      call.path === '/console/v1/password-reset' ? { status: 429, body: { key: 'rate_limit_exceeded_for_password_reset' } } : signedOut(call),
    );
    await screen.findByRole('heading', { name: 'Forgot password' });
    await userEvent.type(screen.getByLabelText('Email'), 'casey@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many password resets for this email. Try again in an hour.');
  });
});
