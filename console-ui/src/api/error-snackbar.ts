import type { Snackbar } from '../components/Snackbars';
import type { Translate } from '../i18n/messages';
import { type ApiError } from './api-error';

/**
 * The snackbar of a failed call (console.md section 8): rate limits (and too many failed
 * attempts), not found, forbidden, payload too large, server errors and unknown answers each
 * have their message; other answers show the catalogue's message as a request error.
 * A cancelled call shows nothing (null). Session failures are the session's (session-expired).
 */
export function snackbarForError(error: ApiError, t: Translate): Snackbar | null {
  switch (error.kind) {
    case 'cancelled':
      return null;
    case 'rateLimited':
      return { tone: 'error', message: t('error.rateLimited') };
    case 'unauthorized':
      return error.key === 'too_many_failed_attempts'
        ? { tone: 'error', message: t('error.rateLimited') }
        : { tone: 'error', message: t('error.request', { message: error.message }) };
    case 'notFound':
      return { tone: 'error', message: t('error.notFound') };
    case 'forbidden':
      return { tone: 'error', message: t('error.forbidden') };
    case 'payloadTooLarge':
      return { tone: 'error', message: t('error.payloadTooLarge') };
    case 'request':
      return { tone: 'error', message: t('error.network') };
    case 'unknownResponse':
      return { tone: 'error', message: t('error.unknown') };
    case 'response':
      return error.status >= 500 ? { tone: 'error', message: t('error.server') } : { tone: 'error', message: t('error.request', { message: error.message }) };
  }
}
