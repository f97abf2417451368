import type { Point, SeriesKey, TelemetryStore } from './store.ts';

/** Largest-triangle-three-buckets: keeps the first and last point and the most prominent one per bucket. */
function lttb(points: readonly Point[], threshold: number): Point[] {
  const n = points.length;
  if (threshold >= n || threshold < 3) return points.slice(0, Math.max(threshold, 0) < 3 ? n : threshold);
  const out: Point[] = [points[0] as Point];
  const every = (n - 2) / (threshold - 2);
  let a = 0;
  for (let i = 0; i < threshold - 2; i++) {
    const avgStart = Math.floor((i + 1) * every) + 1;
    const avgEnd = Math.min(Math.floor((i + 2) * every) + 1, n);
    let avgX = 0;
    let avgY = 0;
    for (let j = avgStart; j < avgEnd; j++) {
      avgX += (points[j] as Point).ts;
      avgY += (points[j] as Point).value;
    }
    const len = Math.max(avgEnd - avgStart, 1);
    avgX /= len;
    avgY /= len;
    const rangeStart = Math.floor(i * every) + 1;
    const rangeEnd = Math.floor((i + 1) * every) + 1;
    const pa = points[a] as Point;
    let best = -1;
    let bestIndex = rangeStart;
    for (let j = rangeStart; j < rangeEnd; j++) {
      const p = points[j] as Point;
      const area = Math.abs((pa.ts - avgX) * (p.value - pa.value) - (pa.ts - p.ts) * (avgY - pa.value));
      if (area > best) {
        best = area;
        bestIndex = j;
      }
    }
    out.push(points[bestIndex] as Point);
    a = bestIndex;
  }
  out.push(points[n - 1] as Point);
  return out;
}

/**
 * About `maxPoints` points of a series over [start, end) for a chart: the store's own downsampling
 * when it has one (DuckDB: min/max per bucket from the rollups), else raw points reduced by LTTB.
 */
export async function downsample(
  store: TelemetryStore,
  series: SeriesKey,
  start: number,
  end: number,
  maxPoints: number,
  rawLimit = 1_000_000,
): Promise<Point[]> {
  if (store.downsample) return store.downsample(series, start, end, maxPoints);
  return lttb(await store.points(series, start, end, rawLimit), maxPoints);
}
