import { Batcher } from './batcher';

/** The batcher of the handshakes' and the monitors' queries: what arrives together is one call, a failed batch is retried an item at a time or refused whole. */
describe('Batcher', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('runs the items that arrive within its wait as one call, answering each its own result, and a lone item after the wait', async () => {
    jest.useFakeTimers();
    const calls: number[][] = [];
    const batcher = new Batcher(
      async (items: number[]) => {
        calls.push(items);
        return items.map((item) => item * 10);
      },
      { waitMs: 2, max: 100, inFlight: 2, whenFailed: 'runEachAlone' },
    );
    const both = Promise.all([batcher.submit(1), batcher.submit(2)]);
    expect(calls).toEqual([]);
    await jest.advanceTimersByTimeAsync(2);
    expect(await both).toEqual([10, 20]);
    expect(calls).toEqual([[1, 2]]);

    const lone = batcher.submit(3);
    await jest.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(await lone).toBe(30);
    expect(calls).toEqual([[1, 2], [3]]);
  });

  it('runs a full batch at once, and gathers what arrives while its batches run into the next', async () => {
    const calls: number[][] = [];
    const releases: (() => void)[] = [];
    const batcher = new Batcher(
      async (items: number[]) => {
        calls.push(items);
        await new Promise<void>((resolve) => releases.push(resolve));
        return items;
      },
      { waitMs: 2, max: 3, inFlight: 1, whenFailed: 'runEachAlone' },
    );
    const first = [batcher.submit(1), batcher.submit(2), batcher.submit(3)];
    expect(calls).toEqual([[1, 2, 3]]);
    const later = [batcher.submit(4), batcher.submit(5)];
    await new Promise((resolve) => setTimeout(resolve, 20));
    // One batch at a time: 4 and 5 wait for the first to finish, however long their wait.
    expect(calls).toEqual([[1, 2, 3]]);
    releases.shift()?.();
    expect(await Promise.all(first)).toEqual([1, 2, 3]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    releases.shift()?.();
    expect(await Promise.all(later)).toEqual([4, 5]);
  });

  it('is idle once nothing waits and no batch runs', async () => {
    let release: () => void = () => undefined;
    const batcher = new Batcher(
      async (items: number[]) => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return items;
      },
      { waitMs: 1, max: 10, inFlight: 1, whenFailed: 'runEachAlone' },
    );
    const item = batcher.submit(1);
    let idle = false;
    const settled = batcher.idle().then(() => {
      idle = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(idle).toBe(false);
    release();
    await settled;
    expect(await item).toBe(1);
    expect(idle).toBe(true);
  });

  it('runs a failed batch again an item at a time, so only the item that fails alone is refused', async () => {
    const calls: string[][] = [];
    const batcher = new Batcher(
      async (items: string[]) => {
        calls.push(items);
        if (items.includes('bad')) {
          throw new Error('refused');
        }
        return items.map((item) => item.toUpperCase());
      },
      { waitMs: 1, max: 10, inFlight: 1, whenFailed: 'runEachAlone' },
    );
    const results = await Promise.allSettled([batcher.submit('a'), batcher.submit('bad'), batcher.submit('c')]);
    expect(results).toEqual([
      { status: 'fulfilled', value: 'A' },
      { status: 'rejected', reason: new Error('refused') },
      { status: 'fulfilled', value: 'C' },
    ]);
    expect(calls).toEqual([['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
  });

  it('refuses every item of a failed batch at once when told to (refuseAll), running none of them again', async () => {
    const calls: string[][] = [];
    const batcher = new Batcher(
      async (items: string[]) => {
        calls.push(items);
        throw new Error('the pool ran dry');
      },
      { waitMs: 1, max: 10, inFlight: 1, whenFailed: 'refuseAll' },
    );
    const results = await Promise.allSettled([batcher.submit('a'), batcher.submit('b')]);
    const refused = { status: 'rejected', reason: new Error('the pool ran dry') };
    expect(results).toEqual([refused, refused]);
    expect(calls).toEqual([['a', 'b']]);
  });

  it('refuses every item of a batch that answers fewer results than items', async () => {
    const batcher = new Batcher(async (items: number[]) => items.slice(1), { waitMs: 1, max: 10, inFlight: 1, whenFailed: 'runEachAlone' });
    const results = await Promise.allSettled([batcher.submit(1), batcher.submit(2)]);
    const refused = { status: 'rejected', reason: new Error('a batch of 2 items answered 1 results') };
    expect(results).toEqual([refused, refused]);
  });
});
