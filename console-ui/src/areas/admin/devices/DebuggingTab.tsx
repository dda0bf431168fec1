import { useId, useMemo, useState } from 'react';
import styled from 'styled-components';
import { hasAnyRight } from '../../../../../contracts/rights';
import { Button } from '../../../components/Button';
import { useSnackbar } from '../../../components/Snackbars';
import { useAllowanceNotice } from '../../../components/useAllowanceNotice';
import { useErrorSnackbar } from '../../../components/useErrorSnackbar';
import { useMessages } from '../../../i18n/messages';
import { useSession } from '../../../session/useSession';
import { useConsoleServices } from '../../../shell/console-services';
import { Panel } from '../../../devices/DeviceFrame';
import { deviceWriters } from '../../../devices/device-rights';
import { DeviceTimeline } from './DeviceTimeline';
import { deviceMessageApi } from './device-message-api';

/** The message the form starts with: a ping the device echoes in its ack. */
export const defaultDebugMessage = JSON.stringify({ type: 'debugPing', payload: 'ping from the console' }, null, 2);

/** The debugging tab: send a cloud-to-device message and watch the answer arrive in the live timeline. */
export function DebuggingTab({ hashId }: { hashId: string }) {
  const t = useMessages();
  const id = useId();
  const { rest } = useConsoleServices();
  const api = useMemo(() => deviceMessageApi(rest), [rest]);
  const { profile } = useSession();
  const snackbar = useSnackbar();
  const notice = useAllowanceNotice();
  const showError = useErrorSnackbar();
  const [text, setText] = useState(defaultDebugMessage);
  const [sending, setSending] = useState(false);
  let message: unknown = undefined;
  try {
    message = JSON.parse(text);
  } catch {
    message = undefined;
  }

  const send = async () => {
    setSending(true);
    try {
      const sent = await api.send(hashId, { message });
      snackbar.show({ tone: 'info', message: t('device.debug.sent', { messageId: sent.messageId }) });
      if (sent.remainingAllowance !== null) {
        notice(sent.remainingAllowance);
      }
    } catch (error) {
      showError(error);
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <Panel>
        <h2>{t('device.debug.title')}</h2>
        <Form>
          <label htmlFor={id}>{t('device.debug.help')}</label>
          <textarea id={id} value={text} spellCheck={false} onChange={(event) => setText(event.target.value)} aria-invalid={message === undefined} />
          {message === undefined && <Invalid role="alert">{t('device.debug.notJson')}</Invalid>}
          <div>
            <Button
              permitted={hasAnyRight(profile?.user.rights ?? [], deviceWriters)}
              disabled={message === undefined}
              loading={sending}
              onClick={() => void send()}
            >
              {t('device.debug.send')}
            </Button>
          </div>
        </Form>
      </Panel>
      <Panel>
        <h2>{t('device.timeline.title')}</h2>
        <DeviceTimeline hashId={hashId} />
      </Panel>
    </>
  );
}

const Form = styled.div`
  display: flex;
  flex-direction: column;
  gap: 8px;
  textarea {
    min-height: 120px;
    font-family: ui-monospace, 'DejaVu Sans Mono', monospace;
    padding: 8px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: 6px;
  }
`;

const Invalid = styled.span`
  color: ${({ theme }) => theme.colors.error};
`;
