/** How a batcher gathers: the longest a lone item waits, the most items a batch holds, the batches written at once. */
export interface BatcherSettings {
  waitMs: number;
  max: number;
  inFlight: number;
  /**
   * What a failed batch does: `runEachAlone` runs it again an item at a time, so one item the
   * database refuses fails only itself (writes); `refuseAll` refuses every item at once, for
   * reads that can only fail together (a pool run dry), where running each alone would add load.
   */
  whenFailed: 'runEachAlone' | 'refuseAll';
}

interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Gathers the items that arrive within a few milliseconds (the handshakes of a reconnect storm)
 * into one call of `run`, which answers one result per item, in order. A lone item waits at
 * most `waitMs`; while `inFlight` batches are running, arrivals gather into the next one (up to
 * `max`), so batches grow with the load instead of queueing one statement each. A batch that
 * fails is run again an item at a time or refused whole (`whenFailed`).
 */
export class Batcher<I, O> {
  private queue: Waiting<I, O>[] = [];
  private timer: NodeJS.Timeout | null = null;
  private running = 0;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly settings: BatcherSettings,
  ) {}

  /** Resolves with the item's result once its batch has run. */
  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.queue.length >= this.settings.max) {
        this.kick();
      } else if (!this.timer) {
        this.timer = setTimeout(() => this.kick(), this.settings.waitMs);
      }
    });
  }

  /** Settles once nothing waits and no batch runs (a node stopping lets its last batches finish). */
  async idle(): Promise<void> {
    while (this.queue.length > 0 || this.running > 0) {
      await new Promise((resolve) => setTimeout(resolve, this.settings.waitMs));
    }
  }

  private kick(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.running < this.settings.inFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.settings.max);
      this.running += 1;
      void this.runBatch(batch).finally(() => {
        this.running -= 1;
        if (this.queue.length > 0) {
          this.kick();
        }
      });
    }
  }

  private async runBatch(batch: Waiting<I, O>[]): Promise<void> {
    let results: O[];
    try {
      results = await this.run(batch.map((waiting) => waiting.item));
    } catch (error) {
      if (batch.length === 1 || this.settings.whenFailed === 'refuseAll') {
        batch.forEach((waiting) => waiting.reject(error));
        return;
      }
      for (const waiting of batch) {
        await this.runBatch([waiting]);
      }
      return;
    }
    if (results.length !== batch.length) {
      const error = new Error(`a batch of ${batch.length} items answered ${results.length} results`);
      batch.forEach((waiting) => waiting.reject(error));
      return;
    }
    batch.forEach((waiting, index) => waiting.resolve(results[index] as O));
  }
}
