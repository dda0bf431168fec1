import styled from 'styled-components';
import { Button } from '../../../components/Button';
import { Dialog } from '../../../components/Dialog';
import { useSnackbar } from '../../../components/Snackbars';
import { useMessages } from '../../../i18n/messages';

export interface ApiKeySecretDialogProps {
  title: string;
  secret: string;
  onClose: () => void;
}

/**
 * A key's secret, shown this once (at creation and at reset): the server keeps only its hash.
 * Closed only by its button, so a click beside it does not lose the secret.
 */
export function ApiKeySecretDialog({ title, secret, onClose }: ApiKeySecretDialogProps) {
  const t = useMessages();
  const snackbar = useSnackbar();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      snackbar.show({ tone: 'success', message: t('apiKey.secret.copied') });
    } catch {
      // No clipboard (an insecure origin, a refused permission): the secret stays selectable.
      snackbar.show({ tone: 'warning', message: t('apiKey.secret.copyFailed') });
    }
  };
  return (
    <Dialog title={title} onRequestClose={() => undefined} actions={<Button onClick={onClose}>{t('apiKey.secret.done')}</Button>}>
      <Warning role="note">{t('apiKey.secret.shownOnce')}</Warning>
      <SecretRow>
        <code data-testid="api-key-secret">{secret}</code>
        <Button variant="text" onClick={() => void copy()}>
          {t('apiKey.secret.copy')}
        </Button>
      </SecretRow>
      <p>{t('apiKey.secret.usage')}</p>
    </Dialog>
  );
}

const Warning = styled.p`
  padding: 10px 12px;
  border-radius: 6px;
  border-left: 4px solid ${({ theme }) => theme.colors.warning};
  background: ${({ theme }) => theme.colors.surface};
`;

const SecretRow = styled.div`
  display: flex;
  align-items: center;
  gap: 8px;
  code {
    flex: 1;
    padding: 8px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: 6px;
    word-break: break-all;
    user-select: all;
  }
`;
