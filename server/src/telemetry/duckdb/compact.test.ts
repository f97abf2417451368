import { DuckDBInstance } from '@duckdb/node-api';
import { DAY, HOUR, MINUTE } from '@kilowatch/contract/calendar';
import { expect, it } from 'vitest';
import { compact } from './compact.ts';
import { createSchema, Lane } from './schema.ts';

it('a run stopped between windows records only the windows it rewrote, and the next run rewrites the rest', async () => {
  const instance = await DuckDBInstance.create(':memory:');
  const lane = new Lane(await instance.connect());
  const T0 = Date.UTC(2024, 2, 8); // a multiple of two days from the epoch
  const newest = T0 + 6 * DAY + 2 * HOUR; // closes [T0, T0 + 2 d), [T0 + 2 d, T0 + 4 d), [T0 + 4 d, T0 + 6 d)
  await lane.run(async (c) => {
    await createSchema(c);
    // Two series, time-major: unsorted by series in every window.
    await c.run(
      `INSERT INTO raw SELECT 1 + i % 2, ${T0} + (i // 2) * ${HOUR}, i FROM range(2 * 7 * 24) t(i)`,
    );
  });
  const span = () =>
    lane.run(async (c) =>
      (await c.runAndReadAll("SELECT key, value FROM meta WHERE key LIKE 'raw_sorted_%' ORDER BY key"))
        .getRows()
        .map(([k, v]) => [k, Number(v)]),
    );
  const sortedWindows = () =>
    lane.run(async (c) => {
      const rows = (await c.runAndReadAll('SELECT series_id, ts FROM raw'))
        .getRows()
        .map((r) => r.map(Number));
      return [0, 1, 2].filter((w) => {
        const lo = T0 + w * 2 * DAY;
        const inWindow = rows.filter(([, ts]) => (ts as number) >= lo && (ts as number) < lo + 2 * DAY);
        const sorted = [...inWindow].sort(
          (x, y) => (x[0] as number) - (y[0] as number) || (x[1] as number) - (y[1] as number),
        );
        return JSON.stringify(inWindow) === JSON.stringify(sorted);
      });
    });
  // closed() is asked once per table, then before each step (one step per window here): stops
  // before the second window's step.
  let asked = 0;
  await compact(lane, newest, newest, () => ++asked > 2);
  expect(await sortedWindows()).toEqual([2]);
  expect(await span()).toEqual([
    ['raw_sorted_from', T0 + 4 * DAY],
    ['raw_sorted_to', T0 + 6 * DAY],
  ]);
  await compact(lane, newest, newest, () => false);
  expect(await sortedWindows()).toEqual([0, 1, 2]);
  expect(await span()).toEqual([
    ['raw_sorted_from', T0],
    ['raw_sorted_to', T0 + 6 * DAY],
  ]);
  lane.conn.closeSync();
  instance.closeSync();
});

it('minute rows of a closed window are rewritten minute by minute within blocks of whole series, the open window left as written', async () => {
  const instance = await DuckDBInstance.create(':memory:');
  const lane = new Lane(await instance.connect());
  const T0 = Date.UTC(2024, 2, 8);
  const series = 30;
  const minutes = (3 * DAY) / MINUTE;
  await lane.run(async (c) => {
    await createSchema(c);
    // Minute-major, as commits append them: [T0, T0 + 2 d) closes, [T0 + 2 d, T0 + 4 d) stays open.
    await c.run(`INSERT INTO minute (series_id, bucket, cnt)
      SELECT 1 + i % ${series}, ${T0} + (i // ${series}) * ${MINUTE}, 1 FROM range(${series * minutes}) t(i)`);
  });
  const stored = () =>
    lane.run(async (c) =>
      (await c.runAndReadAll('SELECT series_id, bucket FROM minute')).getRows().map((r) => r.map(Number)),
    );
  const written = await stored();
  await compact(lane, T0 + 3 * DAY, T0 + 3 * DAY, () => false);
  const rows = await stored();
  const closed = rows.filter(([, bucket]) => (bucket as number) < T0 + 2 * DAY);
  // 2,880 rows a series: 21 series (60,480 rows) fit a step of 61,440, the other 9 the next.
  const block = (id: number) => (id <= 21 ? 0 : 1);
  const blocks = [...closed].sort(
    (x, y) =>
      block(x[0] as number) - block(y[0] as number) ||
      (x[1] as number) - (y[1] as number) ||
      (x[0] as number) - (y[0] as number),
  );
  expect(closed).toHaveLength(series * 2 * 1440);
  expect(closed).toEqual(blocks);
  expect(rows.filter(([, bucket]) => (bucket as number) >= T0 + 2 * DAY)).toEqual(
    written.filter(([, bucket]) => (bucket as number) >= T0 + 2 * DAY),
  );
  lane.conn.closeSync();
  instance.closeSync();
});
