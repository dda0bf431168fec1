import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { apiErrorOfApollo } from '../../../api/apollo';
import { Button } from '../../../components/Button';
import { useConfirm } from '../../../components/ConfirmDialog';
import { Panel } from '../../../components/ObjectFrame';
import { useSnackbar } from '../../../components/Snackbars';
import { useDebouncedValue } from '../../../components/useDebouncedValue';
import { useApolloErrorSnackbar, useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { DeviceGroupApiKeyChoicesDocument, LinkDeviceGroupApiKeyDocument, UnlinkDeviceGroupApiKeyDocument } from './DeviceGroupApiKeysTab.generated';
import { useMessages } from '../../../i18n/messages';
import { ShortList, type ShortListColumn } from '../../../lists/ShortList';
import { usePermissions } from '../../../session/usePermissions';
import { PickerChosen } from '../pickers/picker.styles';
import { SearchResults } from '../pickers/SearchResults';
import { useDeviceGroup, type DeviceGroup } from './device-group-outlet';

type LinkedKey = DeviceGroup['apiKeys'][number];

/** The key's page, on its organisation's api-keys tab. */
const keyPath = (group: DeviceGroup, key: LinkedKey) => `/admin/organizations/${group.organizationHashId}/api-keys/${key.hashId}`;

/** Why the server refused a link (already_configured, has_access) as the tab says it; null for any other failure. */
function useLinkRefusal(): (error: unknown) => string | null {
  const t = useMessages();
  return (error) => {
    const apiError = apiErrorOfApollo(error);
    if (apiError?.is('already_configured')) {
      return t('deviceGroup.apiKeys.alreadyConfigured');
    }
    if (apiError?.is('has_access')) {
      return t('deviceGroup.apiKeys.hasAccess');
    }
    return null;
  };
}

/**
 * The group's api-keys tab: the keys linked to it (a linked key sees only the devices of its
 * groups), linking one of the organisation's keys and unlinking one (asked first).
 */
export function DeviceGroupApiKeysTab() {
  const t = useMessages();
  const { group, reload } = useDeviceGroup();
  const { may } = usePermissions();
  const confirm = useConfirm();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const refusalOf = useLinkRefusal();
  const [link, { loading: linking }] = useMutation(LinkDeviceGroupApiKeyDocument);
  const [unlink] = useMutation(UnlinkDeviceGroupApiKeyDocument);
  const [search, setSearch] = useState('');
  const trimmed = useDebouncedValue(search.trim());
  const [chosen, setChosen] = useState<LinkedKey | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const { data, error } = useQuery(DeviceGroupApiKeyChoicesDocument, {
    variables: { organizationHashId: group.organizationHashId, filter: trimmed },
    skip: trimmed === '',
  });
  useQueryErrorSnackbar(error);
  const isLinked = (hashId: string) => group.apiKeys.some((key) => key.hashId === hashId);

  const onLink = async () => {
    if (chosen === null) {
      return;
    }
    setRefusal(null);
    try {
      await link({ variables: { deviceGroupHashId: group.hashId, apiKeyHashId: chosen.hashId } });
      await reload();
      snackbar.show({ tone: 'success', message: t('deviceGroup.apiKeys.linked', { name: chosen.name }) });
      setChosen(null);
      setSearch('');
    } catch (failure) {
      const refused = refusalOf(failure);
      if (refused === null) {
        showError(failure);
      } else {
        setRefusal(refused);
      }
    }
  };

  const onUnlink = async (key: LinkedKey) => {
    const confirmed = await confirm({
      type: 'danger',
      title: t('deviceGroup.apiKeys.unlink.title', { name: key.name }),
      message: t('deviceGroup.apiKeys.unlink.message'),
      confirmText: t('deviceGroup.apiKeys.unlink'),
    });
    if (!confirmed) {
      return;
    }
    try {
      await unlink({ variables: { deviceGroupHashId: group.hashId, apiKeyHashId: key.hashId } });
      await reload();
      snackbar.show({ tone: 'success', message: t('deviceGroup.apiKeys.unlinked', { name: key.name }) });
    } catch (failure) {
      showError(failure);
    }
  };

  const columns: ShortListColumn<LinkedKey>[] = [
    { header: t('deviceGroup.apiKeys.name'), text: (key) => key.name, cell: (key) => <Link to={keyPath(group, key)}>{key.name}</Link> },
    { header: t('deviceGroup.apiKeys.hashId'), text: (key) => key.hashId, cell: (key) => <code>{key.hashId}</code> },
  ];
  const mayUnlink = may('deviceGroup.unlinkApiKey');
  return (
    <>
      <Panel>
        <ShortList
          title={t('deviceGroup.apiKeys.title')}
          columns={columns}
          rows={group.apiKeys}
          rowKey={(key) => key.hashId}
          empty={t('deviceGroup.apiKeys.empty')}
          exportName={`device-group-${group.hashId}-api-keys`}
          rowActions={{
            header: t('deviceGroup.apiKeys.actions'),
            cell: (key) => (
              <Button
                variant="text"
                permitted={mayUnlink}
                aria-label={t('deviceGroup.apiKeys.unlinkOne', { name: key.name })}
                onClick={() => void onUnlink(key)}
              >
                {t('deviceGroup.apiKeys.unlink')}
              </Button>
            ),
          }}
        />
      </Panel>
      <Panel>
        <h2>{t('deviceGroup.apiKeys.link.title')}</h2>
        <p>{t('deviceGroup.apiKeys.link.help', { organization: group.organization.name })}</p>
        <Search>
          <input
            aria-label={t('deviceGroup.apiKeys.search')}
            placeholder={t('deviceGroup.apiKeys.search')}
            maxLength={255}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
          {trimmed !== '' && (
            <SearchResults
              label={t('deviceGroup.apiKeys.found')}
              found={data?.apiKeys.rows}
              nothing={t('deviceGroup.apiKeys.nothing')}
              itemKey={(key) => key.hashId}
              itemText={(key) => (isLinked(key.hashId) ? t('deviceGroup.apiKeys.choiceLinked', { name: key.name }) : key.name)}
              isChosen={(key) => key.hashId === chosen?.hashId}
              onChoose={(key) => setChosen({ hashId: key.hashId, name: key.name })}
            />
          )}
          <PickerChosen>{chosen === null ? t('deviceGroup.apiKeys.noneChosen') : t('deviceGroup.apiKeys.chosen', { name: chosen.name })}</PickerChosen>
        </Search>
        {refusal !== null && (
          <Refusal role="alert" data-testid="link-refusal">
            {refusal}
          </Refusal>
        )}
        <Button permitted={may('deviceGroup.linkApiKey')} disabled={chosen === null} loading={linking} onClick={() => void onLink()}>
          {t('deviceGroup.apiKeys.link')}
        </Button>
      </Panel>
    </>
  );
}

const Search = styled.div`
  display: flex;
  flex-direction: column;
  gap: 6px;
  max-width: 480px;
  margin-bottom: 12px;
  input {
    min-height: 36px;
    padding: 0 10px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: 6px;
  }
`;

const Refusal = styled.p`
  color: ${({ theme }) => theme.colors.error};
`;
