import type { ButtonHTMLAttributes } from 'react';
import styled, { css, keyframes } from 'styled-components';
import { PermissionTooltip } from './Tooltip';

export type ButtonVariant = 'primary' | 'danger' | 'warning' | 'text';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  /** Shows a spinner and ignores clicks. */
  loading?: boolean;
  /** False when the user may not use this control: disabled, with the "no permission" hint. */
  permitted?: boolean;
}

/** The console's button; a control the user may not use is disabled and says so. */
export function Button({ variant = 'primary', loading = false, permitted = true, disabled, children, type = 'button', ...rest }: ButtonProps) {
  const button = (
    <StyledButton {...rest} type={type} $variant={variant} disabled={disabled === true || loading || !permitted} aria-busy={loading || undefined}>
      {loading && <Spinner aria-hidden="true" />}
      {children}
    </StyledButton>
  );
  return permitted ? button : <PermissionTooltip allowed={false}>{button}</PermissionTooltip>;
}

const spin = keyframes`to { transform: rotate(360deg); }`;

const Spinner = styled.span`
  width: 14px;
  height: 14px;
  border: 2px solid currentColor;
  border-right-color: transparent;
  border-radius: 50%;
  animation: ${spin} 0.8s linear infinite;
`;

const StyledButton = styled.button<{ $variant: ButtonVariant }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 8px;
  min-height: 36px;
  padding: 0 16px;
  border-radius: ${({ theme }) => theme.radius}px;
  border: 1px solid transparent;
  font-weight: ${({ theme }) => theme.fontWeights.medium};
  cursor: pointer;
  ${({ theme, $variant }) => {
    if ($variant === 'text') {
      return css`
        background: transparent;
        color: ${theme.colors.primary};
      `;
    }
    const colour = $variant === 'danger' ? theme.colors.error : $variant === 'warning' ? theme.colors.warning : theme.colors.primary;
    return css`
      background: ${colour};
      color: ${theme.colors.onPrimary};
    `;
  }}
  &:disabled {
    opacity: 0.55;
    cursor: not-allowed;
  }
`;
