import type { StoredReport } from './ingest';
import { channels, type PubSub } from './pubsub';

/** What a device does, live: a report stored, or the gateway connecting or leaving. */
export type LiveEvent =
  | { kind: 'report'; report: StoredReport }
  | { kind: 'presence'; deviceId: number; online: boolean; networkInterface: string | null };

/** Calls `onEvent` for each stored report and presence change of one device until the returned function is called. */
export function watchDevice(pubsub: PubSub, deviceId: number, onEvent: (event: LiveEvent) => void): () => void {
  const stopReports = pubsub.subscribe(channels.reports(deviceId), (message) => onEvent({ kind: 'report', report: message as StoredReport }));
  const stopPresence = pubsub.subscribe(channels.presence, (message) => {
    const presence = message as { deviceId: number; online: boolean; networkInterface: string | null };
    if (presence.deviceId === deviceId) {
      onEvent({ kind: 'presence', ...presence });
    }
  });
  return () => {
    stopReports();
    stopPresence();
  };
}

/** Events a slow reader may fall behind by before its stream is ended (it can reconnect and catch up from history). */
export const liveBufferLimit = 10_000;

/**
 * The live events of one device as an async iterator, for GraphQL subscriptions: buffered up
 * to liveBufferLimit for a reader that falls behind, then ended with an error rather than
 * growing without bound; `return()` (the client went away) stops the watch.
 */
export function liveEvents(pubsub: PubSub, deviceId: number, accept: (event: LiveEvent) => boolean = () => true): AsyncIterableIterator<LiveEvent> {
  const buffer: LiveEvent[] = [];
  let waiting: ((result: IteratorResult<LiveEvent>) => void) | null = null;
  let failed: ((error: Error) => void) | null = null;
  let done = false;
  let overflow = false;
  const stop = watchDevice(pubsub, deviceId, (event) => {
    if (done || !accept(event)) {
      return;
    }
    if (waiting) {
      const resolve = waiting;
      waiting = null;
      failed = null;
      resolve({ value: event, done: false });
    } else if (buffer.length >= liveBufferLimit) {
      overflow = true;
      stop();
    } else {
      buffer.push(event);
    }
  });
  const finish = (): IteratorResult<LiveEvent> => {
    done = true;
    stop();
    buffer.length = 0;
    waiting?.({ value: undefined, done: true });
    waiting = null;
    return { value: undefined, done: true };
  };
  return {
    next: () => {
      const next = buffer.shift();
      if (next) {
        return Promise.resolve({ value: next, done: false });
      }
      if (overflow) {
        finish();
        return Promise.reject(new Error(`the reader fell more than ${liveBufferLimit} events behind`));
      }
      if (done) {
        return Promise.resolve({ value: undefined, done: true });
      }
      return new Promise((resolve, reject) => {
        waiting = resolve;
        failed = reject;
      });
    },
    return: () => Promise.resolve(finish()),
    throw: (error?: unknown) => {
      finish();
      failed?.(error instanceof Error ? error : new Error(String(error)));
      return Promise.reject(error);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
