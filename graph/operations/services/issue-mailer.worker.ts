import type { Logger } from 'pino';
import type { IssueMailer } from './issue-mailer.service';

/** How often a node looks for issue mail to send, by default. */
export const issueMailIntervalMs = 2_000;

/**
 * Runs the issue mailer on this node: a pass at start and then every interval (and at once when
 * woken), one pass at a time. Every node runs one; the mailer's claims keep them from mailing a
 * message twice.
 */
export class IssueMailWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;

  constructor(
    private readonly mailer: IssueMailer,
    private readonly log: Logger,
    private readonly intervalMs: number = issueMailIntervalMs,
  ) {}

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** Runs a pass now, or right after the one under way. */
  wake(): void {
    if (this.stopped) {
      return;
    }
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.running = this.pass().finally(() => {
      this.running = null;
      if (this.stopped) {
        return;
      }
      if (this.again) {
        this.again = false;
        this.wake();
        return;
      }
      this.timer = setTimeout(() => this.wake(), this.intervalMs);
      this.timer.unref();
    });
  }

  private async pass(): Promise<void> {
    try {
      const done = await this.mailer.runOnce();
      if (done.sent + done.notified > 0) {
        // sent: messages mailed to their to and cc; notified: messages whose subscribers (if any) were told.
        this.log.debug(done, 'issue mail: messages handled');
      }
    } catch (error) {
      this.log.error({ err: error }, 'issue mail: a pass failed; the next one tries again');
    }
  }

  /** Stops after the pass under way, if any. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    await this.running;
  }
}
