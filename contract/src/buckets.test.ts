import { describe, expect, it } from 'vitest';
import { BUCKET_WIDTHS, bucketWidthFor } from './buckets.ts';
import { DAY, HOUR, MINUTE, SECOND } from './calendar.ts';

// The two tables the one table replaced, as they were (duckdb-store.ts NICE_WIDTHS with its
// whole-day fallback; query/service.ts AUTO_WIDTHS, at least a minute, whole days past a day).
const SECONDS = [1, 2, 5, 10, 15, 30].map((s) => s * SECOND);
const OLD_NICE = [
  ...SECONDS,
  ...[1, 2, 5, 10, 15, 30].map((m) => m * MINUTE),
  ...[1, 2, 3, 6, 12].map((h) => h * HOUR),
  DAY,
  2 * DAY,
  7 * DAY,
];
const OLD_AUTO = OLD_NICE.filter((w) => w >= MINUTE && w <= DAY);
const oldNice = (need: number) => OLD_NICE.find((w) => w >= need) ?? Math.ceil(need / DAY) * DAY;
const oldAuto = (need: number) => OLD_AUTO.find((w) => w >= need) ?? Math.ceil(need / DAY) * DAY;

describe('bucket widths', () => {
  const needs = [
    0,
    1,
    999,
    SECOND,
    1001,
    7 * SECOND,
    59 * SECOND,
    MINUTE,
    MINUTE + 1,
    90 * SECOND,
    25 * MINUTE,
    HOUR,
    5 * HOUR,
    13 * HOUR,
    DAY,
    DAY + 1,
    3 * DAY,
    7 * DAY,
    7 * DAY + 1,
    40 * DAY,
  ];
  for (let need = 0; need < 10 * DAY; need = Math.ceil(need * 1.37) + 1) needs.push(need);

  it('chooses what the store and the query layer chose before', () => {
    for (const need of needs) {
      expect(bucketWidthFor(need)).toBe(oldNice(need));
      expect(bucketWidthFor(need, { min: MINUTE, max: DAY })).toBe(oldAuto(need));
    }
  });

  it('is sorted, finest first', () => {
    expect([...BUCKET_WIDTHS].sort((a, b) => a - b)).toEqual(BUCKET_WIDTHS);
  });
});
