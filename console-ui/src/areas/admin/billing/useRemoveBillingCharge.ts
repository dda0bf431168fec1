import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { RemoveBillingChargeDocument } from './useRemoveBillingCharge.generated';

/** Removes a manual charge not yet invoiced (removeBillingCharge); the caller reads its list again. */
export function useRemoveBillingCharge(): (hashId: string) => Promise<void> {
  const [mutate] = useMutation(RemoveBillingChargeDocument);
  return useCallback(
    async (hashId: string) => {
      await mutate({ variables: { hashId } });
    },
    [mutate],
  );
}
