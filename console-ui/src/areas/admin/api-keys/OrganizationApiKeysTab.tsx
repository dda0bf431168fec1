import { useApolloClient } from '@apollo/client/react';
import { useCallback, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Button } from '../../../components/Button';
import { OrganizationApiKeysDocument, type OrganizationApiKeysTab_ApiKeyFragment } from './OrganizationApiKeysTab.generated';
import { useMessages } from '../../../i18n/messages';
import { ListScreen, type ListColumn, type ListFilter, type ListPageLoader } from '../../../lists/ListScreen';
import { usePermissions } from '../../../session/usePermissions';
import { ipRangesOf } from './api-key-form';
import { ApiKeyFormDialog } from './ApiKeyFormDialog';
import { ApiKeySecretDialog } from './ApiKeySecretDialog';
import { useCreateApiKey, type ApiKeySecret } from './useCreateApiKey';

type Row = OrganizationApiKeysTab_ApiKeyFragment;

/** The list's filter (api.md section 7) as named in GraphQL and in the address; the organisation is the tab's. */
const apiKeyFilters = ['filter'] as const;

/**
 * The API keys tab of an organisation (/admin/organizations/{hashId}/api-keys): its keys, filtered
 * by name (kept in the address), each row opening the key; a new key's secret is shown once, then
 * the new key's screen opens.
 */
export function OrganizationApiKeysTab() {
  const t = useMessages();
  const { hashId = '' } = useParams();
  const client = useApolloClient();
  const navigate = useNavigate();
  const { may } = usePermissions();
  const createApiKey = useCreateApiKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ApiKeySecret | null>(null);

  const loadPage = useCallback<ListPageLoader<Row>>(
    async (filters, offset, rowsPerPage) => {
      const { data } = await client.query({
        query: OrganizationApiKeysDocument,
        variables: { ...filters, organizationHashId: hashId, offset, rowsPerPage },
        fetchPolicy: 'no-cache',
      });
      return data?.apiKeys ?? { rows: [], nextPageOffset: null };
    },
    [client, hashId],
  );
  const filters = useMemo<ListFilter[]>(() => apiKeyFilters.map((name) => ({ name, label: t(`apiKey.filter.${name}`) })), [t]);
  const columns = useMemo<ListColumn<Row>[]>(
    () => [
      { header: t('apiKey.name'), width: 'minmax(160px, 2fr)', text: (row) => row.name },
      {
        header: t('apiKey.ipRanges'),
        width: 'minmax(140px, 2fr)',
        text: (row) => (row.ipRanges.length === 0 ? t('apiKey.ipRanges.anywhere') : row.ipRanges.join(' ')),
        optional: true,
      },
      { header: t('apiKey.rights'), width: 'minmax(120px, 1.5fr)', text: (row) => row.rights.join(', '), optional: true },
      { header: t('apiKey.creator'), width: 'minmax(140px, 1.5fr)', text: (row) => row.user?.name ?? '', optional: true },
    ],
    [t],
  );

  return (
    <>
      <ListScreen
        title={t('apiKey.list.title')}
        filters={filters}
        columns={columns}
        loadPage={loadPage}
        rowKey={(row) => row.hashId}
        rowLink={(row) => `/admin/organizations/${hashId}/api-keys/${row.hashId}`}
        exportName="api-keys"
        empty={t('apiKey.list.empty')}
        actions={
          <Button permitted={may('apiKey.create')} onClick={() => setCreating(true)}>
            {t('apiKey.create')}
          </Button>
        }
      />
      {creating && (
        <ApiKeyFormDialog
          mode="create"
          initialValues={{ name: '', ipRanges: '', publicKey: '' }}
          onClose={() => setCreating(false)}
          onSubmit={async (values) => {
            const publicKey = values.publicKey.trim();
            setCreated(
              await createApiKey({
                organizationHashId: hashId,
                name: values.name.trim(),
                ipRanges: ipRangesOf(values.ipRanges),
                publicKey: publicKey === '' ? null : publicKey,
              }),
            );
          }}
        />
      )}
      {created !== null && (
        <ApiKeySecretDialog
          title={t('apiKey.created.title')}
          secret={created.apiKey}
          onClose={() => {
            setCreated(null);
            navigate(`/admin/organizations/${hashId}/api-keys/${created.hashId}`);
          }}
        />
      )}
    </>
  );
}
