import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { DeleteBillingLegalEntityDocument } from './useDeleteBillingLegalEntity.generated';

/** Deletes a legal entity (deleteBillingLegalEntity) and reads the legal entity lists shown again. */
export function useDeleteBillingLegalEntity(): (hashId: string) => Promise<void> {
  const [mutate] = useMutation(DeleteBillingLegalEntityDocument, { refetchQueries: ['BillingLegalEntities'] });
  return useCallback(
    async (hashId: string) => {
      await mutate({ variables: { hashId } });
    },
    [mutate],
  );
}
