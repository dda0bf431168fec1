import { useId, useState } from 'react';
import styled from 'styled-components';
import type { ValidationIssue } from '../../../../../contracts/errors';
import { Button } from '../../../components/Button';
import { useSnackbar } from '../../../components/Snackbars';
import type { SettingsTab_DeviceFragment } from './SettingsTab.generated';
import type { DeviceUpdateInput } from './useUpdateDeviceSettings.generated';
import { useMessages, type MessageKey } from '../../../i18n/messages';
import { usePermissions } from '../../../session/usePermissions';
import { LazyConfigEditor } from '../../../devices/LazyConfigEditor';
import { issuesOfRefusal } from '../../../devices/refusals';
import { Panel } from '../../../devices/DeviceFrame';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';
import { lazyScreen } from '../../../shell/lazy-screen';
import { useUpdateDeviceSettings, type DeviceSave } from './useUpdateDeviceSettings';

// The organisation, group, contact and partnership parts bring pickers and forms: they load with
// the settings tab, not with the console's first page (the device list).
const DevicePlacement = lazyScreen(async () => (await import('./DevicePlacement')).DevicePlacement);
const DeviceOutageContacts = lazyScreen(async () => (await import('./DeviceOutageContacts')).DeviceOutageContacts);
const DevicePartnerships = lazyScreen(async () => (await import('./DevicePartnerships')).DevicePartnerships);

/** The switches of a device the settings tab edits. */
const switches = ['inProduction', 'isExposedToCustomer', 'monitorConnectivity', 'exportMessages', 'openForProvisioning'] as const;
type Switch = (typeof switches)[number];
type Draft = { name: string } & Record<Switch, boolean>;

function draftOf(device: SettingsTab_DeviceFragment): Draft {
  return {
    name: device.name,
    inProduction: device.inProduction,
    isExposedToCustomer: device.isExposedToCustomer,
    monitorConnectivity: device.monitorConnectivity,
    exportMessages: device.exportMessages,
    openForProvisioning: device.openForProvisioning,
  };
}

/** Only the fields that changed: a device in production refuses some writes even of unchanged values. */
export function changesOf(saved: Draft, draft: Draft): DeviceUpdateInput {
  const input: DeviceUpdateInput = {};
  if (draft.name !== saved.name) {
    input.name = draft.name;
  }
  for (const name of switches) {
    if (draft[name] !== saved[name]) {
      input[name] = draft[name];
    }
  }
  return input;
}

/**
 * The settings tab: the device's fields, its organisation and group, its outage contacts, the
 * partnerships sharing it, and its config. The production and exposure rules are the server's;
 * their refusals (in_production, no_valid_config, not_all_assets_have_identifier,
 * asset_identifiers_are_not_unique, user_has_no_access) show beside the part refused.
 */
export function SettingsTab({ device }: { device: SettingsTab_DeviceFragment }) {
  const t = useMessages();
  const nameId = useId();
  const { may } = usePermissions();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const [save, { loading }] = useUpdateDeviceSettings();
  // The other parts save through their own mutation, so this tab's save button spins for its own save only.
  const [saveOther] = useUpdateDeviceSettings();
  const [saved, setSaved] = useState(() => draftOf(device));
  const [draft, setDraft] = useState(saved);
  const [refusals, setRefusals] = useState<ValidationIssue[]>([]);
  const canSave = may('device.update');
  const changes = changesOf(saved, draft);
  // The device as last saved by any part of the tab (the page's query is not read again).
  const [current, setCurrent] = useState(device);
  const saveFields: DeviceSave = async (input) => {
    const answer = await saveOther(device.hashId, input);
    if (answer !== null) {
      setCurrent(answer);
    }
    snackbar.show({ tone: 'success', message: t('device.settings.saved') });
  };

  const onSave = async () => {
    setRefusals([]);
    try {
      const answer = await save(device.hashId, changes);
      if (answer !== null) {
        setCurrent(answer);
      }
      const next = answer === null ? draft : draftOf(answer);
      setSaved(next);
      setDraft(next);
      snackbar.show({ tone: 'success', message: t('device.settings.saved') });
    } catch (error) {
      const issues = issuesOfRefusal(error);
      if (issues === null) {
        showError(error);
      } else {
        setRefusals(issues);
      }
    }
  };

  return (
    <>
      <Panel>
        <h2>{t('device.settings.fields')}</h2>
        <Fields>
          <label htmlFor={nameId}>{t('device.settings.name')}</label>
          <input id={nameId} maxLength={255} value={draft.name} onChange={(event) => setDraft({ ...draft, name: event.target.value })} />
          {switches.map((name) => (
            <Check key={name}>
              <input type="checkbox" checked={draft[name]} onChange={(event) => setDraft({ ...draft, [name]: event.target.checked })} />
              {t(`device.settings.${name}` as MessageKey)}
            </Check>
          ))}
        </Fields>
        <Assets>
          {device.assets.map((asset) => (
            <li key={asset.index}>
              {asset.index}: {asset.type} — <code>{asset.identifier ?? '—'}</code>
            </li>
          ))}
        </Assets>
        {refusals.length > 0 && (
          <Refusals role="alert" data-testid="settings-refusals">
            {refusals.map((refusal, index) => (
              <li key={index}>
                {refusal.message}
                {refusal.path !== '' && <code> {refusal.path}</code>}
              </li>
            ))}
          </Refusals>
        )}
        <Button permitted={canSave} disabled={Object.keys(changes).length === 0} loading={loading} onClick={() => void onSave()}>
          {t('device.settings.save')}
        </Button>
      </Panel>
      <DevicePlacement device={current} permitted={canSave} save={saveFields} />
      <DeviceOutageContacts device={current} permitted={canSave} save={saveFields} />
      <DevicePartnerships device={current} />
      <Panel>
        <LazyConfigEditor key={device.hashId} device={device} canSave={canSave} />
      </Panel>
    </>
  );
}

const Fields = styled.div`
  display: flex;
  flex-direction: column;
  gap: 6px;
  max-width: 480px;
  input:not([type='checkbox']) {
    min-height: 36px;
    padding: 0 10px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: 6px;
  }
`;

const Check = styled.label`
  display: flex;
  align-items: center;
  gap: 8px;
`;

const Assets = styled.ul`
  padding-left: 20px;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Refusals = styled.ul`
  color: ${({ theme }) => theme.colors.error};
  padding-left: 20px;
`;
