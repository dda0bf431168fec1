import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { Icon, type IconName } from '../theme/Icon';
import type { Tone } from '../theme/theme';

/** How long a snackbar shows (console.md section 9). */
export const snackbarTimeoutMs = 3000;

export interface Snackbar {
  message: string;
  tone: Tone;
}

interface SnackbarApi {
  /** Queues a message; one identical to a message showing or queued is not queued again. */
  show(snackbar: Snackbar): void;
}

const SnackbarContext = createContext<SnackbarApi | null>(null);

const icons: Record<Tone, IconName> = { primary: 'info', info: 'info', success: 'checkCircle', warning: 'warning', error: 'error' };

const same = (a: Snackbar, b: Snackbar) => a.message === b.message && a.tone === b.tone;

/** Snackbars, one at a time, each for 3000 ms, in the order they came. */
export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [queue, setQueue] = useState<Snackbar[]>([]);
  const current = queue[0];

  const show = useCallback((snackbar: Snackbar) => {
    setQueue((waiting) => (waiting.some((queued) => same(queued, snackbar)) ? waiting : [...waiting, snackbar]));
  }, []);
  const api = useMemo(() => ({ show }), [show]);

  const dismiss = useCallback(() => setQueue((waiting) => waiting.slice(1)), []);
  // The timer starts for each snackbar as it appears.
  useEffect(() => {
    if (current === undefined) {
      return undefined;
    }
    const timer = setTimeout(dismiss, snackbarTimeoutMs);
    return () => clearTimeout(timer);
  }, [current, dismiss]);

  return (
    <SnackbarContext.Provider value={api}>
      {children}
      {current !== undefined && (
        <Bar role="status" aria-live="polite" $tone={current.tone}>
          <Icon name={icons[current.tone]} />
          <span>{current.message}</span>
          <CloseButton type="button" aria-label="Close" onClick={dismiss}>
            <Icon name="close" size={18} />
          </CloseButton>
        </Bar>
      )}
    </SnackbarContext.Provider>
  );
}

export function useSnackbar(): SnackbarApi {
  const api = useContext(SnackbarContext);
  if (api === null) {
    throw new Error('useSnackbar needs a SnackbarProvider');
  }
  return api;
}

const Bar = styled.div<{ $tone: Tone }>`
  position: fixed;
  left: 50%;
  bottom: 24px;
  transform: translateX(-50%);
  z-index: ${({ theme }) => theme.layers.banner};
  display: flex;
  align-items: center;
  gap: 12px;
  max-width: min(560px, calc(100vw - 32px));
  padding: 10px 12px 10px 16px;
  border-radius: ${({ theme }) => theme.radius}px;
  color: #fff;
  background: ${({ theme, $tone }) => theme.colors[$tone]};
  box-shadow: 0 6px 24px rgba(0, 0, 0, 0.2);
  font-weight: ${({ theme }) => theme.fontWeights.medium};
`;

const CloseButton = styled.button`
  margin-left: auto;
  display: inline-flex;
  border: 0;
  background: transparent;
  color: inherit;
  cursor: pointer;
`;
