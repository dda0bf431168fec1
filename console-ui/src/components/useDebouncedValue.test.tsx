import { act, renderHook } from '@testing-library/react';
import { useDebouncedValue } from './useDebouncedValue';

describe('useDebouncedValue', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  it('gives a value once it has stayed the same for the delay, skipping the ones typed on the way', () => {
    const seen: string[] = [];
    const { rerender } = renderHook(
      ({ value }: { value: string }) => {
        const settled = useDebouncedValue(value, 250);
        if (seen[seen.length - 1] !== settled) {
          seen.push(settled);
        }
        return settled;
      },
      { initialProps: { value: '' } },
    );
    for (const value of ['w', 'wi', 'win', 'wind']) {
      rerender({ value });
      act(() => {
        jest.advanceTimersByTime(100);
      });
    }
    expect(seen).toEqual(['']);
    act(() => {
      jest.advanceTimersByTime(250);
    });
    expect(seen).toEqual(['', 'wind']);
  });
});
