import { useMemo, type ReactNode } from 'react';
import { diffEntriesOf } from '../components/diff-entries';
import { LoadMore } from '../components/LoadMore';
import { TimelineEmpty } from '../components/TimelineItem';
import type { LinkTo } from '../components/DiffList';
import { UserNamesContext, userHashIdsOf } from '../components/user-names';
import { Panel } from '../devices/DeviceFrame';
import type { IssueTimeline_ItemFragment } from './IssueTimeline.generated';
import { useMessages } from '../i18n/messages';
import { IssueTimeline, type IssueTimelineMessage } from './IssueTimeline';
import { useIssueTimeline } from './useIssueTimeline';
import { useUserNames, type UserDirectory } from './useUserNames';

export interface IssueTimelinePanelProps {
  hashId: string;
  /** Hears each item the subscription adds (the issue's facts may have changed with it). */
  onAdded?: (item: IssueTimeline_ItemFragment) => void;
  /** A new value reads the timeline again (after an edit, which adds no item). */
  generation?: number;
  linkTo?: LinkTo;
  /** Which users the caller may read (useUserDirectory): those its audit entries link to are named. */
  userDirectory: UserDirectory;
  messageActions?: (message: IssueTimelineMessage) => ReactNode;
  /** The message form under the timeline. */
  children?: ReactNode;
}

/**
 * An issue's live timeline in its panel, oldest first, more on request, the message form below it.
 * Users its audit entries link to (assignee, subscribers) are named, read once per new page.
 */
export function IssueTimelinePanel({ hashId, onAdded, generation, linkTo, userDirectory, messageActions, children }: IssueTimelinePanelProps) {
  const t = useMessages();
  const timeline = useIssueTimeline(hashId, { onAdded, generation });
  const linkedUsers = useMemo(
    () => timeline.items.flatMap((item) => (item.auditEntry === null ? [] : userHashIdsOf(diffEntriesOf(item.auditEntry.diff)))),
    [timeline.items],
  );
  const userNames = useUserNames(linkedUsers, userDirectory);
  return (
    <Panel>
      <h2>{t('issue.timeline')}</h2>
      {timeline.items.length === 0 && <TimelineEmpty loading={timeline.loading} />}
      <UserNamesContext.Provider value={userNames}>
        <IssueTimeline items={timeline.items} linkTo={linkTo} messageActions={messageActions} />
      </UserNamesContext.Provider>
      {timeline.hasMore && <LoadMore loading={timeline.loading} onClick={timeline.loadMore} />}
      {children}
    </Panel>
  );
}
