import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { useMessages } from '../i18n/messages';
import { theme } from '../theme/theme';
import { Button } from './Button';
import { Dialog } from './Dialog';

export type ConfirmType = 'danger' | 'warning' | 'primary';

export interface ConfirmOptions {
  type?: ConfirmType;
  title: string;
  message: ReactNode;
  /** Defaults: confirm and cancel. */
  confirmText?: string;
  cancelText?: string;
  /**
   * Work to do on confirm. With `waitForConfirm` the dialog stays open with the confirm
   * button loading until it settles (and stays open if it fails); by default it closes at once.
   */
  onConfirm?: () => Promise<unknown> | unknown;
  waitForConfirm?: boolean;
}

interface OpenConfirmation extends ConfirmOptions {
  resolve: (confirmed: boolean) => void;
}

/** Asks for confirmation; answers whether the user confirmed. */
export type Confirm = (options: ConfirmOptions) => Promise<boolean>;

const ConfirmContext = createContext<Confirm | null>(null);

/**
 * The confirmation dialog (console.md section 2): danger, warning or primary; only one open at
 * once, so a new one replaces an open one (which answers false) unless that one is busy
 * confirming, in which case the new one answers false at once.
 */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const t = useMessages();
  const [open, setOpen] = useState<OpenConfirmation | null>(null);
  const [confirming, setConfirming] = useState(false);
  const current = useRef<OpenConfirmation | null>(null);
  const busy = useRef(false);

  const close = useCallback((confirmed: boolean) => {
    current.current?.resolve(confirmed);
    current.current = null;
    setOpen(null);
  }, []);

  const confirm = useCallback<Confirm>((options) => {
    if (busy.current) {
      return Promise.resolve(false);
    }
    return new Promise<boolean>((resolve) => {
      current.current?.resolve(false);
      current.current = { ...options, resolve };
      setOpen(current.current);
    });
  }, []);

  const onConfirm = async () => {
    if (open === null) {
      return;
    }
    if (!open.waitForConfirm) {
      close(true);
      await open.onConfirm?.();
      return;
    }
    busy.current = true;
    setConfirming(true);
    try {
      await open.onConfirm?.();
      close(true);
    } catch {
      // The work reports its own failure; the dialog stays open to try again or cancel.
    } finally {
      busy.current = false;
      setConfirming(false);
    }
  };

  const value = useMemo(() => confirm, [confirm]);
  const type = open?.type ?? 'primary';
  return (
    <ConfirmContext.Provider value={value}>
      {children}
      {open !== null && (
        <Dialog
          title={open.title}
          maxWidth={theme.dialog.confirmMaxWidth}
          onRequestClose={() => {
            if (!busy.current) {
              close(false);
            }
          }}
          actions={
            <>
              <Button variant="text" disabled={confirming} onClick={() => close(false)}>
                {open.cancelText ?? t('action.cancel')}
              </Button>
              <Button variant={type} loading={confirming} onClick={() => void onConfirm()}>
                {open.confirmText ?? t('action.confirm')}
              </Button>
            </>
          }
        >
          {open.message}
        </Dialog>
      )}
    </ConfirmContext.Provider>
  );
}

export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (confirm === null) {
    throw new Error('useConfirm needs a ConfirmProvider');
  }
  return confirm;
}
