import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { AdminOrganizationDocument } from './OrganizationFrame.generated';
import { UpdateOrganizationDocument, type OrganizationUpdateInput } from './useUpdateOrganization.generated';

/**
 * Saves an organisation's changed fields (updateOrganization) and puts the answer where the frame
 * and the general tab read it, so the title and the form show what was saved.
 */
export function useUpdateOrganization(): (hashId: string, input: OrganizationUpdateInput) => Promise<void> {
  const [mutate] = useMutation(UpdateOrganizationDocument, {
    update: (cache, { data }) => {
      if (data !== undefined && data !== null) {
        cache.writeQuery({
          query: AdminOrganizationDocument,
          variables: { hashId: data.updateOrganization.hashId },
          data: { organization: data.updateOrganization },
        });
      }
    },
  });
  return useCallback(
    async (hashId: string, input: OrganizationUpdateInput) => {
      await mutate({ variables: { hashId, input } });
    },
    [mutate],
  );
}
