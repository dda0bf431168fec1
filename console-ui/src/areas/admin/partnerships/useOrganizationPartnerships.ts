import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useState } from 'react';
import { readPages } from '../../../lists/read-pages';
import { OrganizationPartnershipsDocument, type OrganizationPartnershipsTab_PartnershipFragment } from './OrganizationPartnershipsTab.generated';

export interface OrganizationPartnerships {
  rows: readonly OrganizationPartnershipsTab_PartnershipFragment[];
  loading: boolean;
  error: unknown;
  reload: () => void;
}

/**
 * Every partnership in which the organisation takes part (owner or partner), read page by page
 * at once: the tab shows and exports them all, and few organisations have more than a page.
 */
export function useOrganizationPartnerships(organizationHashId: string): OrganizationPartnerships {
  const client = useApolloClient();
  const [reads, setReads] = useState(0);
  const [state, setState] = useState<Omit<OrganizationPartnerships, 'reload'>>({ rows: [], loading: true, error: null });

  useEffect(() => {
    let current = true;
    const load = async () => {
      setState((now) => ({ ...now, loading: true, error: null }));
      try {
        // An organisation with more partnerships than a list reads at once (10,000) shows the first ones.
        const rows = await readPages(async (offset, rowsPerPage) => {
          const { data } = await client.query({
            query: OrganizationPartnershipsDocument,
            variables: { organizationHashId, offset, rowsPerPage },
            fetchPolicy: 'no-cache',
          });
          return data?.partnerships ?? { rows: [], nextPageOffset: null };
        });
        if (current) {
          setState({ rows, loading: false, error: null });
        }
      } catch (error) {
        if (current) {
          setState({ rows: [], loading: false, error });
        }
      }
    };
    void load();
    return () => {
      current = false;
    };
  }, [client, organizationHashId, reads]);

  const reload = useCallback(() => setReads((count) => count + 1), []);
  return { ...state, reload };
}
