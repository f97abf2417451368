import { describe, expect, it } from 'vitest';
import { MergedRuns } from './chunks.ts';

const visit = (keys: number[][]): [number, number][] => {
  const rows = new MergedRuns(keys);
  const out: [number, number][] = [];
  while (rows.next()) out.push([rows.run, rows.at]);
  return out;
};

describe('MergedRuns', () => {
  it('visits every row once, by key, the lower run first on equal keys', () => {
    expect(visit([[10, 20, 30], [], [10, 15, 30, 40], [5, 30]])).toEqual([
      [3, 0],
      [0, 0],
      [2, 0],
      [2, 1],
      [0, 1],
      [0, 2],
      [2, 2],
      [3, 1],
      [2, 3],
    ]);
  });

  it('is time-major over many runs of the same times, and stops when all are empty', () => {
    const runs = Array.from({ length: 37 }, (_, s) =>
      Array.from({ length: 5 + (s % 3) }, (_, i) => i * 10_000),
    );
    const rows = visit(runs);
    expect(rows).toHaveLength(runs.reduce((n, r) => n + r.length, 0));
    const keys = rows.map(([r, i]) => (runs[r] as number[])[i] as number);
    expect(keys).toEqual([...keys].sort((a, b) => a - b));
    expect(rows.slice(0, 37).map(([r]) => r)).toEqual(runs.map((_, s) => s));
    expect(visit([[], []])).toEqual([]);
  });
});
