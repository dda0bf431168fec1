import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../test-support/render';
import { useConfirm, type Confirm } from './ConfirmDialog';

/** Hands the test the confirm function of the provider. */
function Expose({ into }: { into: (confirm: Confirm) => void }) {
  into(useConfirm());
  return null;
}

function setUp(): { confirm: Confirm } {
  const holder: { confirm: Confirm } = { confirm: async () => false };
  renderWithProviders(<Expose into={(confirm) => (holder.confirm = confirm)} />);
  return holder;
}

/** A promise and the functions that settle it. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve: () => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('the confirmation dialog', () => {
  it('shows the title, message and the default button texts, and answers true on confirm', async () => {
    const holder = setUp();
    let answer: Promise<boolean> = Promise.resolve(false);
    act(() => {
      answer = holder.confirm({ title: 'Delete group?', message: 'The group has no devices.' });
    });
    const dialog = screen.getByRole('dialog', { name: 'Delete group?' });
    expect(dialog).toHaveTextContent('The group has no devices.');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(answer).resolves.toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('answers false on cancel and on Escape', async () => {
    const holder = setUp();
    let first: Promise<boolean> = Promise.resolve(true);
    act(() => {
      first = holder.confirm({ title: 'Revoke?', message: 'x', cancelText: 'Keep' });
    });
    await userEvent.click(screen.getByRole('button', { name: 'Keep' }));
    await expect(first).resolves.toBe(false);
    let second: Promise<boolean> = Promise.resolve(true);
    act(() => {
      second = holder.confirm({ title: 'Revoke?', message: 'x' });
    });
    await userEvent.keyboard('{Escape}');
    await expect(second).resolves.toBe(false);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it.each([
    ['danger', 'rgb(211, 47, 47)'],
    ['warning', 'rgb(239, 125, 0)'],
    ['primary', 'rgb(31, 79, 214)'],
  ] as const)('colours the confirm button of a %s confirmation', (type, colour) => {
    const holder = setUp();
    act(() => {
      void holder.confirm({ type, title: 'Sure?', message: 'x', confirmText: 'Go' });
    });
    expect(screen.getByRole('button', { name: 'Go' })).toHaveStyle({ background: colour });
  });

  it('keeps one open at once: a new one replaces the open one, which answers false', async () => {
    const holder = setUp();
    let first: Promise<boolean> = Promise.resolve(true);
    act(() => {
      first = holder.confirm({ title: 'First?', message: 'x' });
    });
    act(() => {
      void holder.confirm({ title: 'Second?', message: 'y' });
    });
    await expect(first).resolves.toBe(false);
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'Second?' })).toBeInTheDocument();
  });

  it('closes at once on confirm by default, while the work goes on', async () => {
    const holder = setUp();
    const work = deferred();
    act(() => {
      void holder.confirm({ title: 'Reboot?', message: 'x', onConfirm: () => work.promise });
    });
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await act(async () => work.resolve());
  });

  it('waits with a loading confirm button when asked, refusing another dialog and closing meanwhile', async () => {
    const holder = setUp();
    const work = deferred();
    let answer: Promise<boolean> = Promise.resolve(false);
    act(() => {
      answer = holder.confirm({ type: 'danger', title: 'Reboot?', message: 'x', onConfirm: () => work.promise, waitForConfirm: true });
    });
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    const confirmButton = screen.getByRole('button', { name: 'Confirm' });
    expect(confirmButton).toBeDisabled();
    expect(confirmButton).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Reboot?' })).toBeInTheDocument();
    let other: Promise<boolean> = Promise.resolve(true);
    act(() => {
      other = holder.confirm({ title: 'Other?', message: 'y' });
    });
    await expect(other).resolves.toBe(false);
    await act(async () => work.resolve());
    await expect(answer).resolves.toBe(true);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('stays open when the awaited work fails, to try again or cancel', async () => {
    const holder = setUp();
    const work = deferred();
    act(() => {
      void holder.confirm({ title: 'Reboot?', message: 'x', onConfirm: () => work.promise, waitForConfirm: true });
    });
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await act(async () => work.reject(new Error('balena_unavailable')));
    expect(screen.getByRole('dialog', { name: 'Reboot?' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeEnabled();
  });
});
