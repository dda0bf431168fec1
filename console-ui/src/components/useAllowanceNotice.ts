import { useCallback } from 'react';
import { useMessages } from '../i18n/messages';
import { allowanceNotice } from './allowance';
import { useSnackbar } from './Snackbars';

/** Shows the notice of a dangerous action that succeeded, from the remaining allowance it answered. */
export function useAllowanceNotice(): (remainingAllowance: number | null | undefined) => void {
  const snackbar = useSnackbar();
  const t = useMessages();
  return useCallback((remainingAllowance) => snackbar.show(allowanceNotice(remainingAllowance, t)), [snackbar, t]);
}
