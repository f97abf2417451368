import type { MetricQuery } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE, PlantCalendar } from '../../telemetry/index.ts';
import { alignPoints, autoWidth, bucketKeys, compareRange, queryBuckets, queryRange } from './ranges.ts';

const shanghai = new PlantCalendar('Asia/Shanghai');
const newYork = new PlantCalendar('America/New_York');
/** `YYYY-MM-DD HH:mm` in Shanghai (UTC+8, no DST). */
const sh = (text: string) => Date.parse(`${text.replace(' ', 'T')}:00+08:00`);
const q = (extra: Partial<MetricQuery>): MetricQuery => ({
  resourceType: 'thing',
  resourceId: 1,
  metricIdentifier: 'P',
  ...extra,
});

describe('query ranges on the plant calendar', () => {
  it('a period is the plant day, month or year around its start time', () => {
    const at = sh('2024-03-05 00:30');
    expect(queryRange(q({ period: 'day', startTime: at }), shanghai, 0)).toEqual({
      start: sh('2024-03-05 00:00'),
      end: sh('2024-03-06 00:00'),
    });
    expect(queryRange(q({ period: 'month', startTime: at }), shanghai, 0)).toEqual({
      start: sh('2024-03-01 00:00'),
      end: sh('2024-04-01 00:00'),
    });
    // Without a start: the period of now.
    expect(queryRange(q({ period: 'year' }), shanghai, at)).toEqual({
      start: sh('2024-01-01 00:00'),
      end: sh('2025-01-01 00:00'),
    });
  });
});

describe('automatic buckets', () => {
  // The console's history windows before it asked the server (monitoring/lib/window.ts bucketFor).
  it('pick the widths the console used to pick for 2000 points', () => {
    const width = (hours: number) => autoWidth({ start: 0, end: hours * HOUR }, 2000);
    expect(width(12)).toBe(MINUTE);
    expect(width(72)).toBe(5 * MINUTE);
    expect(width(365 * 24)).toBe(6 * HOUR);
    expect(width(10 * 365 * 24)).toBe(2 * DAY);
  });

  it('answer with the width they picked, in the query’s words', () => {
    const range = { start: 0, end: 72 * HOUR };
    expect(queryBuckets(q({ groupByTime: 'auto' }), range, shanghai, 2000).bucket).toEqual({
      groupByTime: 'minute',
      groupByInterval: 5,
    });
    expect(
      queryBuckets(q({ groupByTime: 'auto' }), { start: 0, end: 3 * 365 * DAY }, shanghai, 2000).bucket,
    ).toEqual({ groupByTime: 'day', groupByInterval: 1 });
    expect(
      queryBuckets(q({ groupByTime: 'month', groupByInterval: 3 }), range, shanghai, 2000).bucket,
    ).toEqual({ groupByTime: 'month', groupByInterval: 3 });
  });
});

