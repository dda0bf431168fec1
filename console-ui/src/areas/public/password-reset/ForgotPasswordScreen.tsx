import { useState } from 'react';
import { Form, Formik } from 'formik';
import { Link } from 'react-router-dom';
import { passwordResetRequestSchema } from '../../../../../contracts/login';
import { isApiError } from '../../../api/api-error';
import { Button } from '../../../components/Button';
import { TextField } from '../../../components/TextField';
import { useErrorSnackbar } from '../../../components/useErrorSnackbar';
import { useMessages } from '../../../i18n/messages';
import { useConsoleServices } from '../../../shell/console-services';
import { FormActions } from '../FormActions';
import { FormMessage } from '../FormMessage';

/** /forgot-password: mails a link to choose a new password (answered alike for unknown emails). */
export function ForgotPasswordScreen() {
  const t = useMessages();
  const { identity } = useConsoleServices();
  const showError = useErrorSnackbar();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [rateLimited, setRateLimited] = useState(false);

  return (
    <>
      <h1>{t('forgotPassword.title')}</h1>
      {sentTo !== null ? <FormMessage tone="success">{t('forgotPassword.sent', { email: sentTo })}</FormMessage> : <p>{t('forgotPassword.help')}</p>}
      {rateLimited && <FormMessage tone="error">{t('forgotPassword.rateLimited')}</FormMessage>}
      <Formik
        initialValues={{ email: '' }}
        validationSchema={passwordResetRequestSchema}
        onSubmit={async ({ email }) => {
          setRateLimited(false);
          const { email: cleaned } = passwordResetRequestSchema.cast({ email });
          try {
            await identity.requestPasswordReset(cleaned);
            setSentTo(cleaned);
          } catch (error) {
            if (isApiError(error) && error.is('rate_limit_exceeded_for_password_reset')) {
              setRateLimited(true);
              return;
            }
            showError(error);
          }
        }}
      >
        {({ isSubmitting }) => (
          <Form noValidate>
            <TextField name="email" label={t('login.email')} type="email" autoComplete="username" autoFocus />
            <FormActions>
              <Button type="submit" loading={isSubmitting}>
                {t('forgotPassword.submit')}
              </Button>
              <Link to="/login">{t('backToLogin')}</Link>
            </FormActions>
          </Form>
        )}
      </Formik>
    </>
  );
}
