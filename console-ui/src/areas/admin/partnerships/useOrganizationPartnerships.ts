import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useState } from 'react';
import {
  OrganizationPartnershipsDocument,
  type OrganizationPartnershipsQuery,
  type OrganizationPartnershipsTab_PartnershipFragment,
} from './OrganizationPartnershipsTab.generated';

/** Rows asked per page: the API's most. */
const pageSize = 500;
/** Pages read at most: an organisation with more partnerships than this shows the first ones. */
const pagesMax = 20;

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
        const rows: OrganizationPartnershipsTab_PartnershipFragment[] = [];
        let offset: string | null = null;
        for (let page = 0; page < pagesMax; page += 1) {
          const { data }: { data?: OrganizationPartnershipsQuery | undefined } = await client.query({
            query: OrganizationPartnershipsDocument,
            variables: { organizationHashId, offset, rowsPerPage: pageSize },
            fetchPolicy: 'no-cache',
          });
          rows.push(...(data?.partnerships.rows ?? []));
          offset = data?.partnerships.nextPageOffset ?? null;
          if (offset === null) {
            break;
          }
        }
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
