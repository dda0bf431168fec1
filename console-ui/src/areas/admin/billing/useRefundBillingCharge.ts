import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { RefundBillingChargeDocument, type BillingChargeRefundInput } from './useRefundBillingCharge.generated';

/** Refunds a charge, all of it or the amount given (refundBillingCharge); the caller reads its list again. */
export function useRefundBillingCharge(): (hashId: string, input: BillingChargeRefundInput) => Promise<void> {
  const [mutate] = useMutation(RefundBillingChargeDocument);
  return useCallback(
    async (hashId: string, input: BillingChargeRefundInput) => {
      await mutate({ variables: { hashId, input } });
    },
    [mutate],
  );
}
