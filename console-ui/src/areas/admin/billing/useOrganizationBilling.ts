import { useMutation, useQuery } from '@apollo/client/react';
import { useCallback } from 'react';
import { useSnackbar } from '../../../components/Snackbars';
import { useApolloErrorSnackbar, useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import type { OrganizationUpdateInput } from '../../../graphql/schema-types';
import { useMessages } from '../../../i18n/messages';
import { OrganizationBillingDocument, UpdateOrganizationBillingDocument } from './useOrganizationBilling.generated';

/** An organisation's billing settings with its forecast, and a save that reads both again and says so (or shows the refusal). */
export function useOrganizationBilling(hashId: string) {
  const t = useMessages();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const { data, error } = useQuery(OrganizationBillingDocument, { variables: { hashId }, fetchPolicy: 'cache-and-network' });
  useQueryErrorSnackbar(error);
  const [mutate] = useMutation(UpdateOrganizationBillingDocument, { refetchQueries: [OrganizationBillingDocument], awaitRefetchQueries: true });
  const save = useCallback(
    async (input: OrganizationUpdateInput) => {
      try {
        await mutate({ variables: { hashId, input } });
        snackbar.show({ tone: 'success', message: t('billing.saved') });
      } catch (failure) {
        showError(failure);
        throw failure;
      }
    },
    [mutate, hashId, snackbar, t, showError],
  );
  return { organization: data?.organization, forecast: data?.billingForecast, save };
}
