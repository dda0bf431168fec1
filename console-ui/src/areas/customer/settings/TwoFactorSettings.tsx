import { useMemo, useState } from 'react';
import styled from 'styled-components';
import { twoFactorChallengeMinutes, twoFactorChallengeSchema, twoFactorChangeAppSchema, type TwoFactorChallengeView } from '../../../../../contracts/login';
import { isApiError } from '../../../api/api-error';
import { Button } from '../../../components/Button';
import { useConfirm } from '../../../components/ConfirmDialog';
import { Dialog } from '../../../components/Dialog';
import { FormDialog } from '../../../components/FormDialog';
import { useSnackbar } from '../../../components/Snackbars';
import { TextField } from '../../../components/TextField';
import { useErrorSnackbar } from '../../../components/useErrorSnackbar';
import { useMessages } from '../../../i18n/messages';
import { useConsoleServices } from '../../../shell/console-services';
import { twoFactorApi } from './two-factor-api';
import { RecoveryCodeList } from '../../../components/RecoveryCodeList';
import { TwoFactorSecret } from '../../../components/TwoFactorSecret';

/**
 * Where the two-factor set-up stands: proving the current app (once two-factor is on), adding
 * the new key and confirming it with its first code, then the recovery codes, shown once.
 */
type Step =
  | { kind: 'idle' }
  | { kind: 'prove'; alreadyOn: boolean }
  | { kind: 'confirm'; challenge: TwoFactorChallengeView }
  | { kind: 'codes'; recoveryCodes: readonly string[] };

/**
 * The two-factor part of /settings: turn it on, change the authenticator app and renew the
 * recovery codes (console.md section 7). The server knows whether two-factor is on; the screen
 * learns it when a new key is asked for without a proof (2fa_code_required) and asks for one.
 * Every customer may manage their own two-factor (the routes take either customer right).
 */
export function TwoFactorSettings() {
  const t = useMessages();
  const { rest } = useConsoleServices();
  const api = useMemo(() => twoFactorApi(rest), [rest]);
  const showError = useErrorSnackbar();
  const snackbar = useSnackbar();
  const confirm = useConfirm();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [busy, setBusy] = useState(false);
  // Closes the dialog of `kind` only: a dialog that moved on to the next step stays there.
  const close = (kind: Step['kind']) => setStep((now) => (now.kind === kind ? { kind: 'idle' } : now));

  const turnOn = async () => {
    setBusy(true);
    try {
      setStep({ kind: 'confirm', challenge: await api.generateChallenge({}) });
    } catch (error) {
      if (isApiError(error) && error.is('2fa_code_required')) {
        setStep({ kind: 'prove', alreadyOn: true });
      } else {
        showError(error);
      }
    } finally {
      setBusy(false);
    }
  };

  const renewCodes = async () => {
    const replace = await confirm({
      type: 'warning',
      title: t('settings.twoFactor.newCodesTitle'),
      message: t('settings.twoFactor.newCodesMessage'),
      confirmText: t('settings.twoFactor.newCodesConfirm'),
    });
    if (!replace) {
      return;
    }
    setBusy(true);
    try {
      const { recoveryCodes } = await api.newRecoveryCodes();
      setStep({ kind: 'codes', recoveryCodes });
    } catch (error) {
      showError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h2>{t('settings.twoFactor')}</h2>
      <p>{t('settings.twoFactor.help')}</p>
      <Actions>
        <Button loading={busy && step.kind === 'idle'} onClick={() => void turnOn()}>
          {t('settings.twoFactor.turnOn')}
        </Button>
        <Button variant="text" disabled={busy} onClick={() => setStep({ kind: 'prove', alreadyOn: false })}>
          {t('settings.twoFactor.changeApp')}
        </Button>
        <Button variant="text" disabled={busy} onClick={() => void renewCodes()}>
          {t('settings.twoFactor.newRecoveryCodes')}
        </Button>
      </Actions>

      {step.kind === 'prove' && (
        <FormDialog
          title={t('settings.twoFactor.proveTitle')}
          initialValues={{ twoFactorCode: '', recoveryCode: '' }}
          validationSchema={twoFactorChallengeSchema}
          submitText={t('settings.twoFactor.next')}
          onClose={() => close('prove')}
          onSubmit={async (values, { setFieldError }) => {
            const twoFactorCode = values.twoFactorCode.trim();
            const recoveryCode = values.recoveryCode.trim();
            if (twoFactorCode === '' && recoveryCode === '') {
              setFieldError('twoFactorCode', t('settings.twoFactor.proofRequired'));
              throw new Error('no proof given');
            }
            try {
              const challenge = await api.generateChallenge(twoFactorCode === '' ? { recoveryCode } : { twoFactorCode });
              setStep({ kind: 'confirm', challenge });
            } catch (error) {
              showError(error);
              throw error;
            }
          }}
        >
          {() => (
            <>
              {step.alreadyOn && <Notice role="note">{t('settings.twoFactor.alreadyOn')}</Notice>}
              <p>{t('settings.twoFactor.proveHelp')}</p>
              <TextField
                name="twoFactorCode"
                label={t('settings.twoFactor.currentCode')}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                autoFocus
              />
              <TextField name="recoveryCode" label={t('settings.twoFactor.recoveryCode')} autoComplete="off" />
            </>
          )}
        </FormDialog>
      )}

      {step.kind === 'confirm' && (
        <FormDialog
          title={t('settings.twoFactor.confirmTitle')}
          initialValues={{ twoFactorCode: '' }}
          validationSchema={twoFactorChangeAppSchema}
          submitText={t('settings.twoFactor.confirm')}
          onClose={() => close('confirm')}
          onSubmit={async (values) => {
            try {
              const { recoveryCodes } = await api.changeApp(values.twoFactorCode.trim());
              setStep({ kind: 'codes', recoveryCodes });
            } catch (error) {
              showError(error);
              if (isApiError(error) && error.is('secret_expired')) {
                // The key is gone on the server; a new one needs the turn-on (or change) step again.
                snackbar.show({ tone: 'warning', message: t('settings.twoFactor.expired') });
                setStep({ kind: 'idle' });
                return;
              }
              throw error;
            }
          }}
        >
          {() => (
            <>
              <p>{t('settings.twoFactor.confirmHelp', { minutes: twoFactorChallengeMinutes })}</p>
              <TwoFactorSecret
                secret={step.challenge.secret}
                keyuri={step.challenge.keyuri}
                secretLabel={t('settings.twoFactor.secret')}
                qrCodeLabel={t('settings.twoFactor.qrCode')}
                openAppText={t('settings.twoFactor.openApp')}
              />
              <TextField name="twoFactorCode" label={t('settings.twoFactor.code')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} autoFocus />
            </>
          )}
        </FormDialog>
      )}

      {step.kind === 'codes' && (
        // Closed only by its button: the codes are not shown again.
        <Dialog
          title={t('settings.twoFactor.codesTitle')}
          onRequestClose={() => undefined}
          actions={<Button onClick={() => close('codes')}>{t('settings.twoFactor.codesDone')}</Button>}
        >
          <Notice role="note">{t('settings.twoFactor.codesWarning')}</Notice>
          <RecoveryCodeList aria-label={t('settings.twoFactor.codesTitle')}>
            {step.recoveryCodes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </RecoveryCodeList>
        </Dialog>
      )}
    </>
  );
}

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
`;

const Notice = styled.p`
  padding: 10px 12px;
  border-radius: 6px;
  border-left: 4px solid ${({ theme }) => theme.colors.warning};
  background: ${({ theme }) => theme.colors.surface};
`;
