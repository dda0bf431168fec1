import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** How many connections one device may open in a window. */
export interface ReconnectThrottleSettings {
  attempts: number;
  windowMs: number;
}

/**
 * The Redis the nodes of an install share (REDIS_URL): a connection for short commands and the
 * install's key prefix. RedisPubSub is one (its publishing connection: no offline queue, so a
 * command while Redis is away fails at once, and auto-pipelined, so a storm's attempts of one
 * tick go out in one write).
 */
export interface SharedRedis {
  readonly commands: Redis;
  readonly prefix: string;
}

/** Devices remembered at most; beyond it the oldest windows are forgotten (a node holds far fewer gateways). */
const devicesMax = 200_000;

/**
 * Counts each device's connection attempts in a fixed window from its first attempt, on this
 * node, in memory: the throttle's count without Redis, and its fallback while Redis is away.
 */
export class ReconnectWindows {
  private readonly windows = new Map<string, { startedAt: number; attempts: number }>();

  constructor(
    private readonly settings: ReconnectThrottleSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts an attempt of `device`: null when it may go on, else the whole seconds until its window ends. */
  attempt(device: string): number | null {
    const now = this.now();
    const window = this.windows.get(device);
    if (!window || now - window.startedAt >= this.settings.windowMs) {
      this.forgetEnded(now);
      // Re-inserted, so the map stays in the order the windows started (the oldest first).
      this.windows.delete(device);
      this.windows.set(device, { startedAt: now, attempts: 1 });
      return null;
    }
    window.attempts += 1;
    if (window.attempts <= this.settings.attempts) {
      return null;
    }
    return Math.max(1, Math.ceil((window.startedAt + this.settings.windowMs - now) / 1000));
  }

  /** Gives an attempt of the device's window back. */
  refund(device: string): void {
    const window = this.windows.get(device);
    if (window && window.attempts > 0) {
      window.attempts -= 1;
    }
  }

  /** Drops the windows that have ended (the oldest first), and the oldest beyond devicesMax. */
  private forgetEnded(now: number): void {
    for (const [device, window] of this.windows) {
      if (now - window.startedAt < this.settings.windowMs && this.windows.size < devicesMax) {
        return;
      }
      this.windows.delete(device);
    }
  }
}

/** Counts an attempt: the count in the device's window and the milliseconds left of it (the window starts at the first attempt). */
const attemptScript = `
local count = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return { count, left }`;

/** Gives an attempt back while the window lasts (DECR keeps its expiry; an ended window is not brought back). */
const refundScript = `
local count = tonumber(redis.call('GET', KEYS[1]))
if count and count > 0 then
  return redis.call('DECR', KEYS[1])
end
return 0`;

const sha1 = (script: string) => createHash('sha1').update(script).digest('hex');
const attemptSha = sha1(attemptScript);
const refundSha = sha1(refundScript);

export interface ReconnectThrottleOptions {
  log: Logger;
  /** Where every node counts (REDIS_URL); null or absent: this node counts alone. */
  redis?: SharedRedis | null;
  /** How long an attempt waits for Redis, while it answers nothing else, before this node's count decides (200 ms unless given; ReconnectThrottle.waitFor). */
  redisWaitMs?: number;
  /** How long after Redis failed an attempt asks it again; the attempts meanwhile use this node's count (1 s unless given). */
  redisRetryMs?: number;
  /** The clock of this node's windows and of redisRetryMs (Date.now unless given: tests). */
  now?: () => number;
}

/**
 * Counts each device's connection attempts in a fixed window from its first attempt, and refuses
 * those beyond `attempts` until the window ends. Keyed by the certificate's fingerprint, and
 * counted only once the holder proved its key (mutual TLS, or the signed challenge), so nobody
 * but the device itself can spend its attempts.
 *
 * With Redis, every node counts a device's attempts in one window: one atomic script per attempt
 * (INCR, and PEXPIRE on the first), one round trip, pipelined with the other attempts of the
 * tick. This node counts in memory too; when Redis fails an attempt or is late (`waitFor`), that
 * count decides, and Redis is asked again after `redisRetryMs` (so an outage neither blocks nor
 * slows the handshakes). The outage is logged once, and its end.
 */
export class ReconnectThrottle {
  private readonly windows: ReconnectWindows;
  private readonly redis: SharedRedis | null;
  private readonly log: Logger;
  private readonly now: () => number;
  private readonly redisWaitMs: number;
  private readonly redisRetryMs: number;
  /** While Redis fails: since when, when it is asked again, and how many attempts this node decided alone. */
  private outage: { since: number; retryAt: number; attempts: number } | null = null;
  /** When Redis last answered a command here (performance.now()). */
  private lastAnswerAt = -Infinity;
  /** The scripts being loaded into Redis, by hash. */
  private readonly loading = new Map<string, Promise<unknown>>();

