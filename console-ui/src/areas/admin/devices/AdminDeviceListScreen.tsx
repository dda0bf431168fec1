import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button } from '../../../components/Button';
import { FilterActions, FilterForm } from '../../../components/FilterForm';
import { formatPower } from '../../../format/power';
import { AdminDeviceListDocument, type AdminDeviceListQueryVariables, type AdminDeviceListScreen_DeviceFragment } from '../../../graphql/operations';
import { useMessages, type MessageKey } from '../../../i18n/messages';
import { pageSizeAt } from '../../../devices/device-page-size';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';
import { usePagedRows } from '../../../devices/usePagedRows';
import { VirtualList, type VirtualListColumn } from '../../../components/VirtualList';
import { OnlineState } from '../../../devices/OnlineState';

/** Every filter of the admin device list (console.md section 7), as named in GraphQL and in the address. */
export const adminDeviceFilters = [
  'filter',
  'hashId',
  'deviceGroupHashId',
  'organizationHashId',
  'assetType',
  'assetIdentifier',
  'iccid',
  'imsi',
  'activeControlType',
  'activeControlIdentifier',
] as const;
type AdminDeviceFilter = (typeof adminDeviceFilters)[number];
type Filters = Partial<Record<AdminDeviceFilter, string>>;

/** The filters of the address, trimmed; empty ones left out (the API ignores no filter). */
function filtersOf(search: URLSearchParams): Filters {
  const filters: Filters = {};
  for (const name of adminDeviceFilters) {
    const value = search.get(name)?.trim() ?? '';
    if (value !== '') {
      filters[name] = value;
    }
  }
  return filters;
}

/** The staff device list (/admin/devices): every filter the API offers, the devices virtualised. */
export function AdminDeviceListScreen() {
  const t = useMessages();
  const client = useApolloClient();
  const showError = useApolloErrorSnackbar();
  const [search, setSearch] = useSearchParams();
  const applied = useMemo(() => filtersOf(search), [search]);
  const [draft, setDraft] = useState<Filters>(applied);
  const key = JSON.stringify(applied);

  const loadPage = useCallback(
    async (offset: string | null) => {
      const variables: AdminDeviceListQueryVariables = { ...(JSON.parse(key) as Filters), offset, rowsPerPage: pageSizeAt(offset) };
      const { data } = await client.query({ query: AdminDeviceListDocument, variables, fetchPolicy: 'no-cache' });
      return data?.devices ?? { rows: [], nextPageOffset: null };
    },
    [client, key],
  );
  const list = usePagedRows<AdminDeviceListScreen_DeviceFragment>(key, loadPage);
  useEffect(() => {
    if (list.error !== null) {
      showError(list.error);
    }
  }, [list.error, showError]);

  const yesNo = useCallback((value: boolean) => t(value ? 'device.yes' : 'device.no'), [t]);
  const columns = useMemo<VirtualListColumn<AdminDeviceListScreen_DeviceFragment>[]>(
    () => [
      { header: t('device.list.name'), width: 'minmax(140px, 2fr)', cell: (row) => row.name },
      { header: t('device.list.identifier'), width: 'minmax(120px, 2fr)', cell: (row) => row.identifier, optional: true },
      { header: t('device.list.organization'), width: 'minmax(120px, 1.5fr)', cell: (row) => row.organization?.name ?? '', optional: true },
      { header: t('device.list.power'), width: '110px', cell: (row) => formatPower(row.nominalActivePowerSum), optional: true },
      { header: t('device.list.production'), width: '90px', cell: (row) => yesNo(row.inProduction), optional: true },
      { header: t('device.list.exposed'), width: '80px', cell: (row) => yesNo(row.isExposedToCustomer), optional: true },
      {
        header: t('device.list.state'),
        width: '80px',
        cell: (row) => <OnlineState online={row.isOnline} onlineText={t('device.online')} offlineText={t('device.offline')} />,
      },
    ],
    [t, yesNo],
  );

  const apply = () => {
    const next = new URLSearchParams();
    // In the API's order, so the same filters always read the same in the address.
    for (const name of adminDeviceFilters) {
      const value = draft[name]?.trim() ?? '';
      if (value !== '') {
        next.set(name, value);
      }
    }
    setSearch(next);
  };

  return (
    <section>
      <h1>{t('devices.title')}</h1>
      <FilterForm
        aria-label={t('device.filter.apply')}
        onSubmit={(event: FormEvent) => {
          // Enter in a field searches too.
          event.preventDefault();
          apply();
        }}
      >
        {adminDeviceFilters.map((name) => (
          <label key={name}>
            <span>{t(`device.filter.${name}` as MessageKey)}</span>
            <input
              name={name}
              maxLength={255}
              value={draft[name] ?? ''}
              onChange={(event) => setDraft((current) => ({ ...current, [name]: event.target.value }))}
            />
          </label>
        ))}
        <FilterActions>
          <Button onClick={apply}>{t('device.filter.apply')}</Button>
          <Button
            variant="text"
            onClick={() => {
              setDraft({});
              setSearch(new URLSearchParams());
            }}
          >
            {t('device.filter.clear')}
          </Button>
        </FilterActions>
      </FilterForm>
      <VirtualList
        label={t('devices.title')}
        rows={list.rows}
        columns={columns}
        rowKey={(row) => row.hashId}
        rowLink={(row) => `/admin/devices/${row.hashId}/timeline`}
        onNearEnd={list.loadMore}
        empty={list.loading ? t('device.list.loading') : t('device.list.empty')}
      />
    </section>
  );
}
