import { createContext, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { Area } from '../shell/area';
import type { AdminMessageKey } from './messages/admin';
import type { CustomerMessageKey } from './messages/customer';
import { sharedMessages, type SharedMessageKey } from './messages/shared';

export type MessageKey = SharedMessageKey | CustomerMessageKey | AdminMessageKey;
export type MessageSet = Readonly<Partial<Record<string, string>>>;
export type MessageValues = Record<string, string | number>;

/** Loads an area's texts; each area's set is its own chunk, fetched when the area is entered. */
export type AreaMessageLoader = (area: Area) => Promise<MessageSet>;

export const loadAreaMessages: AreaMessageLoader = async (area) =>
  area === 'admin' ? (await import('./messages/admin')).adminMessages : (await import('./messages/customer')).customerMessages;

/** Fills `{name}` placeholders. */
export function fill(text: string, values: MessageValues = {}): string {
  return text.replace(/\{(\w+)\}/g, (placeholder, name: string) => (name in values ? String(values[name]) : placeholder));
}

/**
 * The texts in use: the shared set and the set of the current area (console.md section 2).
 * An area's set is loaded when the area changes and only then.
 */
export class MessagesStore {
  private area: Area | null = null;
  private areaMessages: MessageSet = {};
  private readonly listeners = new Set<() => void>();
  private version = 0;

  constructor(private readonly loader: AreaMessageLoader = loadAreaMessages) {}

  /** Loads the set of `area` unless it is the one in use. */
  async enter(area: Area): Promise<void> {
    if (this.area === area) {
      return;
    }
    const loaded = await this.loader(area);
    this.area = area;
    this.areaMessages = loaded;
    this.version += 1;
    for (const listener of this.listeners) {
      listener();
    }
  }

  get currentArea(): Area | null {
    return this.area;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  /** The text of `key` in the current area, else the shared one, else the key itself. */
  text(key: MessageKey, values?: MessageValues): string {
    const text = this.areaMessages[key] ?? (sharedMessages as MessageSet)[key] ?? key;
    return fill(text, values);
  }
}

const MessagesContext = createContext<MessagesStore | null>(null);

export function MessagesProvider({ store, children }: { store: MessagesStore; children: ReactNode }) {
  return <MessagesContext.Provider value={store}>{children}</MessagesContext.Provider>;
}

export type Translate = (key: MessageKey, values?: MessageValues) => string;

/** The translate function of the current area; re-renders when the area's set changes. */
export function useMessages(): Translate {
  const store = useContext(MessagesContext);
  if (store === null) {
    throw new Error('useMessages needs a MessagesProvider');
  }
  const version = useSyncExternalStore(store.subscribe, store.getVersion);
  // A new function when the set changes, so memoised users re-render with the new texts.
  return useMemo<Translate>(() => (key, values) => (version >= 0 ? store.text(key, values) : key), [store, version]);
}
