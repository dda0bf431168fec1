import { useEffect, useState } from 'react';

/** How long typing must pause before a search asks the server. */
export const searchDelayMs = 250;

/** `value` once it has stayed the same for `delayMs` (a search box asks once a word is typed, not at every key). */
export function useDebouncedValue<T>(value: T, delayMs: number = searchDelayMs): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
