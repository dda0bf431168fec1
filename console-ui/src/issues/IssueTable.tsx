import { useMemo } from 'react';
import styled from 'styled-components';
import { VirtualList, type VirtualListColumn } from '../components/VirtualList';
import type { IssueTable_IssueFragment } from './IssueTable.generated';
import { useMessages, type Translate } from '../i18n/messages';
import { IssueStatusBadge } from './IssueStatusBadge';
import type { ListColumn } from '../lists/ListScreen';

export interface IssueTableProps {
  rows: readonly IssueTable_IssueFragment[];
  rowLink: (issue: IssueTable_IssueFragment) => string;
  onNearEnd: () => void;
  loading: boolean;
  label: string;
  /** The next-activity column (staff plan by it). */
  showNextActivity?: boolean;
}

/** Who an issue waits on: its assigned user, an email, else Gridport when the provider handles it, else nobody. */
export function assigneeOf(issue: Pick<IssueTable_IssueFragment, 'assignedUser' | 'assignedEmail' | 'gridportIssueOwner'>, t: Translate): string {
  return issue.assignedUser?.name ?? issue.assignedEmail ?? t(issue.gridportIssueOwner ? 'issue.gridport' : 'issue.unassigned');
}

const when = (at: string | null) => (at === null ? '' : new Date(at).toLocaleString());

/** The columns of an issue list, each with the text it exports (and shows, unless it has a cell of its own). */
export function issueColumns(t: Translate, showNextActivity: boolean): ListColumn<IssueTable_IssueFragment>[] {
  return [
    { header: t('issue.list.title'), width: 'minmax(160px, 3fr)', text: (row) => row.title },
    { header: t('issue.list.device'), width: 'minmax(120px, 1.5fr)', text: (row) => row.device?.name ?? '', optional: true },
    { header: t('issue.list.assignee'), width: 'minmax(120px, 1.5fr)', text: (row) => assigneeOf(row, t), optional: true },
    { header: t('issue.list.messages'), width: '90px', text: (row) => String(row.messageCount), optional: true },
    ...(showNextActivity
      ? [{ header: t('issue.list.nextActivityDueAt'), width: '170px', text: (row: IssueTable_IssueFragment) => when(row.nextActivityDueAt), optional: true }]
      : []),
    { header: t('issue.list.createdAt'), width: '170px', text: (row) => when(row.createdAt), optional: true },
    {
      header: t('issue.list.status'),
      width: '90px',
      text: (row) => t(row.status === 'OPEN' ? 'issue.status.OPEN' : 'issue.status.RESOLVED'),
      cell: (row) => <IssueStatusBadge status={row.status} />,
    },
  ];
}

/** A list of issues (the issue screens of both areas, a device's issues tab), with the virtualised list the device lists use. */
export function IssueTable({ rows, rowLink, onNearEnd, loading, label, showNextActivity = false }: IssueTableProps) {
  const t = useMessages();
  const columns = useMemo<VirtualListColumn<IssueTable_IssueFragment>[]>(
    () => issueColumns(t, showNextActivity).map((column) => ({ ...column, cell: column.cell ?? column.text })),
    [t, showNextActivity],
  );
  return (
    <Wrap>
      <VirtualList
        label={label}
        rows={rows}
        columns={columns}
        rowKey={(row) => row.hashId}
        rowLink={rowLink}
        onNearEnd={onNearEnd}
        empty={loading ? t('issue.list.loading') : t('issue.list.empty')}
      />
    </Wrap>
  );
}

const Wrap = styled.div`
  margin-top: 8px;
`;
