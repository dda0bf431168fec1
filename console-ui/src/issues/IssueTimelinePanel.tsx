import type { ReactNode } from 'react';
import { LoadMore } from '../components/LoadMore';
import { TimelineEmpty } from '../components/TimelineItem';
import type { LinkTo } from '../components/DiffList';
import { Panel } from '../devices/DeviceFrame';
import type { IssueTimeline_ItemFragment } from '../graphql/operations';
import { useMessages } from '../i18n/messages';
import { IssueTimeline, type IssueTimelineMessage } from './IssueTimeline';
import { useIssueTimeline } from './useIssueTimeline';

export interface IssueTimelinePanelProps {
  hashId: string;
  /** Hears each item the subscription adds (the issue's facts may have changed with it). */
  onAdded?: (item: IssueTimeline_ItemFragment) => void;
  /** A new value reads the timeline again (after an edit, which adds no item). */
  generation?: number;
  linkTo?: LinkTo;
  messageActions?: (message: IssueTimelineMessage) => ReactNode;
  /** The message form under the timeline. */
  children?: ReactNode;
}

/** An issue's live timeline in its panel, oldest first, more on request, the message form below it. */
export function IssueTimelinePanel({ hashId, onAdded, generation, linkTo, messageActions, children }: IssueTimelinePanelProps) {
  const t = useMessages();
  const timeline = useIssueTimeline(hashId, { onAdded, generation });
  return (
    <Panel>
      <h2>{t('issue.timeline')}</h2>
      {timeline.items.length === 0 && <TimelineEmpty loading={timeline.loading} />}
      <IssueTimeline items={timeline.items} linkTo={linkTo} messageActions={messageActions} />
      {timeline.hasMore && <LoadMore loading={timeline.loading} onClick={timeline.loadMore} />}
      {children}
    </Panel>
  );
}
