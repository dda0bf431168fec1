import { useState } from 'react';
import { Form, Formik } from 'formik';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { loginSchema, recoveryCodeSchema, twoFactorCodeSchema } from '../../../../../contracts/login';
import { isApiError } from '../../../api/api-error';
import { samlLoginUrl } from '../../../api/identity-api';
import { Button } from '../../../components/Button';
import { TextField } from '../../../components/TextField';
import { useErrorSnackbar } from '../../../components/useErrorSnackbar';
import { useMessages, type MessageKey } from '../../../i18n/messages';
import { useConsoleServices } from '../../../shell/console-services';
import { homeFor, safeReturnPath } from '../../../shell/route-check';
import { FormActions } from '../FormActions';
import { FormMessage } from '../FormMessage';

/** Which second factor the form asks for, once the server wants one. */
type SecondFactor = 'none' | 'code' | 'recoveryCode';

const credentials = loginSchema.pick(['email', 'password']);
const schemas = {
  none: credentials,
  code: credentials.shape({ code: twoFactorCodeSchema.required() }),
  recoveryCode: credentials.shape({ recoveryCode: recoveryCodeSchema.required() }),
} as const;

interface LoginValues {
  email: string;
  password: string;
  code: string;
  recoveryCode: string;
}

/** /login: email and password, then a two-factor code or a recovery code when the account has two-factor on. */
export function LoginScreen() {
  const t = useMessages();
  const { session, leave } = useConsoleServices();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const showError = useErrorSnackbar();
  const [secondFactor, setSecondFactor] = useState<SecondFactor>('none');
  const [refusal, setRefusal] = useState<MessageKey | null>(null);

  return (
    <>
      <h1>{t('login.title')}</h1>
      {refusal !== null && <FormMessage tone="error">{t(refusal)}</FormMessage>}
      <Formik<LoginValues>
        initialValues={{ email: '', password: '', code: '', recoveryCode: '' }}
        validationSchema={schemas[secondFactor]}
        onSubmit={async (values, { setFieldError }) => {
          setRefusal(null);
          const input = {
            email: values.email,
            password: values.password,
            ...(secondFactor === 'code' ? { code: values.code } : {}),
            ...(secondFactor === 'recoveryCode' ? { recoveryCode: values.recoveryCode } : {}),
          };
          try {
            await session.login(input);
          } catch (error) {
            if (!isApiError(error)) {
              throw error;
            }
            if (error.is('2fa_code_required')) {
              setSecondFactor((current) => (current === 'none' ? 'code' : current));
            } else if (error.is('2fa_code_invalid')) {
              setFieldError(secondFactor === 'recoveryCode' ? 'recoveryCode' : 'code', t('login.codeInvalid'));
            } else if (error.is('invalid_credentials')) {
              setRefusal('login.invalidCredentials');
            } else if (error.is('too_many_failed_attempts')) {
              setRefusal('login.tooManyAttempts');
            } else {
              showError(error);
            }
            return;
          }
          await navigate(safeReturnPath(params.get('redirect')) ?? homeFor(session.isStaff), { replace: true });
        }}
      >
        {({ isSubmitting, setFieldValue }) => (
          <Form noValidate>
            <TextField name="email" label={t('login.email')} type="email" autoComplete="username" autoFocus />
            <TextField name="password" label={t('login.password')} type="password" autoComplete="current-password" />
            {secondFactor === 'code' && (
              <TextField
                name="code"
                label={t('login.code')}
                help={t('login.codeHelp')}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                autoFocus
              />
            )}
            {secondFactor === 'recoveryCode' && <TextField name="recoveryCode" label={t('login.recoveryCode')} autoComplete="off" autoFocus />}
            <FormActions>
              <Button type="submit" loading={isSubmitting}>
                {t('login.submit')}
              </Button>
              {secondFactor !== 'none' && (
                <Button
                  variant="text"
                  onClick={() => {
                    void setFieldValue(secondFactor === 'code' ? 'code' : 'recoveryCode', '', false);
                    setSecondFactor(secondFactor === 'code' ? 'recoveryCode' : 'code');
                  }}
                >
                  {secondFactor === 'code' ? t('login.useRecoveryCode') : t('login.useCode')}
                </Button>
              )}
              <Link to="/forgot-password">{t('login.forgotPassword')}</Link>
              <Button variant="text" onClick={() => leave(samlLoginUrl('/admin/devices'))}>
                {t('login.staff')}
              </Button>
            </FormActions>
          </Form>
        )}
      </Formik>
    </>
  );
}
