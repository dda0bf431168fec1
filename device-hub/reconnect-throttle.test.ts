import { ReconnectThrottle } from './reconnect-throttle';

describe('the reconnect throttle', () => {
  it('lets a device connect `attempts` times in its window, refuses the next with the seconds left, and lets it in again once the window ends', () => {
    let now = 1_000_000;
    const throttle = new ReconnectThrottle({ attempts: 3, windowMs: 60_000 }, () => now);
    expect([throttle.attempt('a'), throttle.attempt('a'), throttle.attempt('a')]).toEqual([null, null, null]);
    now += 15_500;
    expect(throttle.attempt('a')).toBe(45);
    expect(throttle.attempt('b')).toBeNull();
    now += 44_000;
    expect(throttle.attempt('a')).toBe(1);
    now += 500;
    expect(throttle.attempt('a')).toBeNull();
    expect(throttle.attempt('a')).toBeNull();
  });

  it('forgets windows that have ended as new ones start', () => {
    let now = 0;
    const throttle = new ReconnectThrottle({ attempts: 1, windowMs: 1000 }, () => now);
    for (let device = 0; device < 1000; device += 1) {
      throttle.attempt(`d${device}`);
    }
    now = 5000;
    throttle.attempt('late');
    expect((throttle as unknown as { windows: Map<string, unknown> }).windows.size).toBe(1);
  });
});
