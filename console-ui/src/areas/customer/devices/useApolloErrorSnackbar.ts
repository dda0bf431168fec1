import { useCallback } from 'react';
import { apiErrorOfApollo } from '../../../api/apollo';
import { useErrorSnackbar } from '../../../components/useErrorSnackbar';

/** The error snackbar for a failed Apollo operation: sorted into its ApiError first. */
export function useApolloErrorSnackbar(): (error: unknown) => void {
  const showError = useErrorSnackbar();
  return useCallback((error: unknown) => showError(apiErrorOfApollo(error) ?? error), [showError]);
}
