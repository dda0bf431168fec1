/** Work on the agent's runtime, one piece at a time in the order given: the clock's tasks and config changes. */
export class WorkQueue {
  private tail: Promise<void> = Promise.resolve();

  /** Runs `work` after all work given before it; a failure is the caller's, the queue goes on. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work);
    this.tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Resolves once the work given so far has ended. */
  idle(): Promise<void> {
    return this.tail;
  }
}
