import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../test-support/render';
import { startVersionCheck, VersionBanner, versionCheckTiming } from './VersionBanner';

const minutes = (count: number) => count * 60_000;

/** Lets the timers run `ms` and the answers they started settle. */
async function pass(ms: number): Promise<void> {
  await act(async () => {
    await jest.advanceTimersByTimeAsync(ms);
  });
}

describe('the version check', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('waits 30 minutes after load, then 30 after a success and 5 after a failure', async () => {
    expect(versionCheckTiming).toEqual({ firstMs: minutes(30), afterSuccessMs: minutes(30), afterFailureMs: minutes(5) });
    const answers: Array<() => Promise<{ version: string }>> = [
      async () => ({ version: '1.0.0' }),
      async () => Promise.reject(new Error('offline')),
      async () => ({ version: '1.0.0' }),
      async () => ({ version: '1.1.0' }),
    ];
    const fetchRelease = jest.fn(() => (answers.shift() ?? (async () => ({ version: '1.0.0' })))());
    const onNewVersion = jest.fn();
    const stop = startVersionCheck('1.0.0', fetchRelease, onNewVersion);

    await pass(minutes(30) - 1);
    expect(fetchRelease).toHaveBeenCalledTimes(0);
    await pass(1);
    expect(fetchRelease).toHaveBeenCalledTimes(1);
    // The same version: next check 30 minutes on.
    await pass(minutes(30) - 1);
    expect(fetchRelease).toHaveBeenCalledTimes(1);
    await pass(1);
    expect(fetchRelease).toHaveBeenCalledTimes(2);
    // That one failed: next check 5 minutes on.
    await pass(minutes(5) - 1);
    expect(fetchRelease).toHaveBeenCalledTimes(2);
    await pass(1);
    expect(fetchRelease).toHaveBeenCalledTimes(3);
    await pass(minutes(30));
    expect(fetchRelease).toHaveBeenCalledTimes(4);
    expect(onNewVersion.mock.calls).toEqual([['1.1.0']]);
    // A newer version is known: no more checks.
    await pass(minutes(120));
    expect(fetchRelease).toHaveBeenCalledTimes(4);
    stop();
  });

  it('stops checking when stopped', async () => {
    const fetchRelease = jest.fn(async () => ({ version: '1.0.0' }));
    const stop = startVersionCheck('1.0.0', fetchRelease, jest.fn());
    stop();
    await pass(minutes(60));
    expect(fetchRelease).not.toHaveBeenCalled();
  });

  it('shows the banner when a newer version is out; its action reloads the page', async () => {
    const reload = jest.fn();
    renderWithProviders(<VersionBanner builtVersion="1.0.0" fetchRelease={async () => ({ version: '1.1.0' })} reload={reload} />);
    expect(screen.queryByRole('alert')).toBeNull();
    await pass(minutes(30));
    expect(screen.getByRole('alert')).toHaveTextContent('A new version of Gridport is available.');
    const user = userEvent.setup({ advanceTimers: (ms) => jest.advanceTimersByTime(ms) });
    await user.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('shows the banner until dismissed', async () => {
    renderWithProviders(<VersionBanner builtVersion="1.0.0" fetchRelease={async () => ({ version: '2.0.0' })} reload={jest.fn()} />);
    await pass(minutes(30));
    const user = userEvent.setup({ advanceTimers: (ms) => jest.advanceTimersByTime(ms) });
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows no banner while the version is the one built', async () => {
    renderWithProviders(<VersionBanner builtVersion="1.0.0" fetchRelease={async () => ({ version: '1.0.0' })} reload={jest.fn()} />);
    await pass(minutes(90));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
