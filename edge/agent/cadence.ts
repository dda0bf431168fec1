import type { AgentClock } from './clock';
import { errorText, type AgentLog } from './journal';
import type { Task } from './tasks';
import type { WorkQueue } from './work-queue';

/** What the cadence runs: the tasks of the runtime now (a new runtime brings new tasks). */
interface Scheduled {
  tasks: Task[];
}

/**
 * When the agent's work runs: one timer on the agent's clock for the next task due; every task
 * due then runs in order on the work queue. Late work is not made up.
 */
export class Cadence {
  private cancelTimer: (() => void) | null = null;
  private running = false;
  private stopped = true;

  constructor(
    private readonly clock: AgentClock,
    private readonly queue: WorkQueue,
    private readonly log: AgentLog,
    private readonly current: () => Scheduled | null,
  ) {}

  start(): void {
    this.stopped = false;
  }

  stop(): void {
    this.stopped = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
  }

  /** Sets the timer for the next task due (after a new runtime, or after a run). */
  scheduleNext(): void {
    const scheduled = this.current();
    if (this.stopped || !scheduled || scheduled.tasks.length === 0) {
      return;
    }
    const next = Math.min(...scheduled.tasks.map((task) => task.nextAt));
    this.cancelTimer?.();
    this.cancelTimer = this.clock.schedule(() => this.runDue(), next - this.clock.now());
  }

  /** Runs every task due now, in order; a task that failed is logged and runs again at its next time. */
  private runDue(): Promise<void> {
    this.cancelTimer = null;
    if (this.running || this.stopped) {
      return Promise.resolve();
    }
    this.running = true;
    return this.queue
      .run(async () => {
        const scheduled = this.current();
        const now = this.clock.now();
        for (const task of scheduled?.tasks ?? []) {
          if (task.nextAt > now || this.current() !== scheduled) {
            continue;
          }
          // Late work is not made up: the next run is an interval after this one.
          task.nextAt += task.intervalMs;
          if (task.nextAt <= now) {
            task.nextAt = now + task.intervalMs;
          }
          try {
            await task.run(now);
          } catch (error) {
            this.log('error', 'agent task failed', { error: errorText(error) });
          }
        }
      })
      .finally(() => {
        this.running = false;
        this.scheduleNext();
      });
  }
}
