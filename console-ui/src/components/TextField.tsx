import { useField } from 'formik';
import { useId, type InputHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import styled from 'styled-components';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'name'> {
  name: string;
  label: string;
  help?: string;
}

/** A formik text input with its label, help text and the schema's message once touched. */
export function TextField({ name, label, help, type = 'text', ...rest }: TextFieldProps) {
  const [field, meta] = useField<string>(name);
  const id = useId();
  const error = meta.touched ? meta.error : undefined;
  return (
    <Field>
      <label htmlFor={id}>{label}</label>
      <input
        {...field}
        {...rest}
        value={field.value ?? ''}
        id={id}
        type={type}
        aria-invalid={error !== undefined}
        aria-describedby={error !== undefined || help !== undefined ? `${id}-note` : undefined}
      />
      {error !== undefined ? (
        <Note id={`${id}-note`} role="alert" $error>
          {error}
        </Note>
      ) : (
        help !== undefined && <Note id={`${id}-note`}>{help}</Note>
      )}
    </Field>
  );
}

export interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'name'> {
  name: string;
  label: string;
  help?: string;
}

/** A formik text area (a message, a long text) with its label, help text and the schema's message once touched. */
export function TextAreaField({ name, label, help, rows = 4, ...rest }: TextAreaFieldProps) {
  const [field, meta] = useField<string>(name);
  const id = useId();
  const error = meta.touched ? meta.error : undefined;
  return (
    <Field>
      <label htmlFor={id}>{label}</label>
      <textarea
        {...field}
        {...rest}
        rows={rows}
        value={field.value ?? ''}
        id={id}
        aria-invalid={error !== undefined}
        aria-describedby={error !== undefined || help !== undefined ? `${id}-note` : undefined}
      />
      {error !== undefined ? (
        <Note id={`${id}-note`} role="alert" $error>
          {error}
        </Note>
      ) : (
        help !== undefined && <Note id={`${id}-note`}>{help}</Note>
      )}
    </Field>
  );
}

export interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'type'> {
  name: string;
  label: string;
}

/** A formik checkbox with its label. */
export function CheckboxField({ name, label, ...rest }: CheckboxFieldProps) {
  const [field] = useField<boolean>({ name, type: 'checkbox' });
  return (
    <Check>
      <input {...rest} name={field.name} checked={field.checked ?? false} onChange={field.onChange} onBlur={field.onBlur} type="checkbox" />
      {label}
    </Check>
  );
}

const Check = styled.label`
  display: flex;
  align-items: center;
  gap: 8px;
  margin-bottom: 10px;
`;

const Field = styled.div`
  display: flex;
  flex-direction: column;
  gap: 4px;
  margin-bottom: 14px;
  label {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
  input,
  textarea {
    min-height: 38px;
    padding: 0 10px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: 6px;
    background: ${({ theme }) => theme.colors.surface};
  }
  textarea {
    padding: 8px 10px;
    font: inherit;
    resize: vertical;
  }
  input[aria-invalid='true'],
  textarea[aria-invalid='true'] {
    border-color: ${({ theme }) => theme.colors.error};
  }
`;

const Note = styled.span<{ $error?: boolean }>`
  font-size: 12px;
  color: ${({ theme, $error }) => ($error ? theme.colors.error : theme.colors.textMuted)};
`;
