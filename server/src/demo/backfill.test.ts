import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlantGenerator, type SimThingSpec } from '../simulator/index.ts';
import { DEFAULT_RETENTION, type OpenedTelemetryStore, openTelemetryStore } from '../telemetry/index.ts';
import { backfill } from './backfill.ts';

const STEP = 10_000;
const things: (SimThingSpec & { id: number })[] = [
  { id: 1, identifier: 'AL-1-01', kind: 'meter', rated: 45, profile: 'production' },
  { id: 2, identifier: 'AC-01', kind: 'compressor', rated: 75, profile: 'utility' },
  { id: 3, identifier: 'WM-01', kind: 'water', rated: 40, profile: 'utility' },
  { id: 4, identifier: 'FS-01', kind: 'fire', rated: 7.5, profile: 'utility' },
];
// The transformer that supplies the meter and the compressor: its input is theirs plus its losses.
things.push({
  id: 5,
  identifier: 'TR-01',
  kind: 'transformer',
  rated: 200,
  profile: 'utility',
  supplies: [things[0]!, things[1]!],
});

describe('backfill', () => {
  let dir: string;
  let store: OpenedTelemetryStore;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kilowatch-backfill-'));
    store = await openTelemetryStore({
      dataDir: dir,
      timeZone: 'Asia/Shanghai',
      retention: DEFAULT_RETENTION,
    });
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes every generated point and counters continue into live values', async () => {
    const end = Math.floor(Date.now() / STEP) * STEP - STEP;
    const start = end - 3 * 3_600_000 + 1; // not on the grid: the first sample is the next step
    const generator = new PlantGenerator({ timeZone: 'Asia/Shanghai' });
    const progress: number[] = [];
    const result = await backfill({
      store,
      things,
      generator,
      start,
      end,
      stepMs: STEP,
      batchPoints: 5_000,
      onProgress: ({ points }) => progress.push(points),
    });

    // Expected: every non-silent sample of every thing on the 10 s grid, all its metrics.
    const live = new PlantGenerator({ timeZone: 'Asia/Shanghai' });
    const models = things.map((t) => live.model(t));
    let expected = 0;
    let silent = 0;
    const out = new Float64Array(11);
    for (let ts = Math.ceil(start / STEP) * STEP; ts < end; ts += STEP) {
      for (const m of models) {
        if (live.sample(m, ts, out)) expected += m.metrics.length;
        else silent++;
      }
    }
    expect(result.points).toBe(expected);
    expect(result.silentSamples).toBe(silent);
    expect(progress.at(-1)).toBe(expected);
    expect(progress.length).toBeGreaterThanOrEqual(4); // ~23k points in batches of 5k
    const meterPoints = await store.points({ thingId: 1, metric: 'EP' }, start, end, 10_000);
    expect(meterPoints[0]?.ts).toBe(Math.ceil(start / STEP) * STEP);
    expect(meterPoints.length).toBeLessThanOrEqual(3 * 360);
    expect(meterPoints.length).toBeGreaterThan(3 * 360 - 100);

    // The stored history adds up: what the transformer took in is what its loads drew plus a
    // little (its losses), as statistics over the backfilled hours will read it.
    const increase = async (thingId: number, metric: string) => {
      const points = await store.points({ thingId, metric }, start, end, 10_000);
      return points.at(-1)!.value - points[0]!.value;
    };
    const input = await increase(5, 'EPin');
    const drawn = (await increase(1, 'EP')) + (await increase(2, 'EP'));
    expect((input - drawn) / input).toBeGreaterThan(0);
    expect((input - drawn) / input).toBeLessThan(0.05);

    // The live simulator (a fresh generator) continues from the stored counters.
    for (const [thingId, metric] of [
      [1, 'EP'],
      [2, 'runHours'],
      [2, 'startups'],
      [2, 'stopHours'],
      [2, 'EP'],
      [3, 'total'],
      [5, 'EPin'],
    ] as const) {
      const [stored] = store.latest([{ thingId, metric }]);
      expect(stored, `${thingId} ${metric}`).toBeDefined();
      const model = models[thingId - 1]!;
      expect(live.values(model, stored!.ts)?.[metric]).toBe(stored!.value);
      let next: number | undefined;
      for (let ts = end; next === undefined; ts += STEP) next = live.values(model, ts)?.[metric];
      expect(next).toBeGreaterThanOrEqual(stored!.value);
      expect(next - stored!.value).toBeLessThan(metric === 'startups' ? 2 : 5);
    }
  });
});
