/**
 * The hour rollups against the raw samples on a real victoria-metrics: the same store's answers
 * read both ways (rollups, and raw samples with the rollups switched off) after in-order, late,
 * reset and rewriting writes. Skipped without Debian's binary unless REQUIRE_VICTORIA=1 or CI=true.
 */
import { DAY, HOUR, MINUTE, PlantCalendar } from '@kilowatch/contract/calendar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVictoria, type VictoriaProcess, victoriaMissing } from '../conformance/wings.ts';
import type { BucketAggregator, BucketQuery, Point } from '../store.ts';
import { bucketRuns } from './rollups.ts';
import { VictoriaTelemetryStore } from './store.ts';

const T0 = Date.UTC(2024, 2, 8);
const required = process.env.CI === 'true' || process.env.REQUIRE_VICTORIA === '1';
const skip = Boolean(victoriaMissing()) && !required;
let vm: VictoriaProcess | undefined;
let seq = 0;

beforeAll(async () => {
  if (!skip) vm = await startVictoria();
}, 30_000);
afterAll(async () => {
  await vm?.stop();
});

/** A store on a fresh name: `rollupMinHours` 0 reads every whole-hour query from the rollups, ∞ none. */
function opener(now: number): (rollupMinHours: number) => Promise<VictoriaTelemetryStore> {
  const name = `kwroll_${process.pid}_${++seq}`;
  return (rollupMinHours) =>
    VictoriaTelemetryStore.open({
      url: (vm as VictoriaProcess).url,
      timeZone: 'America/New_York',
      now: () => now,
      name,
      rollupMinHours,
    });
}

const AGGREGATORS: BucketAggregator[] = ['avg', 'sum', 'max', 'min', 'count', 'last', 'delta'];

describe.skipIf(skip)('hour rollups on VictoriaMetrics', () => {
  it('answer what the raw samples answer, after late points, resets and a rewritten reading', async () => {
    const now = T0 + 4 * DAY + 30 * MINUTE;
    const open = opener(now);
    const write = await open(0);
    const keys = [
      { thingId: 1, metric: 'kwh' },
      { thingId: 2, metric: 'kwh' },
      // read through a regular expression: characters that mean something there or in quotes
      { thingId: 3, metric: 'E "total" \\ a.b|c* (电)' },
    ];
    const pts = (k: number, from: number, to: number, step: number): Point[] => {
      const out: Point[] = [];
      for (let t = from; t < to; t += step) {
        // a register that climbs half a unit a step, reset to 0 at 40 h on series 2
        const i = (t - T0) / step;
        const v = k === 2 ? (t >= T0 + 40 * HOUR ? (t - T0 - 40 * HOUR) / step / 4 : i / 4) : i / 2;
        out.push({ ...(keys[k - 1] as { thingId: number; metric: string }), ts: t, value: v });
      }
      return out;
    };
    // in order, a few minutes at a time, skipping 70–75 h (a gap) …
    for (let t = T0; t < T0 + 4 * DAY; t += 10 * MINUTE) {
      if (t >= T0 + 70 * HOUR && t < T0 + 75 * HOUR) continue;
      await write.write([
        ...pts(1, t, t + 10 * MINUTE, 5 * MINUTE),
        ...pts(2, t, t + 10 * MINUTE, 5 * MINUTE),
        ...pts(3, t, t + 10 * MINUTE, 5 * MINUTE),
      ]);
    }
    // … then the gap's points late, and one stored reading changed (a whole-series rewrite)
    await write.write(pts(1, T0 + 70 * HOUR, T0 + 75 * HOUR, 5 * MINUTE));
    await write.write([
      { ...(keys[0] as { thingId: number; metric: string }), ts: T0 + 20 * HOUR, value: 1000 },
    ]);
    // another process: the raw answers, and the rollups read by a store that did not write them
    const raw = await open(Number.POSITIVE_INFINITY);
    const reader = await open(0);
    for (const bucket of [
      { widthMs: DAY },
      { widthMs: HOUR },
      { widthMs: 6 * HOUR },
      { calendar: 'month' as const },
    ]) {
      for (const aggregator of AGGREGATORS) {
        const q: BucketQuery = { series: keys, start: T0 - DAY, end: T0 + 5 * DAY, bucket, aggregator };
        const want = await raw.buckets(q);
        expect(want.resolution).toBe('raw');
        for (const store of [write, reader]) {
          const got = await store.buckets(q);
          expect(got.resolution, `${aggregator} ${JSON.stringify(bucket)}`).toBe('hour');
          expect(got.buckets, `${aggregator} ${JSON.stringify(bucket)}`).toEqual(want.buckets);
        }
      }
    }
    for (const s of [write, raw, reader]) await s.close();
  }, 120_000);
});

describe('bucketRuns (one range query per run)', () => {
  it("cuts Berlin's days at the 23- and 25-hour days, and long fixed widths at 10,000 buckets", () => {
    const cal = new PlantCalendar('Europe/Berlin');
    const first = cal.dayOf(Date.UTC(2024, 2, 29, 12));
    // 2024-03-29 … 2024-04-02 and 2024-10-25 … 2024-10-29: 31 March is 23 h, 27 October 25 h
    const spring = Array.from({ length: 6 }, (_, i) => cal.dayStart(first + i));
    expect(bucketRuns(spring)).toEqual([
      { first: 0, end: 2, width: DAY },
      { first: 2, end: 3, width: DAY - HOUR },
      { first: 3, end: 5, width: DAY },
    ]);
    const autumn = cal.dayOf(Date.UTC(2024, 9, 25, 12));
    const starts = Array.from({ length: 5 }, (_, i) => cal.dayStart(autumn + i));
    expect(bucketRuns(starts).map((r) => r.width / HOUR)).toEqual([24, 25, 24]);
    const hours = Array.from({ length: 25_001 }, (_, i) => T0 + i * HOUR);
    expect(bucketRuns(hours)).toEqual([
      { first: 0, end: 10_000, width: HOUR },
      { first: 10_000, end: 20_000, width: HOUR },
      { first: 20_000, end: 25_000, width: HOUR },
    ]);
  });
});
