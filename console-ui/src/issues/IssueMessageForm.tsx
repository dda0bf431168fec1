import { Form, Formik, type FormikHelpers } from 'formik';
import type { ReactNode } from 'react';
import styled from 'styled-components';
import type { AnyObjectSchema } from 'yup';
import { Button } from '../components/Button';
import { TextAreaField } from '../components/TextField';
import { useMessages } from '../i18n/messages';
import { FileAttachments } from './FileAttachments';

/** What every message form holds; an area's form may hold more (internal, recipients). */
export interface MessageDraft {
  message: string;
  fileIdentifiers: string[];
}

export interface IssueMessageFormProps<V extends MessageDraft> {
  initialValues: V;
  /** The message schema of contracts/issue.ts that the server checks the message with. */
  validationSchema: AnyObjectSchema;
  /** Sends; the form empties when it resolves and keeps the draft when it throws. */
  onSend: (values: V) => Promise<void>;
  /** Fields of the area beside the text (internal, recipients). */
  children?: ReactNode;
  permitted?: boolean;
}

/** The form under an issue's timeline: the text, the files (for roles that may upload), and send. */
export function IssueMessageForm<V extends MessageDraft>({ initialValues, validationSchema, onSend, children, permitted = true }: IssueMessageFormProps<V>) {
  const t = useMessages();
  const submit = async (values: V, helpers: FormikHelpers<V>) => {
    try {
      await onSend(values);
    } catch {
      // The caller shows the failure; the draft stays for another try.
      return;
    }
    helpers.resetForm();
  };
  return (
    <Formik<V> initialValues={initialValues} validationSchema={validationSchema} onSubmit={submit}>
      {(form) => (
        <StyledForm noValidate aria-label={t('issue.message.send')}>
          <TextAreaField name="message" label={t('issue.message.label')} rows={4} />
          <FileAttachments />
          {children}
          <div>
            <Button type="submit" permitted={permitted} loading={form.isSubmitting}>
              {t('issue.message.send')}
            </Button>
          </div>
        </StyledForm>
      )}
    </Formik>
  );
}

const StyledForm = styled(Form)`
  margin-top: 16px;
`;
