import { ApiError } from '../api/api-error';
import { installGlobalErrorFilter, isNoisyBrowserNotice } from './global-errors';

describe('noisy browser notices', () => {
  it.each([
    ['ResizeObserver loop completed with undelivered notifications.', true],
    ['ResizeObserver loop limit exceeded', true],
    ['Script error.', true],
    ['Failed to fetch dynamically imported module: https://x/assets/admin-abc.js', true],
    ['Loading chunk 42 failed.', true],
    ["TypeError: Cannot read properties of undefined (reading 'hashId')", false],
    ['Script error in the device list', false],
  ])('%p is noise: %p', (message, noisy) => {
    expect(isNoisyBrowserNotice(message)).toBe(noisy);
  });

  it('stops noisy error events and lets the others through', () => {
    const uninstall = installGlobalErrorFilter(window);
    const seen: string[] = [];
    const listener = (event: ErrorEvent) => seen.push(event.message);
    window.addEventListener('error', listener);
    try {
      const noisy = new ErrorEvent('error', { message: 'ResizeObserver loop limit exceeded', cancelable: true });
      const real = new ErrorEvent('error', { message: 'TypeError: x is undefined', cancelable: true });
      window.dispatchEvent(noisy);
      window.dispatchEvent(real);
      expect([noisy.defaultPrevented, real.defaultPrevented]).toEqual([true, false]);
      expect(seen).toEqual(['TypeError: x is undefined']);
    } finally {
      window.removeEventListener('error', listener);
      uninstall();
    }
  });

  it('quiets an unhandled cancelled call, not another failure', () => {
    const uninstall = installGlobalErrorFilter(window);
    try {
      const rejection = (reason: unknown) => {
        const event = new Event('unhandledrejection', { cancelable: true });
        Object.assign(event, { reason });
        window.dispatchEvent(event);
        return event.defaultPrevented;
      };
      expect(rejection(new ApiError('cancelled', 0, null))).toBe(true);
      expect(rejection(new ApiError('forbidden', 403, 'forbidden'))).toBe(false);
    } finally {
      uninstall();
    }
  });
});
