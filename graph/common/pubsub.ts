/**
 * Publish and subscribe between the parts of Gridport, and between nodes: in process by
 * default; across nodes when a Redis adapter is configured (REDIS_URL). Messages are JSON
 * values; delivery is at most once (what must not be lost lives in the database, and a
 * message here only says where to look or carries live data).
 */
export interface PubSub {
  publish(channel: string, message: unknown): void;
  /** Calls `handler` for each message on `channel` until the returned function is called. */
  subscribe(channel: string, handler: (message: unknown) => void): () => void;
  close(): Promise<void>;
}

/** Channels, in one place. */
export const channels = {
  /** A device has new outbox rows: `{ deviceId, type }` (the message's type; a `setConfig` means its saved config changed). */
  outbox: 'device-outbox',
  /** A device's stored reports: `device-reports:<deviceId>`. */
  reports: (deviceId: number) => `device-reports:${deviceId}`,
  /** A device came online or went offline: `{ deviceId, online, networkInterface }`. */
  presence: 'device-presence',
  /** An issue's timeline changed (a message added or edited, an audit entry, a state change): `issue-timeline:<issueId>`, `{ issueId }`. */
  issueTimeline: (issueId: number) => `issue-timeline:${issueId}`,
} as const;

/** The pub/sub of one process. A handler that throws does not stop the others. */
export class InProcessPubSub implements PubSub {
  private readonly handlers = new Map<string, Set<(message: unknown) => void>>();

  constructor(private readonly onHandlerError: (error: unknown, channel: string) => void = () => undefined) {}

  publish(channel: string, message: unknown): void {
    const handlers = this.handlers.get(channel);
    if (!handlers) {
      return;
    }
    for (const handler of [...handlers]) {
      try {
        handler(message);
      } catch (error) {
        this.onHandlerError(error, channel);
      }
    }
  }

  subscribe(channel: string, handler: (message: unknown) => void): () => void {
    let handlers = this.handlers.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.handlers.set(channel, handlers);
    }
    handlers.add(handler);
    return () => {
      handlers.delete(handler);
      if (handlers.size === 0) {
        this.handlers.delete(channel);
      }
    };
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }
}
