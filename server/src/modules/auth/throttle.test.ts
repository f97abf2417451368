import { describe, expect, it } from 'vitest';
import { delayAfter, PAIR_POLICY, SOURCE_POLICY } from './throttle.ts';

describe('login throttle delays', () => {
  it('lets a name fail 3 times from one source, then doubles from 1 s up to 15 minutes', () => {
    const delays = Array.from({ length: 16 }, (_, i) => delayAfter(i + 1, PAIR_POLICY));
    expect(delays).toEqual([0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900]);
  });

  it('lets a source fail 20 times over every name before its first delay', () => {
    expect(delayAfter(20, SOURCE_POLICY)).toBe(0);
    expect(delayAfter(21, SOURCE_POLICY)).toBe(1);
    expect(delayAfter(30, SOURCE_POLICY)).toBe(512);
    expect(delayAfter(31, SOURCE_POLICY)).toBe(900);
  });
});
