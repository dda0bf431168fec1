import { useSyncExternalStore } from 'react';
import { useConsoleServices } from '../shell/console-services';
import type { SessionState } from './session-store';

/** The session state; re-renders on every change. */
export function useSession(): SessionState {
  const { session } = useConsoleServices();
  return useSyncExternalStore(session.subscribe, session.getState);
}
