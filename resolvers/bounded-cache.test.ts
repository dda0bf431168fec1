import { BoundedCache } from './bounded-cache';

describe('a bounded cache', () => {
  it('keep at most its capacity, dropping the entry used least recently', () => {
    const cache = new BoundedCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.size).toBe(2);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([1, undefined, 3]);
    cache.set('a', 10);
    cache.set('d', 4);
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([10, undefined, 4]);
  });

  it('count its hits and misses, and forget an entry deleted or cleared', () => {
    const cache = new BoundedCache<string>(10);
    cache.set('plan', 'p');
    expect([cache.get('plan'), cache.get('other')]).toEqual(['p', undefined]);
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 1, misses: 1 });
    expect(cache.delete('plan')).toBe(true);
    expect(cache.get('plan')).toBeUndefined();
    cache.set('x', 'y');
    cache.clear();
    expect({ size: cache.size, hits: cache.hits, misses: cache.misses }).toEqual({ size: 0, hits: 1, misses: 2 });
  });

  it('shows an entry to peek without counting it or keeping it longer', () => {
    const cache = new BoundedCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect([cache.peek('a'), cache.peek('z')]).toEqual([1, undefined]);
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 0, misses: 0 });
    cache.set('c', 3);
    expect([cache.peek('a'), cache.peek('b'), cache.peek('c')]).toEqual([undefined, 2, 3]);
  });
});
