import { useApolloClient, useSubscription } from '@apollo/client/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useApolloErrorSnackbar } from '../components/useErrorSnackbar';
import { usePagedRows } from '../devices/usePagedRows';
import type { IssueTimeline_ItemFragment } from './IssueTimeline.generated';
import { IssueTimelineAddedDocument, IssueTimelineDocument } from './useIssueTimeline.generated';
import { timelineItemKey } from './IssueTimeline';

/** Timeline items a page asks for. */
export const timelinePageSize = 50;

export interface IssueTimelineState {
  items: readonly IssueTimeline_ItemFragment[];
  loading: boolean;
  hasMore: boolean;
  loadMore: () => void;
}

/**
 * An issue's timeline, oldest first, a page at a time, and live: once every page is loaded, the
 * issueTimeline subscription brings what comes after the last item read (its cursor), so nothing
 * is missed or shown twice. `onAdded` hears each live item (the issue's facts may have changed);
 * a new `generation` reads the timeline again (a message was edited).
 */
export function useIssueTimeline(
  hashId: string,
  {
    onAdded,
    generation = 0,
    pageSize = timelinePageSize,
  }: { onAdded?: (item: IssueTimeline_ItemFragment) => void; generation?: number; pageSize?: number } = {},
): IssueTimelineState {
  const client = useApolloClient();
  const showError = useApolloErrorSnackbar();
  const key = `${hashId}#${generation}`;
  const loadPage = useCallback(
    async (offset: string | null) => {
      const { data } = await client.query({ query: IssueTimelineDocument, variables: { hashId, offset, rowsPerPage: pageSize }, fetchPolicy: 'no-cache' });
      return data?.issueTimeline ?? { rows: [], nextPageOffset: null };
    },
    [client, hashId, pageSize],
  );
  const pages = usePagedRows<IssueTimeline_ItemFragment>(key, loadPage);
  useEffect(() => {
    if (pages.error !== null) {
      showError(pages.error);
    }
  }, [pages.error, showError]);

  // Live from the last item read, once the pages are all read.
  const ready = !pages.loading && !pages.hasMore && pages.error === null;
  const after = pages.rows.at(-1)?.cursor ?? null;
  const liveKey = `${key}@${after ?? ''}`;
  const [live, setLive] = useState<{ key: string; items: readonly IssueTimeline_ItemFragment[] }>({ key: liveKey, items: [] });
  const latest = useRef(onAdded);
  latest.current = onAdded;
  useSubscription(IssueTimelineAddedDocument, {
    variables: { hashId, after },
    skip: !ready,
    onData: ({ data }) => {
      const item = data.data?.issueTimeline;
      if (item === undefined) {
        return;
      }
      setLive((current) => {
        const kept = current.key === liveKey ? current.items : [];
        const known = kept.some((seen) => timelineItemKey(seen) === timelineItemKey(item));
        return { key: liveKey, items: known ? kept : [...kept, item] };
      });
      latest.current?.(item);
    },
  });

  const items = useMemo(() => {
    if (!ready || live.key !== liveKey) {
      return pages.rows;
    }
    const loaded = new Set(pages.rows.map(timelineItemKey));
    return [...pages.rows, ...live.items.filter((item) => !loaded.has(timelineItemKey(item)))];
  }, [pages.rows, ready, live, liveKey]);

  return { items, loading: pages.loading, hasMore: pages.hasMore, loadMore: pages.loadMore };
}
