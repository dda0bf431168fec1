import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { issueOwners, issueSorts, issueStatuses, type IssueOwner, type IssueSort, type IssueStatus } from '../../../../../contracts/issue';
import { Button } from '../../../components/Button';
import { FilterActions, FilterForm } from '../../../components/FilterForm';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';
import { usePagedRows } from '../../../devices/usePagedRows';
import { AdminIssueListDocument, type AdminIssueListQueryVariables } from './AdminIssueList.generated';
import type { IssueTable_IssueFragment } from '../../../issues/IssueTable.generated';
import { useMessages } from '../../../i18n/messages';
import { IssueTable, issueColumns } from '../../../issues/IssueTable';
import { CsvExportButton } from '../../../lists/CsvExportButton';
import { issueOwnerEnum, issuePageSize, issueSortEnum, issueStatusEnum, paramOf } from '../../../issues/issue-filters';
import { IssueDeviceFilter } from './IssueDeviceFilter';
import { IssueUserFilter } from './IssueUserFilter';

/** The filters of the admin issue list, as named in the address (console.md section 7). */
interface Filters {
  status?: IssueStatus;
  deviceHashId?: string;
  owner?: IssueOwner;
  assignee?: string;
  subscriber?: string;
  sortBy?: IssueSort;
}

const texts = ['deviceHashId', 'assignee', 'subscriber'] as const;

function filtersOf(search: URLSearchParams): Filters {
  const filters: Filters = {
    status: paramOf(issueStatuses, search.get('status')),
    owner: paramOf(issueOwners, search.get('owner')),
    sortBy: paramOf(issueSorts, search.get('sortBy')),
  };
  for (const name of texts) {
    const value = search.get(name)?.trim() ?? '';
    if (value !== '') {
      filters[name] = value;
    }
  }
  return filters;
}

/** The address of the filters, in a fixed order, empty ones left out. */
function searchOf(filters: Filters): URLSearchParams {
  const search = new URLSearchParams();
  for (const name of ['status', 'deviceHashId', 'owner', 'assignee', 'subscriber', 'sortBy'] as const) {
    const value = filters[name]?.trim() ?? '';
    if (value !== '') {
      search.set(name, value);
    }
  }
  return search;
}

function variablesOf(filters: Filters): AdminIssueListQueryVariables {
  return {
    status: filters.status === undefined ? null : issueStatusEnum[filters.status],
    deviceHashId: filters.deviceHashId ?? null,
    owner: filters.owner === undefined ? null : issueOwnerEnum[filters.owner],
    assignee: filters.assignee ?? null,
    subscriber: filters.subscriber ?? null,
    sortBy: filters.sortBy === undefined ? null : issueSortEnum[filters.sortBy],
  };
}

/**
 * The staff issue list with its filters (status, device, owner, assignee, subscriber) and sorts,
 * kept in the address. Given a device, it lists that device's issues (the device's issues tab).
 */
export function AdminIssueList({ deviceHashId }: { deviceHashId?: string }) {
  const t = useMessages();
  const client = useApolloClient();
  const showError = useApolloErrorSnackbar();
  const [search, setSearch] = useSearchParams();
  const applied = useMemo(() => ({ ...filtersOf(search), ...(deviceHashId === undefined ? {} : { deviceHashId }) }), [search, deviceHashId]);
  const [draft, setDraft] = useState<Filters>(applied);
  // Clearing starts the device and user filters afresh (a search under way is dropped too).
  const [cleared, setCleared] = useState(0);
  const key = JSON.stringify(applied);

  const loadPage = useCallback(
    async (offset: string | null, rowsPerPage = issuePageSize) => {
      const variables = { ...variablesOf(JSON.parse(key) as Filters), offset, rowsPerPage };
      const { data } = await client.query({ query: AdminIssueListDocument, variables, fetchPolicy: 'no-cache' });
      return data?.issues ?? { rows: [], nextPageOffset: null };
    },
    [client, key],
  );
  const list = usePagedRows<IssueTable_IssueFragment>(key, loadPage);
  const csvColumns = useMemo(() => issueColumns(t, true), [t]);
  useEffect(() => {
    if (list.error !== null) {
      showError(list.error);
    }
  }, [list.error, showError]);

  const set = (name: keyof Filters, value: string) => setDraft((current) => ({ ...current, [name]: value === '' ? undefined : value }));
  const apply = () => setSearch(searchOf({ ...draft, ...(deviceHashId === undefined ? {} : { deviceHashId: undefined }) }));

  return (
    <>
      <FilterForm
        aria-label={t('issue.filter.apply')}
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          apply();
        }}
      >
        <label>
          <span>{t('issue.filter.status')}</span>
          <select name="status" value={draft.status ?? ''} onChange={(event) => set('status', event.target.value)}>
            <option value="">{t('issue.filter.any')}</option>
            <option value="open">{t('issue.status.OPEN')}</option>
            <option value="resolved">{t('issue.status.RESOLVED')}</option>
          </select>
        </label>
        {deviceHashId === undefined && (
          <IssueDeviceFilter
            key={`device-${cleared}`}
            label={t('issue.filter.device')}
            value={draft.deviceHashId}
            onChange={(value) => set('deviceHashId', value ?? '')}
          />
        )}
        <label>
          <span>{t('issue.filter.owner')}</span>
          <select name="owner" value={draft.owner ?? ''} onChange={(event) => set('owner', event.target.value)}>
            <option value="">{t('issue.filter.any')}</option>
            <option value="gridport">{t('issue.owner.GRIDPORT')}</option>
            <option value="customer">{t('issue.owner.CUSTOMER')}</option>
          </select>
        </label>
        <IssueUserFilter
          key={`assignee-${cleared}`}
          name="assignee"
          label={t('issue.filter.assignee')}
          value={draft.assignee}
          onChange={(value) => set('assignee', value ?? '')}
          allowNone
        />
        <IssueUserFilter
          key={`subscriber-${cleared}`}
          name="subscriber"
          label={t('issue.filter.subscriber')}
          value={draft.subscriber}
          onChange={(value) => set('subscriber', value ?? '')}
        />
        <label>
          <span>{t('issue.filter.sortBy')}</span>
          <select name="sortBy" value={draft.sortBy ?? 'createdAtDesc'} onChange={(event) => set('sortBy', event.target.value)}>
            <option value="createdAtDesc">{t('issue.sort.CREATED_AT_DESC')}</option>
            <option value="createdAtAsc">{t('issue.sort.CREATED_AT_ASC')}</option>
            <option value="nextActivityDueAt">{t('issue.sort.NEXT_ACTIVITY_DUE_AT')}</option>
          </select>
        </label>
        <FilterActions>
          <Button onClick={apply}>{t('issue.filter.apply')}</Button>
          <Button
            variant="text"
            onClick={() => {
              setDraft({});
              setCleared((count) => count + 1);
              setSearch(new URLSearchParams());
            }}
          >
            {t('issue.filter.clear')}
          </Button>
          <CsvExportButton loadPage={loadPage} columns={csvColumns} fileName="issues" />
        </FilterActions>
      </FilterForm>
      <IssueTable
        label={t('issues.title')}
        rows={list.rows}
        rowLink={(row) => `/admin/issues/${row.hashId}`}
        onNearEnd={list.loadMore}
        loading={list.loading}
        showNextActivity
      />
    </>
  );
}
