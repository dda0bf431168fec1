import { useId, useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { useMessages } from '../i18n/messages';

export interface TooltipProps {
  /** The text; a false value (false, null, undefined, '') shows no tooltip at all. */
  text: string | false | null | undefined;
  children: ReactNode;
}

/** A tooltip on hover and keyboard focus; nothing at all when its text is false. */
export function Tooltip({ text, children }: TooltipProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  if (!text) {
    return <>{children}</>;
  }
  return (
    <Anchor
      aria-describedby={open ? id : undefined}
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onFocus={() => setOpen(true)}
      onBlur={() => setOpen(false)}
    >
      {children}
      {open && (
        <Bubble role="tooltip" id={id}>
          {text}
        </Bubble>
      )}
    </Anchor>
  );
}

export interface PermissionTooltipProps {
  /** Whether the user may use the control; when not, the "no permission" hint shows. */
  allowed: boolean;
  children: ReactNode;
}

/** The "no permission" hint (console.md section 2) on a control the user may not use. */
export function PermissionTooltip({ allowed, children }: PermissionTooltipProps) {
  const t = useMessages();
  return <Tooltip text={!allowed && t('hint.noPermission')}>{children}</Tooltip>;
}

const Anchor = styled.span`
  position: relative;
  display: inline-flex;
`;

const Bubble = styled.span`
  position: absolute;
  bottom: calc(100% + 6px);
  left: 50%;
  transform: translateX(-50%);
  z-index: ${({ theme }) => theme.layers.banner};
  padding: 4px 8px;
  border-radius: 4px;
  background: rgba(23, 33, 47, 0.92);
  color: #fff;
  font-size: 12px;
  white-space: nowrap;
  pointer-events: none;
`;
