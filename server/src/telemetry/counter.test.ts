import { describe, expect, it } from 'vitest';
import { counterConsumption, counterIncrement, counterIncrements } from './counter.ts';

describe('counter increments', () => {
  it('a rise is the difference; no previous sample gives 0', () => {
    expect(counterIncrement(undefined, 10)).toBe(0);
    expect(counterIncrement(null, 10)).toBe(0);
    expect(counterIncrement(10, 12.5)).toBe(2.5);
    expect(counterIncrement(10, 10)).toBe(0);
  });

  it('a drop below half the previous value is a reset: the increment is the new value', () => {
    expect(counterIncrement(1000, 3)).toBe(3);
    expect(counterIncrement(1000, 0)).toBe(0);
    expect(counterIncrement(1000, 499.9)).toBe(499.9);
  });

  it('a rollover (max → near zero) counts what was counted after the wrap', () => {
    expect(counterIncrement(99_999.5, 2.5)).toBe(2.5);
  });

  it('a small drop is jitter: increment 0, counting resumes from the new value', () => {
    expect(counterIncrement(1000, 999.5)).toBe(0);
    expect(counterIncrement(1000, 500)).toBe(0);
    expect(counterIncrements([1000, 999.5, 1000.5])).toEqual([0, 0, 1]);
  });

  it('never yields a negative increment', () => {
    expect(counterIncrement(5, -3)).toBe(0);
    expect(counterIncrement(-10, -30)).toBe(0);
  });

  it('consumption sums increments across resets', () => {
    // 100 → 110 (+10) → 5 reset (+5) → 15 (+10) → 14.75 jitter (0) → 20 (+5.25)
    expect(counterConsumption([100, 110, 5, 15, 14.75, 20])).toBe(30.25);
    expect(counterConsumption([110, 5], 100)).toBe(15);
  });
});
