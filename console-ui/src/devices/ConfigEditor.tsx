import { useDeferredValue, useId, useMemo, useState } from 'react';
import styled from 'styled-components';
import type { ValidationIssue } from '../../../contracts/errors';
import { Button } from '../components/Button';
import { useSnackbar } from '../components/Snackbars';
import { useApolloErrorSnackbar } from '../components/useErrorSnackbar';
import type { ConfigEditor_DeviceFragment } from './ConfigEditor.generated';
import { useMessages } from '../i18n/messages';
import { checkConfigText, credentialsWithheld } from './config-issues';
import { issuesOfRefusal } from './refusals';
import { useUpdateDeviceConfig } from './useUpdateDeviceConfig';

function textOf(config: unknown): string {
  return config === null || config === undefined ? '{}' : JSON.stringify(config, null, 2);
}

export interface ConfigEditorProps {
  device: ConfigEditor_DeviceFragment;
  /** Whether the user may save (Ops and Developer); others read and check only, with the "no permission" hint. */
  canSave: boolean;
}

/**
 * A device's config as JSON, checked as it is typed with the shared schema (the spec's messages),
 * saved through updateDevice; the server's invalid_config issues and device refusals show beside it.
 */
export function ConfigEditor({ device, canSave }: ConfigEditorProps) {
  const t = useMessages();
  const id = useId();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const [saved, setSaved] = useState(() => textOf(device.config));
  const [text, setText] = useState(saved);
  const [serverIssues, setServerIssues] = useState<ValidationIssue[]>([]);
  const [save, { loading }] = useUpdateDeviceConfig();
  // Checking a large config on every key would make typing lag; the check follows the text.
  const checked = useDeferredValue(text);
  const withheld = credentialsWithheld(device.config);
  const check = useMemo(() => checkConfigText(checked, { withheld }), [checked, withheld]);
  const valid = check.kind === 'json' && check.issues.length === 0;

  const onSave = async () => {
    if (check.kind !== 'json') {
      return;
    }
    setServerIssues([]);
    try {
      const answer = await save(device.hashId, check.config);
      const savedText = textOf(answer?.config ?? check.config);
      setSaved(savedText);
      setText(savedText);
      snackbar.show({ tone: 'success', message: t('device.config.saved') });
    } catch (error) {
      const issues = issuesOfRefusal(error);
      if (issues === null) {
        showError(error);
      } else {
        setServerIssues(issues);
      }
    }
  };

  return (
    <Editor>
      {device.config === null && <p>{t('device.config.none')}</p>}
      {withheld && <Help>{t('device.config.credentialsWithheld')}</Help>}
      <label htmlFor={id}>{t('device.config.title')}</label>
      <textarea
        id={id}
        value={text}
        spellCheck={false}
        aria-invalid={!valid}
        aria-describedby={`${id}-check`}
        onChange={(event) => {
          setText(event.target.value);
          setServerIssues([]);
        }}
      />
      <Help>{t('device.config.help')}</Help>
      <div id={`${id}-check`}>
        {check.kind === 'notJson' ? (
          <Issues role="alert">
            <p>{t('device.config.notJson', { reason: check.reason })}</p>
          </Issues>
        ) : check.issues.length > 0 ? (
          <Issues role="alert" data-testid="config-issues">
            <p>{t('device.config.issues', { count: check.issues.length })}</p>
            <IssueList issues={check.issues} />
          </Issues>
        ) : (
          <Valid role="status">{t('device.config.valid')}</Valid>
        )}
        {serverIssues.length > 0 && (
          <Issues role="alert" data-testid="config-server-issues">
            <p>{t('device.config.serverIssues')}</p>
            <IssueList issues={serverIssues} />
          </Issues>
        )}
      </div>
      <Actions>
        <Button permitted={canSave} disabled={!valid || text === saved} loading={loading} onClick={() => void onSave()}>
          {t('device.config.save')}
        </Button>
        <Button variant="text" disabled={text === saved} onClick={() => setText(saved)}>
          {t('device.config.reset')}
        </Button>
      </Actions>
    </Editor>
  );
}

function IssueList({ issues }: { issues: readonly ValidationIssue[] }) {
  return (
    <ul>
      {issues.map((issue, index) => (
        <li key={`${issue.path}-${index}`}>
          {issue.path !== '' && <code>{issue.path}</code>} {issue.message}
        </li>
      ))}
    </ul>
  );
}

const Editor = styled.div`
  display: flex;
  flex-direction: column;
  gap: 6px;
  label {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
  textarea {
    min-height: 360px;
    width: 100%;
    box-sizing: border-box;
    padding: 10px;
    font-family: ui-monospace, 'DejaVu Sans Mono', monospace;
    font-size: 13px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: 6px;
    resize: vertical;
  }
  textarea[aria-invalid='true'] {
    border-color: ${({ theme }) => theme.colors.error};
  }
`;

const Help = styled.span`
  font-size: 12px;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Issues = styled.div`
  color: ${({ theme }) => theme.colors.error};
  p {
    margin: 4px 0;
  }
  ul {
    margin: 0;
    padding-left: 20px;
  }
  code {
    color: ${({ theme }) => theme.colors.text};
  }
`;

const Valid = styled.p`
  margin: 4px 0;
  color: ${({ theme }) => theme.colors.success};
`;

const Actions = styled.div`
  display: flex;
  gap: 8px;
  flex-wrap: wrap;
`;
