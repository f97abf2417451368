import type { BandSpan, TariffCreate, TariffVersionBody } from '@kilowatch/contract';

/**
 * The worked example of docs/tariffs.md as data, for the API test that reproduces it and the bench.
 * One season, the same bands every day: valley 00–08 and 22–24, flat 08–10 and 17–22, tip 10–12,
 * peak 12–17.
 */
export const EXAMPLE_DAY: BandSpan[] = [
  { band: 'valley', from: '00:00', to: '08:00' },
  { band: 'flat', from: '08:00', to: '10:00' },
  { band: 'tip', from: '10:00', to: '12:00' },
  { band: 'peak', from: '12:00', to: '17:00' },
  { band: 'flat', from: '17:00', to: '22:00' },
  { band: 'valley', from: '22:00', to: '24:00' },
];

/**
 * The example's prices on bands with edges at :15 and :45 (hours 7, 10, 11, 14 and 21 each hold
 * one): a quarter-hour tariff, for the test and bench of its reads.
 */
const QUARTER_DAY: BandSpan[] = [
  { band: 'valley', from: '00:00', to: '07:15' },
  { band: 'flat', from: '07:15', to: '10:45' },
  { band: 'tip', from: '10:45', to: '11:45' },
  { band: 'peak', from: '11:45', to: '14:15' },
  { band: 'flat', from: '14:15', to: '21:45' },
  { band: 'valley', from: '21:45', to: '24:00' },
];

export const quarterSeasons = (): TariffVersionBody['seasons'] => [
  {
    name: '全年',
    from: '01-01',
    to: '12-31',
    workday: QUARTER_DAY,
    weekend: QUARTER_DAY,
    holiday: QUARTER_DAY,
  },
];

export const exampleVersion = (
  validFrom: string,
  overrides: Partial<TariffVersionBody> = {},
): TariffVersionBody => ({
  validFrom,
  note: '',
  prices: { tip: 1.2, peak: 1, flat: 0.6, valley: 0.3 },
  seasons: [
    {
      name: '全年',
      from: '01-01',
      to: '12-31',
      workday: EXAMPLE_DAY,
      weekend: EXAMPLE_DAY,
      holiday: EXAMPLE_DAY,
    },
  ],
  demand: { kind: 'demand', pricePerKw: 40 },
  powerFactorTarget: 0.9,
  ...overrides,
});

export const exampleTariff = (validFrom = '2026-01-01'): TariffCreate => ({
  name: '大工业两部制（示例）',
  description: '',
  holidays: [],
  workdays: [],
  weekendDays: [6, 7],
  version: exampleVersion(validFrom),
});

/**
 * Counter readings of one series whose bucket `k` of `width` from `start` holds `energy(k)`, as
 * an interval meter stamps them: a zero reading at `start`, then each bucket's reading at its end
 * (a reading on an edge closes the bucket that ends there, docs/telemetry-store.md).
 */
export function counterPoints(
  thingId: number,
  metric: string,
  start: number,
  width: number,
  count: number,
  energy: (k: number) => number,
): { thingId: number; metric: string; ts: number; value: number }[] {
  const points = [{ thingId, metric, ts: start, value: 0 }];
  let total = 0;
  for (let k = 0; k < count; k++) {
    total += energy(k);
    points.push({ thingId, metric, ts: start + (k + 1) * width, value: total });
  }
  return points;
}

/**
 * The readings of docs/tariffs.md "Worked example: 1-minute readings of a demand peak": a register
 * read every minute (the reading stamped t holds all energy up to t), 120 kW (2 kWh a minute) from
 * 09:00 to 11:00 on 14 October 2026 with 300 kW (5 kWh a minute) over 10:00–10:15, and from 15:00 to
 * 16:00 on the 20th with 330 kW (5.5 kWh a minute) over 15:05–15:20; nothing is drawn in between.
 * Asia/Shanghai.
 */
export function demandPeakReadings(
  thingId: number,
  metric: string,
): { thingId: number; metric: string; ts: number; value: number }[] {
  const MIN = 60_000;
  const points: { thingId: number; metric: string; ts: number; value: number }[] = [];
  let value = 1000;
  const hours = (from: string, minutes: number, peakFrom: number, peakTo: number, peakKwh: number) => {
    const start = Date.parse(`${from}+08:00`);
    for (let m = 0; m <= minutes; m++) {
      // The minute ending at this reading: [m − 1, m).
      if (m > 0) value += m - 1 >= peakFrom && m - 1 < peakTo ? peakKwh : 2;
      points.push({ thingId, metric, ts: start + m * MIN, value });
    }
  };
  hours('2026-10-14T09:00:00', 120, 60, 75, 5);
  hours('2026-10-20T15:00:00', 60, 5, 20, 5.5);
  return points;
}
