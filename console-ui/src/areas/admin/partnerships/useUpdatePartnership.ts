import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { UpdatePartnershipDocument, type PartnershipUpdateInput } from './useUpdatePartnership.generated';

/** Saves a partnership's role, description or devices (only the fields given change). */
export function useUpdatePartnership(): (hashId: string, input: PartnershipUpdateInput) => Promise<void> {
  const [mutate] = useMutation(UpdatePartnershipDocument);
  return useCallback(
    async (hashId: string, input: PartnershipUpdateInput) => {
      await mutate({ variables: { hashId, input } });
    },
    [mutate],
  );
}
