import { useApolloClient, useQuery } from '@apollo/client/react';
import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { customerIssueAssignees, issueStatuses, type CustomerIssueAssignee, type IssueStatus } from '../../../../../contracts/issue';
import { Chip, ChipGroup } from '../../../components/Chip';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';
import { usePagedRows } from '../../../devices/usePagedRows';
import { CustomerIssueCountsDocument, CustomerIssueListDocument } from './IssueListScreen.generated';
import type { IssueTable_IssueFragment } from '../../../issues/IssueTable.generated';
import { useMessages } from '../../../i18n/messages';
import { IssueTable, issueColumns } from '../../../issues/IssueTable';
import { CsvExportButton } from '../../../lists/CsvExportButton';
import { issuePageSize, issueStatusEnum, paramOf } from '../../../issues/issue-filters';

/** The customer's issues (/issues): the assignee filter (console.md section 7) and status, with the counts. */
export function IssueListScreen() {
  const t = useMessages();
  const client = useApolloClient();
  const showError = useApolloErrorSnackbar();
  const [search, setSearch] = useSearchParams();
  const assignee = paramOf(customerIssueAssignees, search.get('assignee')) ?? null;
  const status = paramOf(issueStatuses, search.get('status')) ?? null;
  const counts = useQuery(CustomerIssueCountsDocument, { fetchPolicy: 'cache-and-network' });
  const count = counts.data?.issueCount;

  const loadPage = useCallback(
    async (offset: string | null, rowsPerPage = issuePageSize) => {
      const variables = { assignee, status: status === null ? null : issueStatusEnum[status], offset, rowsPerPage };
      const { data } = await client.query({ query: CustomerIssueListDocument, variables, fetchPolicy: 'no-cache' });
      return data?.issues ?? { rows: [], nextPageOffset: null };
    },
    [client, assignee, status],
  );
  const list = usePagedRows<IssueTable_IssueFragment>(`${assignee ?? ''}|${status ?? ''}`, loadPage);
  const csvColumns = useMemo(() => issueColumns(t, false), [t]);
  useEffect(() => {
    if (list.error !== null) {
      showError(list.error);
    }
  }, [list.error, showError]);

  /** The address with one filter changed, the other kept. */
  const choose = (name: 'assignee' | 'status', value: string | null) => {
    const next = new URLSearchParams(search);
    if (value === null) {
      next.delete(name);
    } else {
      next.set(name, value);
    }
    setSearch(next);
  };
  const pending = '…';
  const assignees: { value: CustomerIssueAssignee | null; label: string }[] = [
    { value: null, label: t('issue.assignee.all') },
    { value: 'myOrganization', label: t('issue.assignee.myOrganization', { count: count?.assignedToMyOrganizationCount ?? pending }) },
    { value: 'me', label: t('issue.assignee.me', { count: count?.assignedToMeCount ?? pending }) },
    { value: 'gridport', label: t('issue.assignee.gridport') },
    { value: 'external', label: t('issue.assignee.external') },
  ];
  const statuses: { value: IssueStatus | null; label: string }[] = [
    { value: null, label: t('issue.status.all') },
    { value: 'open', label: t('issue.status.open', { count: count?.openCount ?? pending }) },
    { value: 'resolved', label: t('issue.status.resolved') },
  ];

  return (
    <section>
      <h1>{t('issues.title')}</h1>
      <ChipGroup role="group" aria-label={t('issue.filter.assignee')}>
        {assignees.map((choice) => (
          <Chip key={choice.value ?? 'all'} aria-pressed={assignee === choice.value} onClick={() => choose('assignee', choice.value)}>
            {choice.label}
          </Chip>
        ))}
      </ChipGroup>
      <ChipGroup role="group" aria-label={t('issue.filter.status')}>
        {statuses.map((choice) => (
          <Chip key={choice.value ?? 'all'} aria-pressed={status === choice.value} onClick={() => choose('status', choice.value)}>
            {choice.label}
          </Chip>
        ))}
      </ChipGroup>
      <CsvExportButton loadPage={loadPage} columns={csvColumns} fileName="issues" />
      <IssueTable label={t('issues.title')} rows={list.rows} rowLink={(row) => `/issues/${row.hashId}`} onNearEnd={list.loadMore} loading={list.loading} />
    </section>
  );
}
