import type { FormikHelpers } from 'formik';
import { limits } from '../../../../../contracts/limits';
import { FormDialog } from '../../../components/FormDialog';
import { CheckboxField, TextAreaField, TextField } from '../../../components/TextField';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';
import { useMessages } from '../../../i18n/messages';
import { fieldErrorsOfRefusal } from '../../../api/field-refusals';
import { apiKeyFieldOf, apiKeyFormSchema, type ApiKeyFormValues } from './api-key-form';

export interface ApiKeyFormDialogValues extends ApiKeyFormValues {
  /** Editing only: removes the stored public key. */
  removePublicKey: boolean;
}

export interface ApiKeyFormDialogProps {
  /** Creating a key, or editing one (whose public key cannot be read back, only replaced or removed). */
  mode: 'create' | 'edit';
  initialValues: ApiKeyFormValues;
  onSubmit: (values: ApiKeyFormDialogValues) => Promise<void>;
  onClose: () => void;
}

/**
 * The name, IP ranges (one a line) and public key of an API key, checked by the contract's
 * rules; the server's refusal of a field (an IP range, the public key) is shown under it.
 */
export function ApiKeyFormDialog({ mode, initialValues, onSubmit, onClose }: ApiKeyFormDialogProps) {
  const t = useMessages();
  const showError = useApolloErrorSnackbar();
  const creating = mode === 'create';
  const submit = async (values: ApiKeyFormDialogValues, helpers: FormikHelpers<ApiKeyFormDialogValues>) => {
    try {
      await onSubmit(values);
    } catch (error) {
      const fieldErrors = fieldErrorsOfRefusal(error, apiKeyFieldOf);
      if (fieldErrors === null) {
        showError(error);
      } else {
        helpers.setErrors(fieldErrors);
      }
      throw error;
    }
  };
  return (
    <FormDialog<ApiKeyFormDialogValues>
      title={creating ? t('apiKey.create.title') : t('apiKey.edit.title')}
      initialValues={{ ...initialValues, removePublicKey: false }}
      validationSchema={apiKeyFormSchema(t)}
      onSubmit={submit}
      onClose={onClose}
      submitText={creating ? t('apiKey.create.submit') : undefined}
    >
      {({ values }) => (
        <>
          <TextField name="name" label={t('apiKey.name')} maxLength={limits.apiKeyNameLength} autoFocus />
          <TextAreaField name="ipRanges" label={t('apiKey.ipRanges')} help={t('apiKey.ipRanges.help')} rows={4} spellCheck={false} />
          {(creating || !values.removePublicKey) && (
            <TextAreaField
              name="publicKey"
              label={creating ? t('apiKey.publicKey') : t('apiKey.publicKey.new')}
              help={creating ? t('apiKey.publicKey.help') : t('apiKey.publicKey.newHelp')}
              rows={5}
              spellCheck={false}
              maxLength={limits.apiKeyPublicKeyLength}
            />
          )}
          {!creating && <CheckboxField name="removePublicKey" label={t('apiKey.publicKey.remove')} />}
        </>
      )}
    </FormDialog>
  );
}
