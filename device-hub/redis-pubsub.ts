import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { InProcessPubSub, type PubSub } from '../graph/common/pubsub';
import type { SharedRedis } from './reconnect-throttle';

export interface RedisPubSubOptions {
  /** redis:// or rediss:// (REDIS_URL). */
  url: string;
  log: Logger;
  /** Put before every channel name (and the keys of the reconnect throttle), so installs (or tests) sharing one Redis stay apart. */
  prefix?: string;
}

/** What travels through Redis: the message and the node that published it. */
interface Wire {
  origin: string;
  message: unknown;
}

type Handler = (message: unknown) => void;

/**
 * Pub/sub across nodes through Redis (REDIS_URL): one connection publishes, one listens in
 * subscriber mode. A Redis channel is subscribed while this node has a handler on it.
 *
 * A message published here reaches this node's handlers at once, in `publish` (as with
 * InProcessPubSub), and the other nodes through Redis; when it comes back from Redis it is
 * recognised by its origin and not delivered twice. Handlers get messages in the order they
 * arrive; one that throws is logged and the others still run.
 *
 * Delivery is at most once. While Redis is unreachable, a publish reaches this node's handlers
 * only: it is not queued for later (notifications go stale, and a queue would grow without
 * bound under report traffic). Nothing that matters is lost with it: the outbox, reports and
 * presence are in the database, and the device hub re-reads a connected device's outbox at
 * every keep-alive tick. ioredis reconnects with backoff; on reconnecting, every channel with
 * a handler is subscribed again.
 */
export class RedisPubSub implements PubSub, SharedRedis {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  /** This node's handlers, and how many there are per channel (a Redis channel is subscribed while there are any). */
  private readonly local: InProcessPubSub;
  private readonly counts = new Map<string, number>();
  /** This node's id: tells its own messages apart when Redis echoes them back, and names its connections (`gridport-pubsub-<first 8>`). */
  readonly origin = randomUUID();
  /** Put before every channel name and key (RedisPubSubOptions.prefix). */
  readonly prefix: string;
  private readonly log: Logger;
  private closed = false;
  /** Each connection logs its first error of an outage, not every retry. */
  private readonly failing = { publisher: false, subscriber: false };
  /** Messages not published because Redis was unreachable (for logs and tests). */
  dropped = 0;

  constructor({ url, log, prefix = 'gridport:' }: RedisPubSubOptions) {
    this.log = log;
    this.local = new InProcessPubSub((error, channel) => log.error({ err: error, channel }, 'a pub/sub handler failed'));
    this.prefix = prefix;
    // No offline queue: a publish while Redis is down fails at once instead of piling up.
    // Subscriptions are restored by the 'ready' handler below, not by ioredis.
    const options = {
      enableOfflineQueue: false,
      autoResubscribe: false,
      maxRetriesPerRequest: 1,
      connectionName: `gridport-pubsub-${this.origin.slice(0, 8)}`,
    };
    // Publishes of one tick (a batch of stored reports) go out in one write.
    this.publisher = new Redis(url, { ...options, enableAutoPipelining: true });
    this.subscriber = new Redis(url, options);
    this.watch(this.publisher, 'publisher');
    this.watch(this.subscriber, 'subscriber');
    this.subscriber.on('ready', () => this.resubscribe());
    this.subscriber.on('message', (channel: string, text: string) => this.onMessage(channel, text));
  }

  /** The publishing connection, for this node's other short commands (the reconnect throttle's counts). */
  get commands(): Redis {
    return this.publisher;
  }

