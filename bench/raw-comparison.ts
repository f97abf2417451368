/**
 * query-bench's last part: the rollups' gain, the same answers computed from the raw table with
 * DuckDB opened read-only on the store's file after the server stopped.
 */
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DAY, HOUR, log, median, type Plant, quantile } from './harness.ts';

interface Timed {
  name: string;
  median: number;
  p95: number;
  note: string;
}

/** The rollup gain: the same answers from the raw table, DuckDB opened read-only on the store's file. */
export async function rawComparison(
  dataDir: string,
  plant: Plant,
  { end, days, runs: RUNS, series: SERIES }: { end: number; days: number; runs: number; series: number },
): Promise<Timed[]> {
  const results: Timed[] = [];
  const DAYS = days;
  const instance = await DuckDBInstance.create(join(dataDir, 'telemetry.duckdb'), {
    access_mode: 'READ_ONLY',
    threads: '2',
    memory_limit: '1GB',
  });
  const conn = await instance.connect();
  const thing = (plant.things[0] as { id: number }).id;
  const ids = (
    await conn.runAndReadAll(`SELECT id FROM series WHERE thing_id = ${thing} AND metric = 'P'`)
  ).getRows();
  const sid = Number(ids[0]?.[0]);
  const offset = 8 * HOUR; // Asia/Shanghai, no DST
  const monthStart = end - DAYS * DAY;
  const timed = async (name: string, sql: string, runs: number, note?: string) => {
    await conn.runAndReadAll(sql);
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      rows = (await conn.runAndReadAll(sql)).getRows().length;
      times.push(performance.now() - t);
    }
    const m: Timed = {
      name,
      median: median(times),
      p95: quantile(times, 0.95),
      note: `${rows} rows${note ? `; ${note}` : ''}`,
    };
    results.push(m);
    log(
      `${name.padEnd(72)} median ${m.median.toFixed(2).padStart(7)} ms  p95 ${m.p95.toFixed(2).padStart(7)} ms  (${m.note})`,
    );
  };
  await timed(
    `raw DuckDB: 1 series × ${DAYS} days → daily avg, GROUP BY day over raw`,
    `SELECT (ts + ${offset}) // ${DAY} AS d, avg(value), count(*) FROM raw
     WHERE series_id = ${sid} AND ts >= ${monthStart} AND ts < ${end} GROUP BY d ORDER BY d`,
    RUNS,
  );
  await timed(
    'raw DuckDB: same from the day rollup rows',
    `SELECT bucket, vsum / cnt, cnt FROM day WHERE series_id = ${sid} ORDER BY bucket`,
    RUNS,
  );
  await timed(
    `raw DuckDB: ${SERIES} series × ${DAYS} days → daily max − min, GROUP BY over raw`,
    `SELECT series_id, (ts + ${offset}) // ${DAY} AS d, max(value) - min(value) FROM raw
     WHERE ts >= ${monthStart} AND ts < ${end} GROUP BY ALL`,
    5,
    'plain GROUP BY: no reset or gap handling',
  );
  conn.closeSync();
  instance.closeSync();
  return results;
}
