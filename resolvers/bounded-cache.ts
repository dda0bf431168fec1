/**
 * A map of at most `capacity` entries that drops the one used least recently, and counts how
 * often it was asked and had the answer: what the GraphQL gateway keeps of work that depends
 * only on an operation's text (its query plan, the subgraph's parsed and validated document).
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, V>();
  hits = 0;
  misses = 0;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) {
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    // Used now: moved to the newest end of the map's order.
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** The entry without counting it as asked or used (for a look from outside the cache's own user). */
  peek(key: string): V | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) {
        this.entries.delete(oldest.value);
      }
    }
  }

  delete(key: string): boolean {
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
