import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { CreateOrganizationDocument, type OrganizationCreateInput } from './useCreateOrganization.generated';

/** Creates an organisation (createOrganization); answers its hash id. */
export function useCreateOrganization(): (input: OrganizationCreateInput) => Promise<string> {
  const [mutate] = useMutation(CreateOrganizationDocument);
  return useCallback(
    async (input: OrganizationCreateInput) => {
      const { data } = await mutate({ variables: { input } });
      if (data === undefined || data === null) {
        throw new Error('createOrganization answered no organisation');
      }
      return data.createOrganization.hashId;
    },
    [mutate],
  );
}