  /** Resolves once both connections are ready; rejects when they are not within `timeoutMs`. */
  async ready(timeoutMs = 10_000): Promise<void> {
    const ready = (connection: Redis) =>
      connection.status === 'ready'
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            connection.once('ready', () => resolve());
          });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([Promise.all([ready(this.publisher), ready(this.subscriber)]), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Whether both connections are up and Redis answers a PING within `timeoutMs` (readiness, server/readiness.ts). */
  async answers(timeoutMs = 2000): Promise<boolean> {
    if (this.closed || this.publisher.status !== 'ready' || this.subscriber.status !== 'ready') {
      return false;
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        this.publisher.ping().then((answer) => answer === 'PONG'),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), timeoutMs);
        }),
      ]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  publish(channel: string, message: unknown): void {
    if (this.closed) {
      return;
    }
    this.local.publish(channel, message);
    const wire: Wire = { origin: this.origin, message };
    this.publisher.publish(this.prefix + channel, JSON.stringify(wire)).catch((error: unknown) => {
      this.dropped += 1;
      if (!this.failing.publisher) {
        this.log.warn({ err: error, channel }, 'pub/sub: a message was not published to Redis; other nodes miss it');
      }
    });
  }

  subscribe(channel: string, handler: Handler): () => void {
    const count = this.counts.get(channel) ?? 0;
    this.counts.set(channel, count + 1);
    if (count === 0) {
      this.command('subscribe', channel);
    }
    const stop = this.local.subscribe(channel, handler);
    let subscribed = true;
    return () => {
      if (!subscribed || this.closed) {
        return;
      }
      subscribed = false;
      stop();
      const left = (this.counts.get(channel) ?? 1) - 1;
      if (left > 0) {
        this.counts.set(channel, left);
        return;
      }
      this.counts.delete(channel);
      this.command('unsubscribe', channel);
    };
  }

  /** Stops delivering and closes both connections. */
  async close(): Promise<void> {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.counts.clear();
    await this.local.close();
    await Promise.all(
      [this.publisher, this.subscriber].map(async (connection) => {
        try {
          await connection.quit();
        } catch {
          // Not connected: nothing to say goodbye to.
          connection.disconnect();
        }
      }),
    );
  }

  /** Sends SUBSCRIBE or UNSUBSCRIBE when connected; when not, the 'ready' handler catches up. */
  private command(name: 'subscribe' | 'unsubscribe', channel: string): void {
    if (this.closed || this.subscriber.status !== 'ready') {
      return;
    }
    this.subscriber[name](this.prefix + channel).catch((error: unknown) => {
      this.log.warn({ err: error, channel }, `pub/sub: ${name} failed; retried on reconnect`);
    });
  }

  private resubscribe(): void {
    const channels = [...this.counts.keys()].map((channel) => this.prefix + channel);
    if (channels.length === 0 || this.closed) {
      return;
    }
    this.subscriber.subscribe(...channels).catch((error: unknown) => {
      this.log.warn({ err: error, channels: channels.length }, 'pub/sub: subscribing again failed; retried on reconnect');
    });
  }

  private onMessage(prefixed: string, text: string): void {
    if (!prefixed.startsWith(this.prefix)) {
      return;
    }
    const channel = prefixed.slice(this.prefix.length);
    let wire: Wire | null;
    try {
      wire = JSON.parse(text) as Wire | null;
    } catch (error) {
      this.log.warn({ err: error, channel }, 'pub/sub: a message from Redis is not JSON; ignored');
      return;
    }
    if (typeof wire !== 'object' || wire === null || wire.origin === this.origin) {
      return;
    }
    this.local.publish(channel, wire.message);
  }

  private watch(connection: Redis, role: 'publisher' | 'subscriber'): void {
    const lost = (error?: Error) => {
      if (!this.failing[role] && !this.closed) {
        this.log.warn({ ...(error ? { err: error } : {}), role }, 'pub/sub: the Redis connection is down; reconnecting');
      }
      this.failing[role] = true;
    };
    connection.on('error', (error: Error) => lost(error));
    connection.on('close', () => lost());
    let droppedBefore = 0;
    connection.on('ready', () => {
      if (this.failing[role]) {
        this.log.info({ role, ...(role === 'publisher' ? { dropped: this.dropped - droppedBefore } : {}) }, 'pub/sub: the Redis connection is back');
      }
      droppedBefore = this.dropped;
      this.failing[role] = false;
    });
  }
}
