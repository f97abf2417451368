import { BAND_KINDS, checkVersion, PlantCalendar, type TariffVersionBody } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { BandTotals, slotPlan, slotWidth, UNPRICED } from './pricing.ts';

const MIN = 60_000;
const day = [
  { band: 'valley', from: '00:00', to: '08:00' },
  { band: 'flat', from: '08:00', to: '10:00' },
  { band: 'tip', from: '10:00', to: '12:00' },
  { band: 'peak', from: '12:00', to: '17:00' },
  { band: 'flat', from: '17:00', to: '22:00' },
  { band: 'valley', from: '22:00', to: '24:00' },
] as const;
const version = (validFrom: string, scale = 1): TariffVersionBody & { id: number } => ({
  id: scale,
  validFrom,
  prices: { tip: 1.2 * scale, peak: 1 * scale, flat: 0.6 * scale, valley: 0.3 * scale },
  seasons: [
    {
      name: '全年',
      from: '01-01',
      to: '12-31',
      workday: [...day],
      weekend: [{ band: 'valley', from: '00:00', to: '24:00' }],
      holiday: [{ band: 'valley', from: '00:00', to: '24:00' }],
    },
  ],
  demand: { kind: 'none' },
  powerFactorTarget: null,
});
const rules = { holidays: ['2026-10-01'], workdays: ['2026-10-10'], weekendDays: [6, 7] };
const band = (b: number) => (b === UNPRICED ? null : BAND_KINDS[b]);

describe('slot plans: every slot priced by the band of its start on the plant calendar', () => {
  it('splits exactly at band edges: the 08:00 slot is flat, the one before valley', () => {
    const cal = new PlantCalendar('Asia/Shanghai');
    const start = cal.dayStart(PlantCalendar.dayOfDate('2026-10-15') as number);
    const plan = slotPlan(
      { rules, versions: [version('2026-01-01')] },
      cal,
      start,
      start + 86_400_000,
      15 * MIN,
    );
    expect(plan.band.length).toBe(96);
    expect(band(plan.band[31] as number)).toBe('valley'); // 07:45
    expect(band(plan.band[32] as number)).toBe('flat'); // 08:00
    expect(band(plan.band[40] as number)).toBe('tip'); // 10:00
    expect(plan.price[40]).toBe(1.2);
    expect(band(plan.band[95] as number)).toBe('valley');
  });

  it('types days: a listed holiday, a worked Saturday, a plain Sunday', () => {
    const cal = new PlantCalendar('Asia/Shanghai');
    const at = (date: string, slot: number) => {
      const start = cal.dayStart(PlantCalendar.dayOfDate(date) as number);
      const plan = slotPlan(
        { rules, versions: [version('2026-01-01')] },
        cal,
        start,
        start + 86_400_000,
        15 * MIN,
      );
      return band(plan.band[slot] as number);
    };
    expect(at('2026-10-01', 40)).toBe('valley'); // holiday (a Thursday)
    expect(at('2026-10-10', 40)).toBe('tip'); // a Saturday worked
    expect(at('2026-10-11', 40)).toBe('valley'); // Sunday
  });

  it('changes version at local midnight and leaves days before the first one unpriced', () => {
    const cal = new PlantCalendar('Asia/Shanghai');
    const start = cal.dayStart(PlantCalendar.dayOfDate('2026-10-15') as number);
    const versions = [version('2026-10-15'), version('2026-10-16', 2)];
    const plan = slotPlan({ rules, versions }, cal, start - 86_400_000, start + 2 * 86_400_000, 15 * MIN);
    expect(plan.band[95]).toBe(UNPRICED); // 10-14 23:45
    expect(plan.price[96 + 40]).toBe(1.2); // 10-15 10:00
    expect(plan.price[192 + 40]).toBe(2.4); // 10-16 10:00
    expect(plan.version[192]).toBe(1);
    const totals = new BandTotals();
    totals.add(plan, 95, 5);
    totals.add(plan, 136, 10);
    totals.add(plan, 232, 10);
    expect(totals.unpriced).toBe(5);
    expect(totals.energy[BAND_KINDS.indexOf('tip')]).toBe(20);
    expect(totals.cost[BAND_KINDS.indexOf('tip')]).toBeCloseTo(36, 10);
  });

  it('prices a DST day by wall-clock time: 92 quarter hours, 08:00 still opens the flat band', () => {
    const cal = new PlantCalendar('America/New_York');
    const d = PlantCalendar.dayOfDate('2026-03-09') as number; // a Monday; DST began the 8th
    const sunday = cal.dayStart(d - 1);
    const monday = cal.dayStart(d);
    const weekday = { ...rules, weekendDays: [] as number[] };
    const plan = slotPlan(
      { rules: weekday, versions: [version('2026-01-01')] },
      cal,
      sunday,
      monday,
      15 * MIN,
    );
    expect(plan.band.length).toBe(92);
    // 02:00 does not exist: slot 8 starts at 03:00, so 08:00 is slot 28, not 32.
    expect(band(plan.band[27] as number)).toBe('valley');
    expect(band(plan.band[28] as number)).toBe('flat');
  });

  it('picks hour slots when every edge is on the hour, else quarter hours or finer', () => {
    expect(slotWidth([version('2026-01-01')])).toBe(60 * MIN);
    const half = version('2026-01-01');
    half.seasons[0]!.workday = [
      { band: 'valley', from: '00:00', to: '07:30' },
      { band: 'peak', from: '07:30', to: '24:00' },
    ];
    expect(slotWidth([half])).toBe(15 * MIN);
    const odd = version('2026-01-01');
    odd.seasons[0]!.workday = [
      { band: 'valley', from: '00:00', to: '07:50' },
      { band: 'peak', from: '07:50', to: '24:00' },
    ];
    expect(slotWidth([odd])).toBe(5 * MIN);
  });
});

describe('version checks', () => {
  it('refuses gaps and overlaps of bands and seasons, and a used band without a price', () => {
    const v = version('2026-01-01');
    expect(checkVersion(v)).toBeNull();
    expect(checkVersion({ ...v, validFrom: '2026-02-30' })).toEqual({ code: 'badDate', value: '2026-02-30' });
    const gap = structuredClone(v);
    gap.seasons[0]!.workday[1] = { band: 'flat', from: '08:30', to: '10:00' };
    expect(checkVersion(gap)).toMatchObject({ code: 'bandGap', dayType: 'workday', at: '08:00' });
    const overlap = structuredClone(v);
    overlap.seasons[0]!.workday[1] = { band: 'flat', from: '07:00', to: '10:00' };
    expect(checkVersion(overlap)).toMatchObject({ code: 'bandOverlap', at: '07:00' });
    const seasons = structuredClone(v);
    seasons.seasons[0]!.to = '11-30';
    expect(checkVersion(seasons)).toEqual({ code: 'seasonGap', at: '12-01' });
    seasons.seasons.push({ ...structuredClone(v.seasons[0]!), name: '冬', from: '11-15', to: '12-31' });
    expect(checkVersion(seasons)).toEqual({ code: 'seasonOverlap', at: '11-15' });
    const unpriced = structuredClone(v);
    delete unpriced.prices.tip;
    expect(checkVersion(unpriced)).toEqual({ code: 'missingPrice', band: 'tip' });
  });
});
