/**
 * Alarm backtest: one rule over 30 days of 10 s data of one metric, read from the telemetry store
 * and run through the alarm engine, as `POST /api/alarm/rules/backtest` does (issue 11 target:
 * ≤ 1 s). Baseline in the same run: reading the same points alone.
 *
 *   npx tsx bench/alarm-bench.ts [--days 30] [--interval 10] [--runs 7]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { backtest } from '../server/src/modules/alarms/engine/evaluate.ts';
import { openTelemetryStore, type Point } from '../server/src/telemetry/index.ts';
import { DAY, fmt, log, machine, median, numArg, SECOND, TIME_ZONE } from './harness.ts';

const days = numArg('days', 30);
const interval = numArg('interval', 10) * SECOND;
const runs = numArg('runs', 7);

const dir = mkdtempSync(join(os.tmpdir(), 'kilowatch-alarm-bench-'));
const store = await openTelemetryStore({
  dataDir: dir,
  timeZone: TIME_ZONE,
  retention: { rawDays: 90, minuteDays: 400, hourDays: 1830 },
});
try {
  log(machine());
  const end = Math.floor(Date.now() / interval) * interval;
  const start = end - days * DAY;
  const series = { thingId: 1, metric: 'T' };
  // A slow wave around 75 with a daily peak above 80: a few hundred excursions over a month.
  let batch: Point[] = [];
  let count = 0;
  for (let ts = start; ts < end; ts += interval) {
    const i = (ts - start) / interval;
    batch.push({ ...series, ts, value: 75 + 8 * Math.sin(i / 50) + 2 * Math.sin(i / 3) });
    if (batch.length === 10_000) {
      await store.write(batch);
      count += batch.length;
      batch = [];
    }
  }
  if (batch.length > 0) await store.write(batch);
  count += batch.length;
  log(`${fmt(count)} points of one series over ${days} days, every ${interval / SECOND} s`);

  const rule = {
    condition: { kind: 'threshold', op: '>', value: 80 } as const,
    timing: { onDelay: 30, offDelay: 30, deadband: 1 },
  };
  const read: number[] = [];
  const whole: number[] = [];
  const engine: number[] = [];
  let alarms = 0;
  for (let run = 0; run < runs + 1; run++) {
    let t = performance.now();
    await store.points(series, start, end + 1, 600_000);
    const readMs = performance.now() - t;
    t = performance.now();
    const points = await store.points(series, start, end + 1, 600_000);
    const readAgainMs = performance.now() - t;
    const e = performance.now();
    alarms = backtest(
      rule,
      points.map((p) => ({ at: p.ts, value: p.value })),
      start,
      end + 1,
    ).length;
    const engineMs = performance.now() - e;
    // The first run warms the JIT and DuckDB's caches and is not counted.
    if (run === 0) continue;
    read.push(readMs);
    engine.push(engineMs);
    whole.push(readAgainMs + engineMs);
  }
  log(`alarms the rule would have raised: ${fmt(alarms)}`);
  log(`baseline, read the points alone: median ${fmt(median(read), 1)} ms over ${runs} runs`);
  log(`engine over the points: median ${fmt(median(engine), 1)} ms`);
  log(
    `backtest (read + engine): median ${fmt(median(whole), 1)} ms, ` +
      `${(median(whole) / median(read)).toFixed(2)}× the read alone; target ≤ 1,000 ms`,
  );
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
