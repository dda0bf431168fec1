import { useField } from 'formik';
import { useId, type InputHTMLAttributes } from 'react';
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

const Field = styled.div`
  display: flex;
  flex-direction: column;
  gap: 4px;
  margin-bottom: 14px;
  label {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
  input {
    min-height: 38px;
    padding: 0 10px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: 6px;
    background: ${({ theme }) => theme.colors.surface};
  }
  input[aria-invalid='true'] {
    border-color: ${({ theme }) => theme.colors.error};
  }
`;

const Note = styled.span<{ $error?: boolean }>`
  font-size: 12px;
  color: ${({ theme, $error }) => ($error ? theme.colors.error : theme.colors.textMuted)};
`;
