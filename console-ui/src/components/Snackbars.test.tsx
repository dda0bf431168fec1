import { act, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { renderWithProviders } from '../test-support/render';
import { snackbarTimeoutMs, useSnackbar, type Snackbar } from './Snackbars';

/** Shows the given snackbars when mounted and hands out `show` for later ones. */
function Show({ snackbars, expose }: { snackbars: Snackbar[]; expose?: (show: (snackbar: Snackbar) => void) => void }) {
  const snackbar = useSnackbar();
  useEffect(() => {
    snackbars.forEach((one) => snackbar.show(one));
    expose?.(snackbar.show);
  }, [snackbar, snackbars, expose]);
  return null;
}

const texts = () => screen.queryAllByRole('status').map((element) => element.textContent);

describe('snackbars', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('shows each snackbar for 3000 ms, one after the other', () => {
    renderWithProviders(
      <Show
        snackbars={[
          { tone: 'success', message: 'Saved.' },
          { tone: 'error', message: 'Not found.' },
        ]}
      />,
    );
    expect(snackbarTimeoutMs).toBe(3000);
    expect(texts()).toEqual(['Saved.']);
    act(() => jest.advanceTimersByTime(2999));
    expect(texts()).toEqual(['Saved.']);
    act(() => jest.advanceTimersByTime(1));
    expect(texts()).toEqual(['Not found.']);
    act(() => jest.advanceTimersByTime(3000));
    expect(texts()).toEqual([]);
  });

  it('does not queue a message identical to one showing or waiting', () => {
    let show: (snackbar: Snackbar) => void = () => undefined;
    renderWithProviders(<Show snackbars={[]} expose={(fn) => (show = fn)} />);
    act(() => {
      show({ tone: 'error', message: 'Too many requests.' });
      show({ tone: 'error', message: 'Too many requests.' });
      show({ tone: 'warning', message: 'Session expired.' });
      show({ tone: 'warning', message: 'Session expired.' });
    });
    expect(texts()).toEqual(['Too many requests.']);
    act(() => jest.advanceTimersByTime(3000));
    expect(texts()).toEqual(['Session expired.']);
    act(() => jest.advanceTimersByTime(3000));
    expect(texts()).toEqual([]);
    // Once gone, the same message may show again.
    act(() => show({ tone: 'error', message: 'Too many requests.' }));
    expect(texts()).toEqual(['Too many requests.']);
  });

  it('closes at once with its close button', () => {
    renderWithProviders(
      <Show
        snackbars={[
          { tone: 'info', message: 'First.' },
          { tone: 'info', message: 'Second.' },
        ]}
      />,
    );
    act(() => screen.getByRole('button', { name: 'Close' }).click());
    expect(texts()).toEqual(['Second.']);
  });
});
