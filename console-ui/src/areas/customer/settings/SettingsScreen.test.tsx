import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { profile, renderConsole, type FakeAnswer, type SeenCall } from '../../../test-support/render';

const base = '/console/v1/settings/two-factor';
const challenge = { secret: 'JBSWY3DPEHPK3PXP', keyuri: 'otpauth://totp/Gridport:casey%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Gridport' };
const recoveryCodes = ['k3j4-9xq2', 'p0o9-i8u7', 'zz11-aa22'];

/** The signed-in customer, and the two-factor routes answered by `answers` (path after the base). */
function server(answers: Record<string, (call: SeenCall) => FakeAnswer>) {
  return (call: SeenCall): FakeAnswer | undefined => {
    if (call.path === '/console-shared/v1/authentication/whoami') {
      return { status: 200, body: profile() };
    }
    if (call.path.startsWith(`${base}/`)) {
      return answers[call.path.slice(base.length + 1)]?.(call);
    }
    return undefined;
  };
}

function twoFactorCalls(calls: SeenCall[]): { method: string; path: string; body: unknown }[] {
  return calls.filter((call) => call.path.startsWith(base)).map(({ method, path, body }) => ({ method, path, body }));
}

async function shownRecoveryCodes(): Promise<string[]> {
  const dialog = await screen.findByRole('dialog', { name: 'Your new recovery codes' });
  return within(within(dialog).getByRole('list', { name: 'Your new recovery codes' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent ?? '');
}

describe('customer settings', () => {
  it('shows the profile of the signed-in user', async () => {
    renderConsole('/settings', server({}));
    expect(await screen.findByTestId('profile-name')).toHaveTextContent('Casey Customer');
    expect(screen.getByTestId('profile-email')).toHaveTextContent('casey@example.com');
    expect(screen.getByTestId('profile-organization')).toHaveTextContent('Solar Farms Ltd');
  });

  it('turns two-factor on: a new key and its link, confirmed with a code, then the recovery codes once', async () => {
    const harness = renderConsole(
      '/settings',
      server({
        'generate-challenge': () => ({ status: 200, body: challenge }),
        'change-app': () => ({ status: 200, body: { recoveryCodes } }),
      }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Turn on two-factor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add the key to your authenticator app' });
    expect(within(dialog).getByTestId('two-factor-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    expect(within(dialog).getByRole('link', { name: 'Open in authenticator app' })).toHaveAttribute('href', challenge.keyuri);
    expect(await within(dialog).findByRole('img', { name: 'QR code of the key: scan it with your authenticator app' })).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Code from the new app'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    expect(await shownRecoveryCodes()).toEqual(recoveryCodes);
    expect(screen.getByText(/These codes are shown only now/)).toBeInTheDocument();
    expect(twoFactorCalls(harness.calls)).toEqual([
      { method: 'POST', path: `${base}/generate-challenge`, body: {} },
      { method: 'POST', path: `${base}/change-app`, body: { twoFactorCode: '123456' } },
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'I have kept them' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the catalogue message for an invalid code and keeps the dialog open for another try', async () => {
    let tries = 0;
    const harness = renderConsole(
      '/settings',
      server({
        'generate-challenge': () => ({ status: 200, body: challenge }),
        'change-app': () => {
          tries += 1;
          return tries === 1 ? { status: 401, body: { key: '2fa_code_invalid' } } : { status: 200, body: { recoveryCodes } };
        },
      }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Turn on two-factor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add the key to your authenticator app' });
    const code = within(dialog).getByLabelText('Code from the new app');
    await userEvent.type(code, '000000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByRole('status')).toHaveTextContent('The request failed: The two-factor code is invalid.');
    expect(screen.getByRole('dialog', { name: 'Add the key to your authenticator app' })).toBeInTheDocument();
    // A wrong code is not a lost session: the user stays signed in, on the screen.
    expect(harness.router.state.location.pathname).toBe('/settings');

    await userEvent.clear(code);
    await userEvent.type(code, '654321');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await shownRecoveryCodes()).toEqual(recoveryCodes);
    expect(twoFactorCalls(harness.calls).map((call) => call.body)).toEqual([{}, { twoFactorCode: '000000' }, { twoFactorCode: '654321' }]);
  });

  it('checks the code length of the contract before sending', async () => {
    const harness = renderConsole('/settings', server({ 'generate-challenge': () => ({ status: 200, body: challenge }) }));
    await userEvent.click(await screen.findByRole('button', { name: 'Turn on two-factor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add the key to your authenticator app' });
    await userEvent.type(within(dialog).getByLabelText('Code from the new app'), '12345');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Exactly 6 characters');
    expect(twoFactorCalls(harness.calls).map((call) => call.path)).toEqual([`${base}/generate-challenge`]);
  });

  it('changes the authenticator app after a code from the current one', async () => {
    const harness = renderConsole(
      '/settings',
      server({
        'generate-challenge': () => ({ status: 200, body: challenge }),
        'change-app': () => ({ status: 200, body: { recoveryCodes } }),
      }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Change authenticator app' }));
    const prove = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    await userEvent.type(within(prove).getByLabelText('Code from your current app'), '111222');
    await userEvent.click(within(prove).getByRole('button', { name: 'Next' }));

    const confirm = await screen.findByRole('dialog', { name: 'Add the key to your authenticator app' });
    expect(screen.queryByRole('dialog', { name: 'Confirm it is you' })).toBeNull();
    await userEvent.type(within(confirm).getByLabelText('Code from the new app'), '333444');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    expect(await shownRecoveryCodes()).toEqual(recoveryCodes);
    expect(twoFactorCalls(harness.calls)).toEqual([
      { method: 'POST', path: `${base}/generate-challenge`, body: { twoFactorCode: '111222' } },
      { method: 'POST', path: `${base}/change-app`, body: { twoFactorCode: '333444' } },
    ]);
  });

  it('asks for a proof when two-factor is already on, and takes a recovery code', async () => {
    const harness = renderConsole(
      '/settings',
      server({
        'generate-challenge': (call) =>
          call.body !== null && typeof call.body === 'object' && 'recoveryCode' in call.body
            ? { status: 200, body: challenge }
            : { status: 401, body: { key: '2fa_code_required' } },
      }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Turn on two-factor' }));
    const prove = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    expect(within(prove).getByRole('note')).toHaveTextContent('Two-factor is already on.');
    await userEvent.click(within(prove).getByRole('button', { name: 'Next' }));
    expect(await within(prove).findByText('Enter a code or a recovery code.')).toBeInTheDocument();

    await userEvent.type(within(prove).getByLabelText('Or a recovery code'), 'k3j4-9xq2');
    await userEvent.click(within(prove).getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('dialog', { name: 'Add the key to your authenticator app' })).toBeInTheDocument();
    expect(twoFactorCalls(harness.calls).map((call) => call.body)).toEqual([{}, { recoveryCode: 'k3j4-9xq2' }]);
  });

  it('renews the recovery codes after a warning, and shows them once', async () => {
    const harness = renderConsole('/settings', server({ 'new-recovery-codes': () => ({ status: 200, body: { recoveryCodes } }) }));
    await userEvent.click(await screen.findByRole('button', { name: 'New recovery codes' }));
    const warning = await screen.findByRole('dialog', { name: 'Replace your recovery codes?' });
    expect(twoFactorCalls(harness.calls)).toEqual([]);
    await userEvent.click(within(warning).getByRole('button', { name: 'Replace codes' }));
    expect(await shownRecoveryCodes()).toEqual(recoveryCodes);
    expect(twoFactorCalls(harness.calls)).toEqual([{ method: 'POST', path: `${base}/new-recovery-codes`, body: undefined }]);
  });

  it('shows the forbidden snackbar when two-factor is not on yet and new codes are asked for', async () => {
    renderConsole('/settings', server({ 'new-recovery-codes': () => ({ status: 403, body: { key: 'forbidden' } }) }));
    await userEvent.click(await screen.findByRole('button', { name: 'New recovery codes' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Replace your recovery codes?' })).getByRole('button', { name: 'Replace codes' }));
    expect(await screen.findByRole('status')).toHaveTextContent('You do not have permission to do this.');
    expect(screen.queryByRole('dialog', { name: 'Your new recovery codes' })).toBeNull();
  });
});
