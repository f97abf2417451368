import { describe, expect, it } from 'vitest';
import { axisStops } from './axis-walk.ts';

const H = 3600_000;
const hours = (from: number, to: number, value = 1) =>
  Array.from({ length: to - from }, (_, i) => [(from + i) * H, value]);

describe('axisStops', () => {
  it('starts at the earliest x of any series, not at the longest series', () => {
    // Today until 03:00 (solid to 02:00, the open hour dashed), yesterday only from 03:00 on:
    // the first stop is today's midnight.
    const stops = axisStops([{ data: hours(0, 3) }, { data: hours(2, 4) }, { data: hours(3, 24, 2) }]);
    expect(stops[0]).toEqual({ seriesIndex: 0, dataIndex: 0 });
    expect(stops).toHaveLength(24);
    expect(stops[3]).toEqual({ seriesIndex: 1, dataIndex: 1 });
    expect(stops[23]).toEqual({ seriesIndex: 2, dataIndex: 20 });
  });

  it('orders a category axis by its categories and reads object data', () => {
    const stops = axisStops(
      [{ data: [['02', 1], { value: ['01', 2] }] }, { data: [['00', 3]] }],
      ['00', '01', '02'],
    );
    expect(stops).toEqual([
      { seriesIndex: 1, dataIndex: 0 },
      { seriesIndex: 0, dataIndex: 1 },
      { seriesIndex: 0, dataIndex: 0 },
    ]);
  });

  it('has no stops for empty series', () => {
    expect(axisStops([{ data: [] }, {}])).toEqual([]);
  });
});
