/** Where the arrow keys stop on a chart: one stop per x value any series has, in axis order. */
export interface AxisStop {
  seriesIndex: number;
  dataIndex: number;
}

type Datum = unknown[] | { value?: unknown } | number | null | undefined;

function xOf(datum: Datum): unknown {
  if (Array.isArray(datum)) return datum[0];
  if (datum && typeof datum === 'object' && Array.isArray(datum.value)) return datum.value[0];
  return undefined;
}

/**
 * The stops of an axis-triggered chart, earliest first. Series may start and end at different
 * places (today's line stops at the current hour, a comparison line may begin late where history
 * is missing), so walking the data indices of one series would skip part of the axis.
 * `categories` orders a category axis; without it the x values are times.
 */
export function axisStops(
  series: readonly { data?: readonly Datum[] }[],
  categories?: readonly unknown[],
): AxisStop[] {
  const first = new Map<unknown, AxisStop>();
  series.forEach((s, seriesIndex) => {
    s.data?.forEach((datum, dataIndex) => {
      const x = xOf(datum);
      if (x === undefined || x === null || first.has(x)) return;
      first.set(x, { seriesIndex, dataIndex });
    });
  });
  const position = categories ? new Map(categories.map((c, i) => [c, i])) : undefined;
  const rank = (x: unknown) => (position ? (position.get(x) ?? Number.MAX_SAFE_INTEGER) : Number(x));
  return [...first.entries()].sort(([a], [b]) => rank(a) - rank(b)).map(([, stop]) => stop);
}
