import { useField, useFormikContext } from 'formik';
import styled from 'styled-components';
import * as yup from 'yup';
import { groupForwardingCreateSchema, groupForwardingSettingsSchema, messageTypes, type MessageType } from '../../../../../contracts/forwarding';
import { TextField } from '../../../components/TextField';
import { useMessages, type MessageKey } from '../../../i18n/messages';

/** A group's forwarding as its forms hold it: message types ticked, the interval as typed. */
export interface GroupForwardingValues {
  messageTypes: MessageType[];
  minIntervalSeconds: string;
}

/** The forwarding's rules (contracts/forwarding.ts): at least one message type, the interval of its settings. */
export const groupForwardingFormSchema = yup.object({
  messageTypes: groupForwardingCreateSchema.fields.messageTypes,
  minIntervalSeconds: yup
    .string()
    .trim()
    .test('interval', (value, context) => {
      try {
        groupForwardingSettingsSchema.validateSync({ minIntervalSeconds: value === undefined || value === '' ? undefined : Number(value) });
        return true;
      } catch (error) {
        return context.createError({ message: error instanceof yup.ValidationError ? error.errors[0] : String(error) });
      }
    }),
});

/** The settings as the API takes them. */
export const groupForwardingSettingsOf = (values: GroupForwardingValues) => ({
  minIntervalSeconds: values.minIntervalSeconds.trim() === '' ? 0 : Number(values.minIntervalSeconds),
});

/** The message types, a checkbox each, and the least interval between two messages of a device's asset. */
export function GroupForwardingFields({ disabled = false }: { disabled?: boolean }) {
  const t = useMessages();
  const [field, meta, helpers] = useField<MessageType[]>('messageTypes');
  const { submitCount } = useFormikContext();
  const chosen = field.value;
  const error = meta.touched || submitCount > 0 ? meta.error : undefined;
  return (
    <>
      <Types aria-label={t('groupForwarding.messageTypes')} aria-describedby="message-types-note">
        <legend>{t('groupForwarding.messageTypes')}</legend>
        {messageTypes.map((type) => (
          <label key={type}>
            <input
              type="checkbox"
              checked={chosen.includes(type)}
              disabled={disabled}
              onChange={(event) => {
                void helpers.setTouched(true, false);
                void helpers.setValue(
                  event.target.checked ? messageTypes.filter((each) => each === type || chosen.includes(each)) : chosen.filter((each) => each !== type),
                );
              }}
            />
            {t(`forwarding.messageType.${type}` as MessageKey)}
          </label>
        ))}
        {error !== undefined ? (
          <Note id="message-types-note" role="alert" $error>
            {t('groupForwarding.messageTypes.required')}
          </Note>
        ) : (
          <Note id="message-types-note">{t('groupForwarding.messageTypes.help')}</Note>
        )}
      </Types>
      <TextField
        name="minIntervalSeconds"
        label={t('groupForwarding.minIntervalSeconds')}
        help={t('groupForwarding.minIntervalSeconds.help')}
        inputMode="numeric"
        disabled={disabled}
      />
    </>
  );
}

const Types = styled.fieldset`
  border: 0;
  padding: 0;
  margin: 0 0 14px;
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(200px, 1fr));
  gap: 6px 12px;
  legend {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
    margin-bottom: 6px;
  }
  label {
    display: flex;
    gap: 8px;
    align-items: center;
  }
`;

const Note = styled.span<{ $error?: boolean }>`
  grid-column: 1 / -1;
  font-size: 12px;
  color: ${({ theme, $error }) => ($error ? theme.colors.error : theme.colors.textMuted)};
`;
