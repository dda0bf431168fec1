import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import styled from 'styled-components';
import { Button } from '../../../components/Button';
import { LoadFailed } from '../../../components/LoadFailed';
import { useConfirm } from '../../../components/ConfirmDialog';
import { Panel } from '../../../components/ObjectFrame';
import { useSnackbar } from '../../../components/Snackbars';
import { useApolloErrorSnackbar, useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { ApiKeyScreenDocument } from './ApiKeyScreen.generated';
import type { ApiKeyUpdateInput } from './useUpdateApiKey.generated';
import { useMessages } from '../../../i18n/messages';
import { usePermissions } from '../../../session/usePermissions';
import { ObjectAuditLog } from '../audit/ObjectAuditLog';
import { ipRangesOf } from './api-key-form';
import { ApiKeyFormDialog, type ApiKeyFormDialogValues } from './ApiKeyFormDialog';
import { ApiKeySecretDialog } from './ApiKeySecretDialog';
import { useDeleteApiKey } from './useDeleteApiKey';
import { useResetApiKey } from './useResetApiKey';
import { useUpdateApiKey } from './useUpdateApiKey';

/** Only what the edit dialog changed, as updateApiKey takes it. */
export function apiKeyChanges(before: { name: string; ipRanges: readonly string[] }, values: ApiKeyFormDialogValues): ApiKeyUpdateInput {
  const input: ApiKeyUpdateInput = {};
  const name = values.name.trim();
  if (name !== before.name) {
    input.name = name;
  }
  const ipRanges = ipRangesOf(values.ipRanges);
  if (ipRanges.join('\n') !== before.ipRanges.join('\n')) {
    input.ipRanges = ipRanges;
  }
  const publicKey = values.publicKey.trim();
  if (values.removePublicKey) {
    input.publicKey = null;
  } else if (publicKey !== '') {
    input.publicKey = publicKey;
  }
  return input;
}

/**
 * One API key (/admin/organizations/{hashId}/api-keys/{apiKeyHashId}): its name, rights, creator
 * and IP ranges; edit (name, IP ranges, public key), reset (the new secret shown once) and
 * delete (back to the list), each after confirmation where it cannot be undone; its history.
 */
export function ApiKeyScreen() {
  const t = useMessages();
  const { hashId = '', apiKeyHashId = '' } = useParams();
  const navigate = useNavigate();
  const { may } = usePermissions();
  const confirm = useConfirm();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const { data, error, refetch } = useQuery(ApiKeyScreenDocument, { variables: { hashId: apiKeyHashId } });
  useQueryErrorSnackbar(error);
  const updateApiKey = useUpdateApiKey();
  const resetApiKey = useResetApiKey();
  const deleteApiKey = useDeleteApiKey();
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const listPath = `/admin/organizations/${hashId}/api-keys`;
  const apiKey = data?.apiKey;

  // Confirmed work that fails keeps its dialog open, with the failure in the snackbar.
  const confirmed = (work: () => Promise<void>) => async () => {
    try {
      await work();
    } catch (failure) {
      showError(failure);
      throw failure;
    }
  };

  const reset = () =>
    void confirm({
      type: 'warning',
      title: t('apiKey.reset.title'),
      message: t('apiKey.reset.message'),
      confirmText: t('apiKey.reset'),
      waitForConfirm: true,
      onConfirm: confirmed(async () => setSecret((await resetApiKey(apiKeyHashId)).apiKey)),
    });

  const remove = () =>
    void confirm({
      type: 'danger',
      title: t('apiKey.delete.title'),
      message: t('apiKey.delete.message', { name: apiKey?.name ?? '' }),
      confirmText: t('apiKey.delete'),
      waitForConfirm: true,
      onConfirm: confirmed(async () => {
        await deleteApiKey(apiKeyHashId);
        snackbar.show({ tone: 'success', message: t('apiKey.deleted') });
        navigate(listPath);
      }),
    });

  return (
    <section>
      <Link to={listPath}>{t('apiKey.back')}</Link>
      <Panel aria-labelledby="api-key-title">
        <Heading>
          <h2 id="api-key-title">{apiKey?.name ?? t('apiKey.details')}</h2>
          <Button variant="text" permitted={may('apiKey.update')} disabled={apiKey === undefined} onClick={() => setEditing(true)}>
            {t('apiKey.edit')}
          </Button>
          <Button variant="warning" permitted={may('apiKey.reset')} disabled={apiKey === undefined} onClick={reset}>
            {t('apiKey.reset')}
          </Button>
          <Button variant="danger" permitted={may('apiKey.delete')} disabled={apiKey === undefined} onClick={remove}>
            {t('apiKey.delete')}
          </Button>
        </Heading>
        {apiKey === undefined ? (
          error === undefined ? (
            <p>{t('loading')}</p>
          ) : (
            // A failed retry shows through the query's error and its snackbar.
            <LoadFailed message={t('apiKey.failed')} onRetry={() => void refetch().catch(() => undefined)} />
          )
        ) : (
          <Details>
            <dt>{t('apiKey.name')}</dt>
            <dd>{apiKey.name}</dd>
            <dt>{t('apiKey.rights')}</dt>
            <dd>{apiKey.rights.join(', ')}</dd>
            <dt>{t('apiKey.creator')}</dt>
            <dd>{apiKey.user === null ? t('apiKey.creator.none') : `${apiKey.user.name} <${apiKey.user.email}>`}</dd>
            <dt>{t('apiKey.ipRanges')}</dt>
            <dd>
              {apiKey.ipRanges.length === 0 ? (
                t('apiKey.ipRanges.anywhere')
              ) : (
                <Ranges aria-label={t('apiKey.ipRanges')}>
                  {apiKey.ipRanges.map((range) => (
                    <li key={range}>{range}</li>
                  ))}
                </Ranges>
              )}
            </dd>
            <dt>{t('apiKey.publicKey')}</dt>
            <dd>{t('apiKey.publicKey.about')}</dd>
          </Details>
        )}
      </Panel>
      <Panel aria-labelledby="api-key-history">
        <h2 id="api-key-history">{t('apiKey.history')}</h2>
        <ObjectAuditLog objectType="API_KEYS" hashId={apiKeyHashId} label={t('apiKey.history')} />
      </Panel>
      {editing && apiKey !== undefined && (
        <ApiKeyFormDialog
          mode="edit"
          initialValues={{ name: apiKey.name, ipRanges: apiKey.ipRanges.join('\n'), publicKey: '' }}
          onClose={() => setEditing(false)}
          onSubmit={async (values) => {
            await updateApiKey(apiKeyHashId, apiKeyChanges(apiKey, values));
            snackbar.show({ tone: 'success', message: t('apiKey.saved') });
            await refetch();
          }}
        />
      )}
      {secret !== null && <ApiKeySecretDialog title={t('apiKey.reset.done.title')} secret={secret} onClose={() => setSecret(null)} />}
    </section>
  );
}

const Heading = styled.div`
  display: flex;
  align-items: center;
  gap: 8px;
  flex-wrap: wrap;
  h2 {
    margin: 0 auto 0 0;
    overflow-wrap: anywhere;
  }
`;

const Details = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: 6px 16px;
  margin: 12px 0 0;
  dt {
    color: ${({ theme }) => theme.colors.textMuted};
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

const Ranges = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
  font-family: monospace;
`;
