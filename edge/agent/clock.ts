/**
 * The agent's clock: what time it is and when to run next. The system clock runs on real
 * timers; a ManualClock lets tests run hours of agent time in seconds.
 */
export interface AgentClock {
  now(): number;
  /** Calls `callback` in `ms` (its promise is awaited by a ManualClock before time moves on); answers a cancel function. */
  schedule(callback: () => void | Promise<void>, ms: number): () => void;
}

export const systemClock: AgentClock = {
  now: () => Date.now(),
  schedule(callback, ms) {
    const timer = setTimeout(() => void callback(), Math.max(0, ms));
    return () => clearTimeout(timer);
  },
};

interface Timer {
  at: number;
  order: number;
  callback: () => void | Promise<void>;
}

/** A clock that moves only when told: `advance` runs every timer due on the way, in time order, awaiting each. */
export class ManualClock implements AgentClock {
  private readonly timers = new Set<Timer>();
  private created = 0;
  private current: number;

  constructor(start: number = Date.now()) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  schedule(callback: () => void | Promise<void>, ms: number): () => void {
    this.created += 1;
    const timer: Timer = { at: this.current + Math.max(0, ms), order: this.created, callback };
    this.timers.add(timer);
    return () => this.timers.delete(timer);
  }

  /**
   * Moves time forward by `ms`. Between timers it yields to real I/O (`settle`), so what the
   * agent awaits (disk, sockets) gets done at a pace real time allows.
   */
  async advance(ms: number, settle: () => Promise<void> = () => new Promise((resolve) => setImmediate(resolve))): Promise<void> {
    const end = this.current + ms;
    for (;;) {
      let next: Timer | undefined;
      for (const timer of this.timers) {
        if (timer.at <= end && (!next || timer.at < next.at || (timer.at === next.at && timer.order < next.order))) {
          next = timer;
        }
      }
      if (!next) {
        break;
      }
      this.timers.delete(next);
      this.current = Math.max(this.current, next.at);
      await next.callback();
      await settle();
    }
    this.current = end;
  }
}
