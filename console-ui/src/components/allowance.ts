import { formatPower } from '../format/power';
import type { Translate } from '../i18n/messages';
import type { Snackbar } from './Snackbars';

/** Above this remaining allowance (W) the notice is a success, at or below it a warning (console.md section 4). */
export const allowanceWarningBelowW = 1_000_000;

/**
 * The notice after a dangerous action succeeded: the remaining allowance (success above
 * 1,000,000 W, warning otherwise), or the save-success message when no figure came back.
 */
export function allowanceNotice(remainingAllowance: number | null | undefined, t: Translate): Snackbar {
  if (remainingAllowance === null || remainingAllowance === undefined) {
    return { tone: 'success', message: t('notice.saved') };
  }
  return {
    tone: remainingAllowance > allowanceWarningBelowW ? 'success' : 'warning',
    message: t('notice.allowance', { allowance: formatPower(remainingAllowance) }),
  };
}
