import { useCallback, useEffect } from 'react';
import { apiErrorOfApollo } from '../api/apollo';
import { isApiError, isSessionFailure } from '../api/api-error';
import { snackbarForError } from '../api/error-snackbar';
import { useMessages } from '../i18n/messages';
import { useSnackbar } from './Snackbars';

/**
 * Shows a failed call as its snackbar. Session failures are left to the session (it shows
 * session-expired and signs out); cancellations are ignored; an error that is not a call's
 * failure shows the unknown-error message and is thrown on, to surface as a bug.
 */
export function useErrorSnackbar(): (error: unknown) => void {
  const snackbar = useSnackbar();
  const t = useMessages();
  return useCallback(
    (error: unknown) => {
      if (!isApiError(error)) {
        snackbar.show({ tone: 'error', message: t('error.unknown') });
        throw error;
      }
      if (isSessionFailure(error)) {
        return;
      }
      const shown = snackbarForError(error, t);
      if (shown !== null) {
        snackbar.show(shown);
      }
    },
    [snackbar, t],
  );
}

/** The error snackbar for a failed Apollo operation: sorted into its ApiError first. */
export function useApolloErrorSnackbar(): (error: unknown) => void {
  const showError = useErrorSnackbar();
  return useCallback((error: unknown) => showError(apiErrorOfApollo(error) ?? error), [showError]);
}

/** Shows a query's error as its snackbar when one arrives (`useQuery(...).error`). */
export function useQueryErrorSnackbar(error: unknown): void {
  const showError = useApolloErrorSnackbar();
  useEffect(() => {
    if (error !== undefined) {
      showError(error);
    }
  }, [error, showError]);
}
