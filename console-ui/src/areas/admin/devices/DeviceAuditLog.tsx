import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useState } from 'react';
import styled from 'styled-components';
import { AuditEntry } from '../../../components/AuditEntry';
import { Button } from '../../../components/Button';
import { LoadMore } from '../../../components/LoadMore';
import { TimelineEmpty, TimelineList } from '../../../components/TimelineItem';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';
import { usePagedRows } from '../../../devices/usePagedRows';
import { DeviceAuditLogDocument, type AuditEntry_EntryFragment } from '../../../graphql/operations';
import { useMessages } from '../../../i18n/messages';
import { adminLinkTo } from '../links';

/** Audit entries a page asks for. */
export const auditPageSize = 25;

/**
 * A device's history from the audit log (changes, messages to and from it, shipping, monitoring),
 * newest first, with the typed diff of each entry; more on request, and read again on refresh.
 */
export function DeviceAuditLog({ hashId, pageSize = auditPageSize }: { hashId: string; pageSize?: number }) {
  const t = useMessages();
  const client = useApolloClient();
  const showError = useApolloErrorSnackbar();
  const [reads, setReads] = useState(0);
  const loadPage = useCallback(
    async (offset: string | null) => {
      const { data } = await client.query({ query: DeviceAuditLogDocument, variables: { hashId, offset, rowsPerPage: pageSize }, fetchPolicy: 'no-cache' });
      return data?.auditLog ?? { rows: [], nextPageOffset: null };
    },
    [client, hashId, pageSize],
  );
  const log = usePagedRows<AuditEntry_EntryFragment>(`${hashId}#${reads}`, loadPage);
  useEffect(() => {
    if (log.error !== null) {
      showError(log.error);
    }
  }, [log.error, showError]);

  return (
    <div>
      <Bar>
        <Button variant="text" onClick={() => setReads((count) => count + 1)} disabled={log.loading}>
          {t('action.reload')}
        </Button>
      </Bar>
      {log.rows.length === 0 && <TimelineEmpty loading={log.loading} />}
      <TimelineList aria-label={t('device.history.title')}>
        {log.rows.map((entry) => (
          <AuditEntry key={entry.hashId} entry={entry} linkTo={adminLinkTo} />
        ))}
      </TimelineList>
      {log.hasMore && <LoadMore loading={log.loading} onClick={log.loadMore} />}
    </div>
  );
}

const Bar = styled.div`
  display: flex;
  justify-content: flex-end;
  margin: 4px 0;
`;
