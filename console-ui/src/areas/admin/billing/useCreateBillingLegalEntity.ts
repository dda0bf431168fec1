import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { BillingLegalEntitiesDocument, type LegalEntitiesTab_EntityFragment } from './LegalEntitiesTab.generated';
import { CreateBillingLegalEntityDocument, type BillingLegalEntityCreateInput } from './useCreateBillingLegalEntity.generated';

/** Creates a legal entity (createBillingLegalEntity) and reads the legal entity lists again; answers the new entity. */
export function useCreateBillingLegalEntity(): (input: BillingLegalEntityCreateInput) => Promise<LegalEntitiesTab_EntityFragment | undefined> {
  const [mutate] = useMutation(CreateBillingLegalEntityDocument, { refetchQueries: [BillingLegalEntitiesDocument] });
  return useCallback(
    async (input: BillingLegalEntityCreateInput) => {
      const { data } = await mutate({ variables: { input } });
      return data?.createBillingLegalEntity;
    },
    [mutate],
  );
}
