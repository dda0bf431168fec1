import { isApiError } from '../api/api-error';

/**
 * Browser notices that say nothing about the console (console.md section 8): the resize-observer
 * loop notice, the opaque "Script error." of another origin's script, and a code chunk that timed
 * out or went away with a new release (the version banner offers the reload for that).
 */
const noisyNotices = [
  /ResizeObserver loop/i,
  /^Script error\.?$/i,
  /Failed to fetch dynamically imported module/i,
  /Loading (CSS )?chunk .* failed/i,
  /chunk load timeout/i,
];

export function isNoisyBrowserNotice(message: string): boolean {
  return noisyNotices.some((pattern) => pattern.test(message));
}

/**
 * Keeps noisy notices and cancelled calls out of the page's error output; every other error
 * goes on as usual. Answers how to uninstall.
 */
export function installGlobalErrorFilter(target: Window): () => void {
  const onError = (event: ErrorEvent) => {
    if (isNoisyBrowserNotice(event.message)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    const reason: unknown = event.reason;
    const cancelled = isApiError(reason) && reason.kind === 'cancelled';
    if (cancelled || (reason instanceof Error && isNoisyBrowserNotice(reason.message))) {
      event.preventDefault();
    }
  };
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}
