import type { StoredReport } from '../../contracts/hub/reports';
import { channels, type PubSub } from './pubsub';

/** What is published on channels.presence when a device's gateway connects or leaves. */
export interface PresenceMessage {
  deviceId: number;
  online: boolean;
  networkInterface: string | null;
}

/** What a device does, live: a report stored, or the gateway connecting or leaving. */
export type LiveEvent = { kind: 'report'; report: StoredReport } | ({ kind: 'presence' } & PresenceMessage);

/** A stored report as a client sees it, the device named by its hash id. */
export type DeviceReportEventView = Omit<StoredReport, 'deviceId'> & { deviceHashId: string };

/** A presence change as a client sees it, the device named by its hash id. */
export type DevicePresenceEventView = Omit<PresenceMessage, 'deviceId'> & { deviceHashId: string };

/** Calls `onEvent` for each stored report and presence change of one device until the returned function is called. */
export function watchDevice(pubsub: PubSub, deviceId: number, onEvent: (event: LiveEvent) => void): () => void {
  const stopReports = pubsub.subscribe(channels.reports(deviceId), (message) => onEvent({ kind: 'report', report: message as StoredReport }));
  const stopPresence = pubsub.subscribe(channels.presence, (message) => {
    const presence = message as PresenceMessage;
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
 * Values pushed by a source as an async iterator: buffered up to liveBufferLimit for a reader
 * that falls behind, then ended with an error rather than growing without bound; `return()`
 * (the reader went away) stops the source.
 */
export function pushIterator<T>(start: (push: (value: T) => void) => () => void): AsyncIterableIterator<T> {
  const buffer: T[] = [];
  let waiting: ((result: IteratorResult<T>) => void) | null = null;
  let done = false;
  let overflow = false;
  const stop = start((value) => {
    if (done) {
      return;
    }
    if (waiting) {
      const resolve = waiting;
      waiting = null;
      resolve({ value, done: false });
    } else if (buffer.length >= liveBufferLimit) {
      overflow = true;
      stop();
    } else {
      buffer.push(value);
    }
  });
  const finish = (): IteratorResult<T> => {
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
      if (next !== undefined) {
        return Promise.resolve({ value: next, done: false });
      }
      if (overflow) {
        finish();
        return Promise.reject(new Error(`the reader fell more than ${liveBufferLimit} events behind`));
      }
      if (done) {
        return Promise.resolve({ value: undefined, done: true });
      }
      return new Promise((resolve) => {
        waiting = resolve;
      });
    },
    return: () => Promise.resolve(finish()),
    throw: (error?: unknown) => {
      finish();
      return Promise.reject(error);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/** The live events of one device (those `accept` takes) as an async iterator, for GraphQL subscriptions. */
export function liveEvents(pubsub: PubSub, deviceId: number, accept: (event: LiveEvent) => boolean = () => true): AsyncIterableIterator<LiveEvent> {
  return pushIterator<LiveEvent>((push) =>
    watchDevice(pubsub, deviceId, (event) => {
      if (accept(event)) {
        push(event);
      }
    }),
  );
}

/** type-graphql's PubSub over Gridport's (its topics are pub/sub channels). */
export function typeGraphqlPubSub(pubsub: PubSub): {
  publish(routingKey: string, ...args: unknown[]): void;
  subscribe(routingKey: string, dynamicId?: unknown): AsyncIterable<unknown>;
} {
  return {
    publish: (routingKey, ...args) => pubsub.publish(dynamicChannel(routingKey, undefined), args[0]),
    subscribe: (routingKey, dynamicId) => pushIterator<unknown>((push) => pubsub.subscribe(dynamicChannel(routingKey, dynamicId), push)),
  };
}

function dynamicChannel(routingKey: string, dynamicId: unknown): string {
  return dynamicId === undefined ? routingKey : `${routingKey}:${String(dynamicId)}`;
}