describe('comparisons', () => {
  const day = { start: sh('2024-03-05 00:00'), end: sh('2024-03-06 00:00') };

  it('yesterday and last week are −24 h and −168 h exactly', () => {
    const query = q({ period: 'day', groupByTime: 'hour' });
    expect(compareRange(query, { shift: { amount: -24, unit: 'hour' } }, day, shanghai)).toMatchObject({
      start: sh('2024-03-04 00:00'),
      end: sh('2024-03-05 00:00'),
      shift: { amount: -24 * HOUR, unit: 'ms' },
    });
    expect(compareRange(query, { shift: { amount: -168, unit: 'hour' } }, day, shanghai)).toMatchObject({
      start: sh('2024-02-27 00:00'),
    });
  });

  it('a chosen date compares whole periods: days, months, years (as the console’s yoyShift did)', () => {
    const base = sh('2024-03-05 10:00');
    const range = (period: 'day' | 'month' | 'year') =>
      queryRange(q({ period, startTime: base }), shanghai, 0);
    const shiftOf = (period: 'day' | 'month' | 'year', at: number) =>
      compareRange(q({ period }), { startTime: at }, range(period), shanghai)?.shift;
    expect(shiftOf('day', sh('2024-03-01 17:00'))).toEqual({ amount: -4, unit: 'day' });
    expect(shiftOf('month', sh('2023-03-20 00:00'))).toEqual({ amount: -12, unit: 'month' });
    expect(shiftOf('year', sh('2022-07-01 00:00'))).toEqual({ amount: -24, unit: 'month' });
    expect(
      compareRange(q({ period: 'year' }), { startTime: sh('2022-07-01 00:00') }, range('year'), shanghai),
    ).toMatchObject({ start: sh('2022-01-01 00:00'), end: sh('2023-01-01 00:00') });
  });

  it('month on month of March 30 is February 29, a whole day', () => {
    const march30 = { start: sh('2024-03-30 00:00'), end: sh('2024-03-31 00:00') };
    expect(
      compareRange(q({ period: 'day' }), { shift: { amount: -1, unit: 'month' } }, march30, shanghai),
    ).toMatchObject({ start: sh('2024-02-29 00:00'), end: sh('2024-03-01 00:00') });
  });

  it('a base period against a reporting period moves by whole months for month buckets', () => {
    const reporting = { start: sh('2024-01-01 00:00'), end: sh('2024-07-01 00:00') };
    const c = compareRange(
      q({ groupByTime: 'month' }),
      { startTime: sh('2023-01-01 00:00') },
      reporting,
      shanghai,
    );
    expect(c).toMatchObject({
      start: sh('2023-01-01 00:00'),
      end: sh('2023-07-01 00:00'),
      shift: { amount: -12, unit: 'month' },
    });
  });

  it('year on year lines weekdays up when asked', () => {
    // Tuesday 2024-03-05; a year earlier is a Sunday, so the nearest Tuesday is 2023-03-07.
    const c = compareRange(
      q({ period: 'day' }),
      { shift: { amount: -1, unit: 'year' }, align: 'weekday' },
      day,
      shanghai,
    );
    expect(c).toMatchObject({ start: sh('2023-03-07 00:00'), end: sh('2023-03-08 00:00'), alignDays: 2 });
  });

  it('pairs buckets by position: February’s days on March’s axis, the rest left out', () => {
    const march = { start: sh('2024-03-01 00:00'), end: sh('2024-04-01 00:00') };
    const query = q({ period: 'month', groupByTime: 'day' });
    const c = compareRange(query, { shift: { amount: -1, unit: 'month' } }, march, shanghai)!;
    const buckets = queryBuckets(query, march, shanghai, 2000);
    const keys = { base: bucketKeys(shanghai, buckets, march), compare: bucketKeys(shanghai, buckets, c) };
    expect(keys.base).toHaveLength(31);
    expect(keys.compare).toHaveLength(29);
    const points = keys.compare.map((key, i) => ({ key, value: i }));
    const aligned = alignPoints(points, keys, march, c);
    expect(aligned).toHaveLength(29);
    expect(aligned[2]).toEqual({ key: sh('2024-03-03 00:00'), at: sh('2024-02-03 00:00'), value: 2 });
    // January (31 days) on February's axis: the 30th and 31st have no counterpart.
    const feb = { start: sh('2024-02-01 00:00'), end: sh('2024-03-01 00:00') };
    const jan = compareRange(query, { shift: { amount: -1, unit: 'month' } }, feb, shanghai)!;
    const janKeys = { base: bucketKeys(shanghai, buckets, feb), compare: bucketKeys(shanghai, buckets, jan) };
    const moved = alignPoints(
      janKeys.compare.map((key) => ({ key })),
      janKeys,
      feb,
      jan,
    );
    expect(moved.map((p) => p.key)).toEqual(janKeys.base);
  });

  it('hour buckets of a DST day pair by hour since midnight (America/New_York)', () => {
    const spring = newYork.periodRange('day', Date.UTC(2024, 2, 10, 12));
    const query = q({ period: 'day', groupByTime: 'hour' });
    const c = compareRange(query, { shift: { amount: -1, unit: 'day' } }, spring, newYork)!;
    const buckets = queryBuckets(query, spring, newYork, 2000);
    const keys = { base: bucketKeys(newYork, buckets, spring), compare: bucketKeys(newYork, buckets, c) };
    expect(keys.base).toHaveLength(23);
    expect(keys.compare).toHaveLength(24);
    const aligned = alignPoints(
      keys.compare.map((key) => ({ key })),
      keys,
      spring,
      c,
    );
    expect(aligned.map((p) => p.key)).toEqual(keys.base);
    expect(aligned[5]!.at - c.start).toBe(5 * HOUR);
  });

  it('raw points keep their distance from the range start', () => {
    const c = compareRange(q({}), { shift: { amount: -24, unit: 'hour' } }, day, shanghai)!;
    const points = [{ key: c.start + 90_000 }, { key: c.end + 1 }];
    expect(alignPoints(points, null, day, c)).toEqual([{ key: day.start + 90_000, at: c.start + 90_000 }]);
  });
});
