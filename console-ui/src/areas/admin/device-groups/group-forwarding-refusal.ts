import { apiErrorOfApollo } from '../../../api/apollo';
import type { Translate } from '../../../i18n/messages';

/** Why the server refused a forwarding (max_destinations_reached, already_configured) as the forms say it; null for any other failure. */
export function groupForwardingRefusal(t: Translate, error: unknown): string | null {
  const apiError = apiErrorOfApollo(error);
  if (apiError?.is('max_destinations_reached')) {
    return t('groupForwarding.refusal.maxDestinationsReached');
  }
  if (apiError?.is('already_configured')) {
    return t('groupForwarding.refusal.alreadyConfigured');
  }
  return null;
}
