import { DAY, HOUR, MINUTE } from '@kilowatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTelemetryStore, type Point, type SeriesKey } from '../../../telemetry/index.ts';
import { DEMAND_STEP, demandRegister, type EdgeRegister, maxDemand } from './demand.ts';

const T0 = Date.UTC(2026, 9, 14);
const START = T0 + 6 * HOUR;
const END = START + 8 * HOUR;
const SECOND = 1000;

/** A deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Readings every `next()` ms over [from, to) of a counter drawing a random load, with what `at`
 * changes on the way (a reset to a small value, a meter's small correction downwards).
 */
function meter(
  thingId: number,
  from: number,
  to: number,
  next: (ts: number) => number,
  rnd: () => number,
  at: (ts: number, value: number) => number = (_, v) => v,
): Point[] {
  const out: Point[] = [];
  let value = 1000 + 9000 * rnd();
  for (let ts = from; ts < to; ts = next(ts)) {
    out.push({ thingId, metric: 'EP', ts, value: Math.round(value * 1000) / 1000 });
    value = at(ts, value + (50 + 400 * rnd()) * 0.0002778 * ((next(ts) - ts) / SECOND));
  }
  return out;
}

/**
 * The store's summed register (rollups, `summedRegister`) against the interpolation of every raw
 * reading (`EdgeRegister` fed from `pointColumns`, how the bill read demand before) on readings
 * that are not on the edges: gaps, resets, readings off the minute, several a minute, a meter
 * whose first reading in the read window follows a gap of days, a gap over the range's end.
 */
describe('the summed register from rollups answers as the interpolation of the raw readings', () => {
  const now = () => T0 + 3 * DAY;
  let store: Awaited<ReturnType<typeof openTelemetryStore>>;
  const rnd = random(19);
  const meters: SeriesKey[] = [];
  const irregular = 4;

  beforeAll(async () => {
    store = await openTelemetryStore({
      dataDir: ':memory:',
      timeZone: 'Asia/Shanghai',
      retention: { rawDays: 90, minuteDays: 400, hourDays: 1830 },
      now,
    });
    const from = START - 2 * HOUR;
    const to = END + 2 * HOUR;
    const every =
      (ms: number, offset = 0) =>
      (ts: number) =>
        Math.floor((ts - offset) / ms) * ms + ms + offset;
    const points: Point[] = [
      // 1: every minute on the minute, reset to 3 kWh at 09:00 and corrected down 0.5 kWh at 11:30.
      ...meter(1, from, to, every(MINUTE), rnd, (ts, v) =>
        ts === START + 3 * HOUR ? 3 : ts === START + 5.5 * HOUR ? v - 0.5 : v,
      ),
      // 2: every 5 minutes on the edge, with 40 minutes missing.
      ...meter(2, from, to, (ts) => (ts === START + 2 * HOUR ? ts + 45 * MINUTE : ts + 5 * MINUTE), rnd),
      // 3: every minute at :17.
      ...meter(3, from + 17 * SECOND, to, every(MINUTE, 17 * SECOND), rnd),
      // 4: 20 to 200 s apart, so some minutes hold several readings off the minute: read raw.
      ...meter(
        irregular,
        from + 3 * SECOND,
        to,
        (ts) => ts + 20 * SECOND + Math.floor(180 * rnd()) * SECOND,
        rnd,
      ),
      // 5: last read two days before, again from 08:00:30 (its first reading in the window).
      ...meter(5, T0 - 2 * DAY, T0 - 2 * DAY + HOUR, every(MINUTE), rnd),
      ...meter(5, START + 2 * HOUR + 30 * SECOND, to, every(MINUTE, 30 * SECOND), rnd),
      // 6: every 15 minutes at 7:30 past, and nothing from an hour before the end until 3 hours after it.
      ...meter(6, from + 450 * SECOND, END - HOUR, every(15 * MINUTE, 450 * SECOND), rnd),
      ...meter(6, END + 3 * HOUR, END + 4 * HOUR, every(15 * MINUTE, 450 * SECOND), rnd),
      // 7: every 10 s on the grid, reset mid-minute at 10:00:20.
      ...meter(7, from, to, every(10 * SECOND), rnd, (ts, v) =>
        ts === START + 4 * HOUR + 20 * SECOND ? 1 : v,
      ),
      // 8: readings only before the range.
      ...meter(8, from - DAY, START - HOUR, every(MINUTE), rnd),
    ];
    for (let id = 1; id <= 9; id++) meters.push({ thingId: id, metric: 'EP' }); // 9 never read
    await store.write(points);
  });
  afterAll(() => store?.close());

  it('edge by edge, and in the maximum of fixed and sliding windows', async () => {
    const asked: SeriesKey[][] = [];
    const fromRaw = await demandRegister(
      {
        store: {
          pointColumns: store.pointColumns.bind(store),
          bucketColumns: store.bucketColumns.bind(store),
        },
        now,
      },
      meters,
      START,
      END,
    );
    const fromRollups = await demandRegister(
      {
        store: {
          summedRegister: store.summedRegister!.bind(store),
          bucketColumns: store.bucketColumns.bind(store),
          pointColumns: (series, ...rest) => {
            asked.push([...series]);
            return store.pointColumns(series, ...rest);
          },
        },
        now,
      },
      meters,
      START,
      END,
    );
    // Only the meter with several readings a minute off the minute was read raw.
    expect(asked).toEqual([[{ thingId: irregular, metric: 'EP' }]]);
    expect(fromRollups.values).toHaveLength((END - START) / DEMAND_STEP + 1);
    const base = (r: EdgeRegister, i: number) => (r.values[i] as number) - (r.values[0] as number);
    for (let i = 0; i < fromRaw.values.length; i++)
      expect(Math.abs(base(fromRollups, i) - base(fromRaw, i)), `edge ${i}`).toBeLessThan(1e-9);
    for (const mode of ['fixed', 'sliding'] as const) {
      const a = maxDemand(fromRollups, mode);
      const b = maxDemand(fromRaw, mode);
      expect(a?.start).toBe(b?.start);
      expect(a?.end).toBe(b?.end);
      expect(Math.round((a?.kw ?? 0) * 1e4)).toBe(Math.round((b?.kw ?? 0) * 1e4));
    }
  });

  it('each meter alone, as its own raw readings interpolated', async () => {
    const raw = {
      pointColumns: store.pointColumns.bind(store),
      bucketColumns: store.bucketColumns.bind(store),
    };
    for (const key of meters) {
      const a = await demandRegister({ store, now }, [key], START, END);
      const b = await demandRegister({ store: raw, now }, [key], START, END);
      for (let i = 0; i < a.values.length; i++) {
        const d =
          (a.values[i] as number) -
          (a.values[0] as number) -
          ((b.values[i] as number) - (b.values[0] as number));
        expect(Math.abs(d), `meter ${key.thingId}, edge ${i}`).toBeLessThan(1e-9);
      }
    }
  });
});
