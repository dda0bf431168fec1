import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { DeletePartnershipDocument } from './useDeletePartnership.generated';

/** Ends a partnership; the partner loses access to the shared devices at once. */
export function useDeletePartnership(): (hashId: string) => Promise<void> {
  const [mutate] = useMutation(DeletePartnershipDocument);
  return useCallback(
    async (hashId: string) => {
      await mutate({ variables: { hashId } });
    },
    [mutate],
  );
}
