import { useField } from 'formik';
import { useId } from 'react';
import styled from 'styled-components';
import type { Right } from '../../../../../contracts/rights';
import { PermissionTooltip } from '../../../components/Tooltip';
import { useMessages, type MessageKey } from '../../../i18n/messages';
import { rightsOfOrganization } from './rights';

export interface RightsFieldProps {
  /** The formik field holding the rights (contract names: gridport.ops, customer.write, ...). */
  name: string;
  label: string;
  /** Staff rights for the provider's organisation, customer rights for any other. */
  isProvider: boolean;
  /** Whether the signed-in user may grant or remove `right` here (the server's rule); a right they may not is disabled with the "no permission" hint. */
  mayGrant: (right: Right) => boolean;
  disabled?: boolean;
  help?: string;
}

/**
 * The rights that fit an organisation as checkboxes. Every customer user reads, so customer.read
 * stays ticked; a staff right the user may not grant is disabled with the "no permission" hint.
 */
export function RightsField({ name, label, isProvider, mayGrant, disabled = false, help }: RightsFieldProps) {
  const t = useMessages();
  const id = useId();
  const [field, meta, helpers] = useField<Right[]>(name);
  const held = new Set(field.value);
  const toggle = (right: Right, on: boolean) => {
    const next = rightsOfOrganization(isProvider).filter((candidate) => (candidate === right ? on : held.has(candidate)));
    void helpers.setValue(next);
  };
  const error = meta.touched && typeof meta.error === 'string' ? meta.error : undefined;
  return (
    <Group role="group" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`}>{label}</span>
      {rightsOfOrganization(isProvider).map((right) => {
        const permitted = mayGrant(right);
        const always = right === 'customer.read';
        return (
          <PermissionTooltip key={right} allowed={permitted}>
            <Check>
              <input
                type="checkbox"
                name={`${name}.${right}`}
                checked={always || held.has(right)}
                disabled={disabled || !permitted || always}
                onChange={(event) => toggle(right, event.target.checked)}
              />
              {t(`user.right.${right}` as MessageKey)}
            </Check>
          </PermissionTooltip>
        );
      })}
      {error !== undefined ? (
        <Note role="alert" $error>
          {error}
        </Note>
      ) : (
        help !== undefined && <Note>{help}</Note>
      )}
    </Group>
  );
}

const Group = styled.div`
  display: flex;
  flex-direction: column;
  align-items: flex-start;
  gap: 4px;
  margin-bottom: 14px;
  > span:first-child {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
`;

const Check = styled.label`
  display: flex;
  align-items: center;
  gap: 8px;
`;

const Note = styled.span<{ $error?: boolean }>`
  font-size: 12px;
  color: ${({ theme, $error }) => ($error ? theme.colors.error : theme.colors.textMuted)};
`;
