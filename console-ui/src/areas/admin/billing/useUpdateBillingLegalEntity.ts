import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { UpdateBillingLegalEntityDocument, type BillingLegalEntityUpdateInput } from './useUpdateBillingLegalEntity.generated';

/** Saves a legal entity's fields given (updateBillingLegalEntity) and reads the legal entity lists shown again. */
export function useUpdateBillingLegalEntity(): (hashId: string, input: BillingLegalEntityUpdateInput) => Promise<void> {
  const [mutate] = useMutation(UpdateBillingLegalEntityDocument, { refetchQueries: ['BillingLegalEntities'] });
  return useCallback(
    async (hashId: string, input: BillingLegalEntityUpdateInput) => {
      await mutate({ variables: { hashId, input } });
    },
    [mutate],
  );
}
