import { useState } from 'react';
import { Form, Formik } from 'formik';
import { Link, useSearchParams } from 'react-router-dom';
import type * as yup from 'yup';
import { passwordResetSchema, recoveryCodeSchema } from '../../../../../contracts/login';
import { isApiError } from '../../../api/api-error';
import { Button } from '../../../components/Button';
import { TextField } from '../../../components/TextField';
import { useErrorSnackbar } from '../../../components/useErrorSnackbar';
import { useMessages, type MessageKey } from '../../../i18n/messages';
import { useConsoleServices } from '../../../shell/console-services';
import { FormActions } from '../FormActions';
import { FormMessage } from '../FormMessage';

const passwordOnly = passwordResetSchema.pick(['password']);
const withRecoveryCode = passwordOnly.shape({ recoveryCode: recoveryCodeSchema.required() });

/** /reset-password?email=…&code=… (the link of the reset mail): choose a new password. */
export function ResetPasswordScreen() {
  const t = useMessages();
  const { identity } = useConsoleServices();
  const showError = useErrorSnackbar();
  const [params] = useSearchParams();
  const email = params.get('email');
  const code = params.get('code');
  const [needsRecoveryCode, setNeedsRecoveryCode] = useState(false);
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; key: MessageKey } | null>(null);

  if (email === null || code === null || email === '' || code === '') {
    return (
      <>
        <h1>{t('resetPassword.title')}</h1>
        <FormMessage tone="error">{t('resetPassword.invalidLink')}</FormMessage>
        <Link to="/forgot-password">{t('forgotPassword.title')}</Link>
      </>
    );
  }
  if (outcome?.tone === 'success') {
    return (
      <>
        <h1>{t('resetPassword.title')}</h1>
        <FormMessage tone="success">{t(outcome.key)}</FormMessage>
        <Link to="/login">{t('backToLogin')}</Link>
      </>
    );
  }
  const schema: yup.AnyObjectSchema = needsRecoveryCode ? withRecoveryCode : passwordOnly;
  return (
    <>
      <h1>{t('resetPassword.title')}</h1>
      {outcome !== null && <FormMessage tone={outcome.tone}>{t(outcome.key)}</FormMessage>}
      <Formik
        initialValues={{ password: '', recoveryCode: '' }}
        validationSchema={schema}
        onSubmit={async ({ password, recoveryCode }, { setFieldError }) => {
          setOutcome(null);
          try {
            await identity.resetPassword(email, { password, code, ...(needsRecoveryCode ? { recoveryCode } : {}) });
            setOutcome({ tone: 'success', key: 'resetPassword.done' });
          } catch (error) {
            if (!isApiError(error)) {
              throw error;
            }
            if (error.is('2fa_code_required')) {
              setNeedsRecoveryCode(true);
            } else if (error.is('2fa_code_invalid')) {
              setFieldError('recoveryCode', t('login.codeInvalid'));
            } else if (error.is('password_reset_expired')) {
              setOutcome({ tone: 'error', key: 'resetPassword.expired' });
            } else if (error.is('invalid_code') || error.kind === 'notFound') {
              setOutcome({ tone: 'error', key: 'resetPassword.invalidCode' });
            } else {
              showError(error);
            }
          }
        }}
      >
        {({ isSubmitting }) => (
          <Form noValidate>
            <TextField
              name="password"
              label={t('resetPassword.password')}
              help={t('resetPassword.passwordHelp')}
              type="password"
              autoComplete="new-password"
              autoFocus
            />
            {needsRecoveryCode && <TextField name="recoveryCode" label={t('resetPassword.recoveryCode')} autoComplete="off" />}
            <FormActions>
              <Button type="submit" loading={isSubmitting}>
                {t('resetPassword.submit')}
              </Button>
              <Link to="/login">{t('backToLogin')}</Link>
            </FormActions>
          </Form>
        )}
      </Formik>
    </>
  );
}
