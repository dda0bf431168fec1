import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { CreatePartnershipDocument, type PartnershipCreateInput } from './useCreatePartnership.generated';

/** Creates a partnership: the owner shares all or the listed devices with the partner. */
export function useCreatePartnership(): (input: PartnershipCreateInput) => Promise<void> {
  const [mutate] = useMutation(CreatePartnershipDocument);
  return useCallback(
    async (input: PartnershipCreateInput) => {
      await mutate({ variables: { input } });
    },
    [mutate],
  );
}
