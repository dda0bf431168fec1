import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useState } from 'react';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';
import { CustomerPartnershipsDocument, type PartnershipKind, type PartnershipList_PartnershipFragment } from './PartnershipList.generated';

/** Rows asked per page: the API's most, so an organisation's partnerships rarely take two calls. */
export const partnershipPageSize = 500;

interface Loaded {
  rows: readonly PartnershipList_PartnershipFragment[];
  next: string | null;
  loading: boolean;
}

/** The partnerships of one side, a page at a time; answers for another side are dropped. */
export function usePartnerships(kind: PartnershipKind) {
  const client = useApolloClient();
  const showError = useApolloErrorSnackbar();
  const [loaded, setLoaded] = useState<Loaded & { kind: PartnershipKind }>({ kind, rows: [], next: null, loading: true });

  const load = useCallback(
    async (offset: string | null) => {
      setLoaded((now) => (now.kind === kind ? { ...now, loading: true } : { kind, rows: [], next: null, loading: true }));
      try {
        const { data } = await client.query({
          query: CustomerPartnershipsDocument,
          variables: { kind, offset, rowsPerPage: partnershipPageSize },
          fetchPolicy: 'no-cache',
        });
        const page = data?.partnerships ?? { rows: [], nextPageOffset: null };
        setLoaded((now) => (now.kind === kind ? { kind, rows: [...now.rows, ...page.rows], next: page.nextPageOffset, loading: false } : now));
      } catch (error) {
        setLoaded((now) => (now.kind === kind ? { ...now, loading: false } : now));
        showError(error);
      }
    },
    [client, kind, showError],
  );

  useEffect(() => {
    void load(null);
  }, [load]);

  const current = loaded.kind === kind ? loaded : { rows: [], next: null, loading: true };
  return { ...current, loadMore: () => (current.next === null || current.loading ? undefined : void load(current.next)) };
}
