import { Form, Formik, getIn } from 'formik';
import { useState } from 'react';
import styled from 'styled-components';
import type { AnyObjectSchema } from 'yup';
import type { ValidationIssue } from '../../../../../contracts/errors';
import { apiErrorOfApollo } from '../../../api/apollo';
import { Button } from '../../../components/Button';
import { UnsavedChangesGuard } from '../../../components/FormDialog';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';
import { OrganizationFields } from './OrganizationFields';
import type { OrganizationValues } from './organization-form';

function isIssue(value: unknown): value is ValidationIssue {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const { path, message } = value as Record<string, unknown>;
  return typeof path === 'string' && typeof message === 'string';
}

/** The issues of a payload_invalid refusal ({ path, message } each), to show at their fields; null for any other failure. */
function payloadIssuesOf(error: unknown): ValidationIssue[] | null {
  const apiError = apiErrorOfApollo(error);
  if (apiError === null || !apiError.is('payload_invalid') || !Array.isArray(apiError.details)) {
    return null;
  }
  return apiError.details.filter(isIssue);
}

export interface OrganizationFormProps {
  initialValues: OrganizationValues;
  /** One of organization-form.ts's schemas, so the form checks what the server checks. */
  validationSchema: AnyObjectSchema;
  /** Saves; a payload_invalid refusal shows at its fields (or under them), any other failure as its snackbar. */
  onSubmit: (values: OrganizationValues) => Promise<void>;
  submitText: string;
  /** False when the user may not save: every field and the button disabled, with the "no permission" hint. */
  permitted: boolean;
  /** The button waits for a change (an existing organisation), rather than showing what is missing. */
  onlyChanges?: boolean;
  isProvider?: boolean;
}

/**
 * An organisation's fields as a form on a page: unsaved changes warn before the page or the
 * screen is left; new initial values (the saved organisation) reset it.
 */
export function OrganizationForm({
  initialValues,
  validationSchema,
  onSubmit,
  submitText,
  permitted,
  onlyChanges = false,
  isProvider = false,
}: OrganizationFormProps) {
  const showError = useApolloErrorSnackbar();
  // Refusals about something the form has no field for (the server's rules may outgrow the form's).
  const [refusals, setRefusals] = useState<ValidationIssue[]>([]);
  return (
    <Formik<OrganizationValues>
      initialValues={initialValues}
      validationSchema={validationSchema}
      enableReinitialize
      onSubmit={async (values, helpers) => {
        setRefusals([]);
        try {
          await onSubmit(values);
        } catch (error) {
          const issues = payloadIssuesOf(error);
          if (issues === null) {
            showError(error);
            return;
          }
          const atFields = issues.filter((issue) => getIn(values, issue.path) !== undefined);
          for (const issue of atFields) {
            void helpers.setFieldTouched(issue.path, true, false);
            helpers.setFieldError(issue.path, issue.message);
          }
          setRefusals(issues.filter((issue) => !atFields.includes(issue)));
        }
      }}
    >
      {(form) => (
        <Form noValidate>
          {/* While saving the form leaves the screen itself (to the new organisation). */}
          <UnsavedChangesGuard active={form.dirty && !form.isSubmitting} />
          <Fields disabled={!permitted}>
            <OrganizationFields isProvider={isProvider} />
          </Fields>
          {refusals.length > 0 && (
            <Refusals role="alert" data-testid="organization-refusals">
              {refusals.map((refusal, index) => (
                <li key={index}>
                  {refusal.message}
                  {refusal.path !== '' && <code> {refusal.path}</code>}
                </li>
              ))}
            </Refusals>
          )}
          <Button type="submit" permitted={permitted} disabled={onlyChanges && !form.dirty} loading={form.isSubmitting}>
            {submitText}
          </Button>
        </Form>
      )}
    </Formik>
  );
}

const Fields = styled.fieldset`
  border: 0;
  padding: 0;
  margin: 0;
  max-width: 520px;
`;

const Refusals = styled.ul`
  color: ${({ theme }) => theme.colors.error};
  padding-left: 20px;
`;
