/**
 * A data folder written before the interval-ending convention (fixtures/old-convention.duckdb.gz,
 * made by commit 76442a3), opened by this code: its rollups move to the new convention on open,
 * answer what a store written now answers, and every gauge answer stays what it was.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, describe, expect, it } from 'vitest';
import oldAnswers from './fixtures/old-convention-answers.json' with { type: 'json' };
import {
  OLD_FIXTURE_NOW,
  OLD_FIXTURE_START,
  OLD_FIXTURE_ZONE,
  oldFixtureReadings,
} from './fixtures/old-convention-readings.ts';
import { type BucketAggregator, DAY, HOUR, openTelemetryStore } from './index.ts';

const SERIES = [
  { thingId: 1, metric: 'EP' },
  { thingId: 1, metric: 'P' },
  { thingId: 2, metric: 'EP' },
  { thingId: 3, metric: 'EP' },
];
const END = OLD_FIXTURE_START + 71 * HOUR;
const AGGREGATORS: BucketAggregator[] = ['avg', 'sum', 'min', 'max', 'count', 'first', 'last', 'delta'];
const WIDTHS = [
  ['hour', HOUR],
  ['day', DAY],
] as const;
const dirs: string[] = [];

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function oldFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kw-upgrade-'));
  dirs.push(dir);
  const gz = readFileSync(new URL('./fixtures/old-convention.duckdb.gz', import.meta.url));
  writeFileSync(join(dir, 'telemetry.duckdb'), gunzipSync(gz));
  return dir;
}

const open = (dataDir: string) =>
  openTelemetryStore({
    dataDir,
    timeZone: OLD_FIXTURE_ZONE,
    retention: { rawDays: 90, minuteDays: 400, hourDays: 1830 },
    now: () => OLD_FIXTURE_NOW,
  });

type Answers = Record<string, [number | null, number, number][]>;

async function answers(store: Awaited<ReturnType<typeof open>>): Promise<Answers> {
  const out: Answers = {};
  for (const aggregator of AGGREGATORS) {
    for (const [name, widthMs] of WIDTHS) {
      const r = await store.buckets({
        series: SERIES,
        start: OLD_FIXTURE_START,
        end: END,
        bucket: { widthMs },
        aggregator,
      });
      out[`${aggregator}/${name}`] = r.buckets.map((b) => [b.value, b.count, b.complete ? 1 : 0]);
    }
  }
  return out;
}

describe('a data folder written before the interval-ending convention', () => {
  it('is recomputed on open: counters answer the new numbers, everything else as before', async () => {
    const upgraded = await open(oldFolder());
    // Rows holding a reading on their start (thing 1 every minute; things 2 and 3 on the quarter hour / 10 minutes).
    expect(upgraded.upgraded).not.toBeNull();
    expect(upgraded.upgraded?.minute).toBeGreaterThan(4000);
    const got = await answers(upgraded);
    expect(await upgraded.checkRollups()).toEqual({ minute: 0, hour: 0, day: 0 });

    const fresh = await open(':memory:');
    await fresh.write(oldFixtureReadings());
    expect(got).toEqual(await answers(fresh));
    await fresh.close();

    const before = oldAnswers as unknown as Answers;
    for (const key of Object.keys(before)) {
      if (key.startsWith('delta/')) expect(got[key], key).not.toEqual(before[key]);
      else expect(got[key], key).toEqual(before[key]);
    }

    // By hand from the readings: a local day is the register at its end minus at its start; the
    // 29th is 23 hours (Europe/Berlin moves to summer time).
    const at = (thingId: number, ts: number) =>
      oldFixtureReadings().find((p) => p.thingId === thingId && p.metric === 'EP' && p.ts === ts)
        ?.value as number;
    const days = [OLD_FIXTURE_START, OLD_FIXTURE_START + DAY, OLD_FIXTURE_START + 47 * HOUR, END];
    const daily = (
      await upgraded.buckets({
        series: [SERIES[0] as (typeof SERIES)[number], SERIES[2] as (typeof SERIES)[number]],
        start: OLD_FIXTURE_START,
        end: END,
        bucket: { widthMs: DAY },
        aggregator: 'delta',
      })
    ).buckets;
    expect(daily.slice(0, 3).map((b) => b.start)).toEqual(days.slice(0, 3));
    expect(daily.map((b) => b.value)).toEqual([
      ...[0, 1, 2].map((d) => at(1, days[d + 1] as number) - at(1, days[d] as number)),
      ...[0, 1, 2].map((d) => at(2, days[d + 1] as number) - at(2, days[d] as number)),
    ]);
    await upgraded.close();

    // Once: the folder now carries the convention's marker.
    const again = await open(dirs[0] as string);
    expect(again.upgraded).toBeNull();
    expect(await answers(again)).toEqual(got);
    await again.close();
  });

  it('needs no raw points: rollups past raw retention move the same way', async () => {
    const fresh = await open(':memory:');
    await fresh.write(oldFixtureReadings());
    const expected = await answers(fresh);
    await fresh.close();
    // The old folder with its raw points gone, as retention leaves a folder older than 90 days.
    const dir = oldFolder();
    const db = await DuckDBInstance.create(join(dir, 'telemetry.duckdb'));
    const c = await db.connect();
    await c.run('DELETE FROM raw');
    await c.run('CHECKPOINT');
    c.closeSync();
    db.closeSync();
    const upgraded = await open(dir);
    expect(upgraded.upgraded).not.toBeNull();
    expect(await answers(upgraded)).toEqual(expected);
    await upgraded.close();
  });
});
