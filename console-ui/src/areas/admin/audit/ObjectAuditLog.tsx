import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useState } from 'react';
import styled from 'styled-components';
import { AuditEntry } from '../../../components/AuditEntry';
import { Button } from '../../../components/Button';
import { LoadMore } from '../../../components/LoadMore';
import { TimelineEmpty, TimelineList } from '../../../components/TimelineItem';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';
import { usePagedRows } from '../../../devices/usePagedRows';
import { ObjectAuditLogDocument } from './ObjectAuditLog.generated';
import type { AuditEntry_EntryFragment } from '../../../components/AuditEntry.generated';
import type { AuditObjectType } from '../../../graphql/schema-types';
import { useMessages } from '../../../i18n/messages';
import { adminLinkTo } from '../links';

/** Audit entries a page asks for. */
export const auditPageSize = 25;

export interface ObjectAuditLogProps {
  objectType: AuditObjectType;
  hashId: string;
  /** The list's name for assistive technology ("History"). */
  label: string;
  pageSize?: number;
}

/**
 * One object's history from the audit log (a device's changes, messages to and from it, shipping
 * and monitoring; an organisation's, a group's, a user's changes), newest first, with the typed
 * diff of each entry (numbers, dates, links, hidden values, JSON); more on request, and read again
 * on refresh.
 */
export function ObjectAuditLog({ objectType, hashId, label, pageSize = auditPageSize }: ObjectAuditLogProps) {
  const t = useMessages();
  const client = useApolloClient();
  const showError = useApolloErrorSnackbar();
  const [reads, setReads] = useState(0);
  const loadPage = useCallback(
    async (offset: string | null) => {
      const { data } = await client.query({
        query: ObjectAuditLogDocument,
        variables: { objectType, hashId, offset, rowsPerPage: pageSize },
        fetchPolicy: 'no-cache',
      });
      return data?.auditLog ?? { rows: [], nextPageOffset: null };
    },
    [client, objectType, hashId, pageSize],
  );
  const log = usePagedRows<AuditEntry_EntryFragment>(`${objectType}:${hashId}#${reads}`, loadPage);
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
      <TimelineList aria-label={label}>
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
