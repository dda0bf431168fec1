import { useCallback, useEffect, useState } from 'react';
import { Form, Formik } from 'formik';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { RecoveryCodesView, TwoFactorChallengeView } from '../../../../../contracts/login';
import { userInviteConvertSchema, type UserInviteView } from '../../../../../contracts/user-invite';
import { isApiError } from '../../../api/api-error';
import { Button } from '../../../components/Button';
import { TextField } from '../../../components/TextField';
import { useErrorSnackbar } from '../../../components/useErrorSnackbar';
import { useMessages } from '../../../i18n/messages';
import { useConsoleServices } from '../../../shell/console-services';
import { FormActions } from '../FormActions';
import { FormMessage } from '../FormMessage';
import { RecoveryCodeList } from '../../../components/RecoveryCodeList';
import { TwoFactorSecret } from '../../../components/TwoFactorSecret';

type Step =
  | { kind: 'loading' }
  | { kind: 'invalid' }
  | { kind: 'form'; invite: UserInviteView; challenge: TwoFactorChallengeView; renewed: boolean }
  | { kind: 'done'; recoveryCodes: RecoveryCodesView['recoveryCodes'] };

/**
 * /user-invite/{hashId}?code=… (the invite mail's link): name, password and two-factor set-up
 * (a key for the authenticator app and its first code); then the recovery codes, once.
 */
export function UserInviteScreen() {
  const t = useMessages();
  const { identity, session } = useConsoleServices();
  const showError = useErrorSnackbar();
  const navigate = useNavigate();
  const { hashId = '' } = useParams();
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  const [step, setStep] = useState<Step>({ kind: 'loading' });

  const open = useCallback(
    async (renewed: boolean) => {
      try {
        const [invite, challenge] = await Promise.all([identity.userInvite(hashId, code), identity.userInviteChallenge(hashId, code)]);
        setStep({ kind: 'form', invite, challenge, renewed });
      } catch (error) {
        if (isApiError(error) && (error.kind === 'notFound' || error.is('invalid_code') || error.is('secret_expired') || error.is('query_invalid'))) {
          setStep({ kind: 'invalid' });
          return;
        }
        setStep({ kind: 'invalid' });
        showError(error);
      }
    },
    [identity, hashId, code, showError],
  );

  useEffect(() => {
    void open(false);
  }, [open]);

  if (step.kind === 'loading') {
    return <p>{t('loading')}</p>;
  }
  if (step.kind === 'invalid') {
    return (
      <>
        <FormMessage tone="error">{t('userInvite.invalid')}</FormMessage>
        <Link to="/login">{t('backToLogin')}</Link>
      </>
    );
  }
  if (step.kind === 'done') {
    return (
      <>
        <h1>{t('userInvite.recoveryCodes')}</h1>
        <p>{t('userInvite.recoveryCodesHelp')}</p>
        <RecoveryCodeList aria-label={t('userInvite.recoveryCodes')}>
          {step.recoveryCodes.map((recoveryCode) => (
            <li key={recoveryCode}>{recoveryCode}</li>
          ))}
        </RecoveryCodeList>
        <Button
          onClick={async () => {
            await session.check();
            await navigate('/teleports', { replace: true });
          }}
        >
          {t('userInvite.continue')}
        </Button>
      </>
    );
  }

  const { invite, challenge, renewed } = step;
  return (
    <>
      <h1>{t('userInvite.title', { organization: invite.organization.name })}</h1>
      <p>{t('userInvite.email', { email: invite.email })}</p>
      <Formik
        initialValues={{ name: '', password: '', twoFactorCode: '' }}
        validationSchema={userInviteConvertSchema}
        onSubmit={async (values, { setFieldError, setFieldValue }) => {
          try {
            const { recoveryCodes } = await identity.acceptUserInvite(hashId, code, userInviteConvertSchema.cast(values));
            setStep({ kind: 'done', recoveryCodes });
          } catch (error) {
            if (isApiError(error) && error.is('2fa_code_invalid')) {
              setFieldError('twoFactorCode', t('login.codeInvalid'));
            } else if (isApiError(error) && (error.is('secret_expired') || error.is('2fa_code_required'))) {
              await setFieldValue('twoFactorCode', '', false);
              await open(true);
            } else {
              showError(error);
            }
          }
        }}
      >
        {({ isSubmitting }) => (
          <Form noValidate>
            <TextField name="name" label={t('userInvite.name')} autoComplete="name" autoFocus />
            <TextField name="password" label={t('userInvite.password')} help={t('resetPassword.passwordHelp')} type="password" autoComplete="new-password" />
            <h2>{t('userInvite.twoFactor')}</h2>
            {renewed && <FormMessage tone="warning">{t('userInvite.secretExpired')}</FormMessage>}
            <p>{t('userInvite.twoFactorHelp')}</p>
            <TwoFactorSecret
              secret={challenge.secret}
              keyuri={challenge.keyuri}
              secretLabel={t('userInvite.secret')}
              qrCodeLabel={t('userInvite.qrCode')}
              openAppText={t('userInvite.openApp')}
            />
            <TextField name="twoFactorCode" label={t('userInvite.code')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
            <FormActions>
              <Button type="submit" loading={isSubmitting}>
                {t('userInvite.submit')}
              </Button>
            </FormActions>
          </Form>
        )}
      </Formik>
    </>
  );
}