  constructor(
    private readonly settings: ReconnectThrottleSettings,
    { log, redis = null, redisWaitMs = 200, redisRetryMs = 1000, now = Date.now }: ReconnectThrottleOptions,
  ) {
    this.windows = new ReconnectWindows(settings, now);
    this.redis = redis;
    this.log = log;
    this.now = now;
    this.redisWaitMs = redisWaitMs;
    this.redisRetryMs = redisRetryMs;
  }

  /** Counts an attempt of `device`: null when it may go on, else the whole seconds until its window ends. Never rejects. */
  async attempt(device: string): Promise<number | null> {
    const local = this.windows.attempt(device);
    if (!this.redis) {
      return local;
    }
    const now = this.now();
    if (this.outage) {
      if (now < this.outage.retryAt) {
        this.outage.attempts += 1;
        return local;
      }
      // One attempt asks Redis again; the others meanwhile go on with this node's count.
      this.outage.retryAt = now + this.redisRetryMs;
    }
    let answer: unknown;
    try {
      answer = await this.ask(this.redis, attemptSha, attemptScript, device, this.settings.windowMs);
    } catch (error) {
      this.failed(error, now);
      return local;
    }
    const [count, left] = Array.isArray(answer) ? answer : [];
    if (typeof count !== 'number' || typeof left !== 'number') {
      this.failed(new Error(`the attempt script answered ${JSON.stringify(answer)}`), now);
      return local;
    }
    this.answered();
    return count <= this.settings.attempts ? null : Math.max(1, Math.ceil(left / 1000));
  }

  /** Gives back an attempt that failed on the server's side (the database away): a gateway does not pay for the cloud's outage. */
  refund(device: string): void {
    this.windows.refund(device);
    if (!this.redis || this.outage) {
      return;
    }
    this.ask(this.redis, refundSha, refundScript, device).catch((error: unknown) => this.failed(error, this.now()));
  }

  /** Runs a script on the device's key by its hash (loaded first when Redis does not hold it: after a restart), waiting as `waitFor` says. */
  private ask(redis: SharedRedis, sha: string, script: string, device: string, ...args: number[]): Promise<unknown> {
    const key = `${redis.prefix}reconnect-throttle:${device}`;
    const run = redis.commands.evalsha(sha, 1, key, ...args).catch(async (error: unknown) => {
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) {
        throw error;
      }
      // An answer all the same (Redis is there); the script is loaded once for all the attempts of the tick that found it missing, rather than sent with each.
      this.lastAnswerAt = performance.now();
      let loading = this.loading.get(sha);
      if (!loading) {
        loading = redis.commands.script('LOAD', script).finally(() => this.loading.delete(sha));
        this.loading.set(sha, loading);
      }
      await loading;
      this.lastAnswerAt = performance.now();
      return redis.commands.evalsha(sha, 1, key, ...args);
    });
    return this.waitFor(run);
  }

  /**
   * Settles as `run` does, or rejects once Redis is late: no answer to this command within
   * redisWaitMs while Redis answered nothing else either (a stalled server, a dead link). While
   * answers to other commands arrive, this node is behind in reading them (a storm's handshakes
   * keep the event loop busy), not Redis away, and the command waits on, up to ten times
   * redisWaitMs. The wait starts once the tick that sent the command ends, and a check runs after
   * the event loop's next poll, so an answer already arrived but not yet read is taken.
   */
  private waitFor<T>(run: Promise<T>): Promise<T> {
    let startedAt = performance.now();
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const check = () =>
        setImmediate(() => {
          if (settled) {
            return;
          }
          const now = performance.now();
          if (now - this.lastAnswerAt < this.redisWaitMs && now - startedAt < this.redisWaitMs * 10) {
            timer = setTimeout(check, this.redisWaitMs);
            return;
          }
          settled = true;
          reject(new Error(`Redis did not answer within ${Math.round(now - startedAt)} ms`));
        });
      // Counted from the end of this tick, when the command has been written (auto-pipelined), not while the tick goes on.
      setImmediate(() => {
        if (!settled) {
          startedAt = performance.now();
          timer = setTimeout(check, this.redisWaitMs);
        }
      });
      run.then(
        (value) => {
          this.lastAnswerAt = performance.now();
          if (!settled) {
            settled = true;
            clearTimeout(timer);
            resolve(value);
          }
        },
        (error: unknown) => {
          if (!settled) {
            settled = true;
            clearTimeout(timer);
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        },
      );
    });
  }

  private failed(error: unknown, now: number): void {
    if (this.outage) {
      this.outage.attempts += 1;
      return;
    }
    this.outage = { since: now, retryAt: now + this.redisRetryMs, attempts: 1 };
    this.log.warn(
      { err: error },
      "reconnect throttle: Redis failed or answered late; each node counts a device's attempts alone until it answers again (logged once for the outage)",
    );
  }

  private answered(): void {
    if (!this.outage) {
      return;
    }
    const { since, attempts } = this.outage;
    this.outage = null;
    this.log.info({ attempts, seconds: Math.round((this.now() - since) / 1000) }, 'reconnect throttle: Redis answers again; the nodes share the counts again');
  }
}
