/** How many connections one device may open in a window. */
export interface ReconnectThrottleSettings {
  attempts: number;
  windowMs: number;
}

/** Devices remembered at most; beyond it the oldest windows are forgotten (a node holds far fewer gateways). */
const devicesMax = 200_000;

/**
 * Counts each device's connection attempts in a fixed window from its first attempt, and refuses
 * those beyond `attempts` until the window ends. Keyed by the certificate's fingerprint, and
 * counted only once the holder proved its key (mutual TLS, or the signed challenge), so nobody
 * but the device itself can spend its attempts.
 */
export class ReconnectThrottle {
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

  /** Gives back an attempt that failed on the server's side (the database away): a gateway does not pay for the cloud's outage. */
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
