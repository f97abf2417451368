/**
 * A series' points in one batch, for both wings: sorted by time, one per time; of points at the
 * same time the last written wins (a resent reading replaces the one before it).
 */
export function sortAndDedupe(g: { ts: number[]; values: number[] }): void {
  const n = g.ts.length;
  let sorted = true;
  for (let i = 1; i < n; i++) {
    if ((g.ts[i] as number) <= (g.ts[i - 1] as number)) {
      sorted = false;
      break;
    }
  }
  if (sorted) return;
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => (g.ts[a] as number) - (g.ts[b] as number) || a - b); // stable: arrival order
  const ts: number[] = [];
  const values: number[] = [];
  for (const i of order) {
    const t = g.ts[i] as number;
    if (ts.length > 0 && ts[ts.length - 1] === t) values[values.length - 1] = g.values[i] as number;
    else {
      ts.push(t);
      values.push(g.values[i] as number);
    }
  }
  g.ts = ts;
  g.values = values;
}
