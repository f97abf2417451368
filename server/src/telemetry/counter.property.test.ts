/**
 * Interval-ending counters, as properties over random readings and random edges (fast-check):
 * the pure window math (`windowEnergies`, `energyAt`) and the store's `delta` buckets agree, and
 * each window is what the register says between its edges.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { energyAt, type Reading, windowEnergies } from './counter.ts';
import { DuckDBTelemetryStore } from './index.ts';

const T0 = Date.UTC(2026, 0, 5);
const SECOND = 1000;

/** Readings at distinct random times (whole seconds), rising by multiples of 0.25 with occasional resets. */
const readingsArb = (resets: boolean) =>
  fc
    .array(
      fc.record({
        gap: fc.integer({ min: 1, max: 60 }),
        rise: fc.integer({ min: 0, max: 400 }),
        reset: resets ? fc.integer({ min: 0, max: 30 }) : fc.constant(1),
      }),
      { minLength: 1, maxLength: 80 },
    )
    .map((steps) => {
      const out: Reading[] = [];
      let ts = T0;
      let value = 1000;
      for (const s of steps) {
        ts += s.gap * 15 * SECOND; // quarter minutes: many readings sit on minute edges
        value = s.reset === 0 ? s.rise / 4 : value + s.rise / 4;
        out.push({ ts, value });
      }
      return out;
    });

/** Ascending distinct edges spanning the readings (whole seconds), some on readings. */
const withEdges = (resets: boolean) =>
  readingsArb(resets).chain((readings) => {
    const first = (readings[0] as Reading).ts;
    const last = (readings[readings.length - 1] as Reading).ts;
    const onReading = fc.constantFrom(...readings.map((r) => r.ts));
    const anywhere = fc.integer({
      min: (first - 600 * SECOND) / SECOND,
      max: (last + 600 * SECOND) / SECOND,
    });
    return fc
      .uniqueArray(
        fc.oneof(
          onReading,
          anywhere.map((s) => s * SECOND),
        ),
        { minLength: 2, maxLength: 12 },
      )
      .map((edges) => ({ readings, edges: [...edges].sort((a, b) => a - b) }));
  });

describe('interval-ending windows (property)', () => {
  it('adjacent windows add up to E(last edge) − E(first edge)', () => {
    fc.assert(
      fc.property(withEdges(true), ({ readings, edges }) => {
        const windows = windowEnergies(readings, edges);
        const e = energyAt(readings, [edges[0] as number, edges[edges.length - 1] as number]);
        expect(windows.reduce((a, b) => a + b, 0)).toBe((e[1] as number) - (e[0] as number));
      }),
    );
  });

  it('a window with readings on both edges is the register at b minus the register at a', () => {
    fc.assert(
      fc.property(withEdges(false), ({ readings, edges }) => {
        const at = new Map(readings.map((r) => [r.ts, r.value]));
        windowEnergies(readings, edges).forEach((w, k) => {
          const a = at.get(edges[k] as number);
          const b = at.get(edges[k + 1] as number);
          if (a !== undefined && b !== undefined) expect(w).toBe(b - a);
        });
      }),
    );
  });

  it("the store's delta buckets, from rollups and from raw points, are the windows of their grid", async () => {
    await fc.assert(
      fc.asyncProperty(
        readingsArb(true),
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: -3, max: 3 }),
        async (readings, widthMinutes, shift) => {
          const store = await DuckDBTelemetryStore.open({
            dataDir: ':memory:',
            timeZone: 'UTC',
            now: () => T0 + 30 * 86_400_000,
          });
          try {
            const key = { thingId: 1, metric: 'EP' };
            await store.write(readings.map((r) => ({ ...key, ...r })));
            const width = widthMinutes * 60 * SECOND;
            // A range from a few widths into the data: the reading before it steps into it.
            const start = T0 + Math.max(0, shift) * width;
            const end = (readings[readings.length - 1] as Reading).ts + width;
            const query = {
              series: [key],
              start,
              end,
              bucket: { widthMs: width },
              aggregator: 'delta' as const,
            };
            const stored = await store.bucketColumns(query);
            const expected = windowEnergies(readings, Array.from(stored.starts));
            expect(Array.from(stored.values, (v) => (Number.isNaN(v) ? 0 : v))).toEqual(expected);
            const raw = await store.bucketsAt(query, 'raw');
            expect(raw.buckets.map((b) => b.value ?? 0)).toEqual(expected);
          } finally {
            await store.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
