import { useEffect, useId, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import styled from 'styled-components';
import { Icon } from '../theme/Icon';

export interface DialogProps {
  title: string;
  /** Asked to close (Escape, the close button, a click beside the dialog); the owner decides. */
  onRequestClose: () => void;
  maxWidth?: number;
  children: ReactNode;
  actions?: ReactNode;
}

/** A modal dialog on the dialog layer, at most 80vh high (console.md section 9). */
export function Dialog({ title, onRequestClose, maxWidth = 560, children, actions }: DialogProps) {
  const titleId = useId();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        onRequestClose();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onRequestClose]);

  return createPortal(
    <Backdrop
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) {
          onRequestClose();
        }
      }}
    >
      <Panel role="dialog" aria-modal="true" aria-labelledby={titleId} $maxWidth={maxWidth}>
        <Header>
          <h2 id={titleId}>{title}</h2>
          <CloseButton type="button" aria-label="Close" onClick={onRequestClose}>
            <Icon name="close" />
          </CloseButton>
        </Header>
        <Body>{children}</Body>
        {actions !== undefined && <Actions>{actions}</Actions>}
      </Panel>
    </Backdrop>,
    document.body,
  );
}

const Backdrop = styled.div`
  position: fixed;
  inset: 0;
  z-index: ${({ theme }) => theme.layers.dialog};
  display: flex;
  align-items: center;
  justify-content: center;
  padding: 16px;
  background: ${({ theme }) => theme.colors.overlay};
`;

const Panel = styled.div<{ $maxWidth: number }>`
  display: flex;
  flex-direction: column;
  width: 100%;
  max-width: ${({ $maxWidth }) => $maxWidth}px;
  max-height: ${({ theme }) => theme.dialog.maxHeight};
  background: ${({ theme }) => theme.colors.surface};
  border-radius: ${({ theme }) => theme.radius * 1.5}px;
  box-shadow: 0 12px 40px rgba(0, 0, 0, 0.25);
`;

const Header = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  padding: 16px 16px 0 24px;
  h2 {
    margin: 0;
  }
`;

const CloseButton = styled.button`
  display: inline-flex;
  border: 0;
  padding: 6px;
  background: transparent;
  color: ${({ theme }) => theme.colors.textMuted};
  cursor: pointer;
`;

const Body = styled.div`
  padding: 16px 24px;
  overflow: auto;
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: 8px;
  padding: 0 24px 20px;
`;
