import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { BillingChargesDocument } from './BillingChargeList.generated';
import { AddBillingChargeDocument, type BillingChargeCreateInput } from './useAddBillingCharge.generated';

/** Adds a manual charge (addBillingCharge); the charge lists shown read their charges again. */
export function useAddBillingCharge(): (input: BillingChargeCreateInput) => Promise<void> {
  const [mutate] = useMutation(AddBillingChargeDocument, { refetchQueries: [BillingChargesDocument] });
  return useCallback(
    async (input: BillingChargeCreateInput) => {
      await mutate({ variables: { input } });
    },
    [mutate],
  );
}
