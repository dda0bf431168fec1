import { apiErrorOfApollo } from '../../../api/apollo';
import type { Translate } from '../../../i18n/messages';

/**
 * What a refused user change says beside the form: another user's email (user_exists), a rule
 * of who may change what (forbidden with its reason), invalid fields (payload_invalid); null for
 * any other failure, which the error snackbar shows.
 */
export function userChangeRefusal(error: unknown, t: Translate): string | null {
  const apiError = apiErrorOfApollo(error);
  if (apiError === null) {
    return null;
  }
  const details = (apiError.details ?? {}) as { email?: unknown; reason?: unknown };
  if (apiError.is('user_exists')) {
    return t('user.edit.userExists', { email: typeof details.email === 'string' ? details.email : '' });
  }
  if (apiError.is('forbidden') && typeof details.reason === 'string') {
    return t('user.edit.refused', { reason: details.reason });
  }
  if (apiError.is('payload_invalid') && Array.isArray(apiError.details)) {
    const issues = apiError.details as { message?: unknown }[];
    return t('user.edit.refused', { reason: issues.map((issue) => String(issue.message)).join('; ') });
  }
  return null;
}
