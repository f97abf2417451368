import { HOUR, PlantCalendar } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { latestRun, nextRun, periodBefore, periodText, weekdayOf, workbookPeriod } from './time.ts';

const shanghai = new PlantCalendar('Asia/Shanghai');
const berlin = new PlantCalendar('Europe/Berlin');
const at = (text: string) => Date.parse(text);
const iso = (ms: number) => new Date(ms).toISOString();
const timing = (extra: Partial<Parameters<typeof nextRun>[0]> = {}) => ({
  frequency: 'daily' as const,
  weekday: 1,
  monthDay: 1,
  time: '07:00',
  ...extra,
});

describe('report schedule timing on the plant calendar', () => {
  it('counts ISO weekdays from local day numbers', () => {
    expect(weekdayOf(shanghai.dayOf(at('2026-11-23T04:00:00Z')))).toBe(1);
    expect(weekdayOf(shanghai.dayOf(at('2026-11-29T04:00:00Z')))).toBe(7);
    expect(weekdayOf(0)).toBe(4);
    expect(weekdayOf(-1)).toBe(3);
  });

  it('runs daily at 07:00 in Asia/Shanghai: today when still ahead, else tomorrow, covering yesterday', () => {
    const daily = timing();
    // 06:00 local on the 24th: 07:00 today is ahead.
    expect(iso(nextRun(daily, at('2026-11-23T22:00:00Z'), shanghai))).toBe('2026-11-23T23:00:00.000Z');
    // 08:00 local: tomorrow's.
    expect(iso(nextRun(daily, at('2026-11-24T00:00:00Z'), shanghai))).toBe('2026-11-24T23:00:00.000Z');
    // Exactly at the time: the next one (strictly after).
    expect(iso(nextRun(daily, at('2026-11-23T23:00:00Z'), shanghai))).toBe('2026-11-24T23:00:00.000Z');
    const covered = periodBefore('daily', at('2026-11-23T23:00:00Z'), shanghai);
    expect([iso(covered.start), iso(covered.end)]).toEqual([
      '2026-11-22T16:00:00.000Z',
      '2026-11-23T16:00:00.000Z',
    ]);
    expect(periodText('daily', covered, shanghai)).toBe('2026-11-23');
    expect(workbookPeriod('daily', covered)).toEqual({ period: 'day', time: covered.start });
  });

  it('runs weekly on Monday, covering the previous Monday to Sunday', () => {
    const weekly = timing({ frequency: 'weekly', weekday: 1, time: '08:30' });
    // Tuesday 24 November: next Monday is the 30th.
    const next = nextRun(weekly, at('2026-11-24T02:00:00Z'), shanghai);
    expect(iso(next)).toBe('2026-11-30T00:30:00.000Z');
    const covered = periodBefore('weekly', next, shanghai);
    expect([iso(covered.start), iso(covered.end)]).toEqual([
      '2026-11-22T16:00:00.000Z',
      '2026-11-29T16:00:00.000Z',
    ]);
    expect(periodText('weekly', covered, shanghai)).toBe('2026-11-23~2026-11-29');
    // A week is asked of the workbook as seven days of the month grid, across a month's end too.
    expect(workbookPeriod('weekly', covered)).toEqual({
      period: 'month',
      time: covered.start,
      range: covered,
    });
    // Run on a Wednesday, it still covers the last full week, not the days since Monday.
    const wednesday = periodBefore('weekly', at('2026-12-02T04:00:00Z'), shanghai);
    expect(periodText('weekly', wednesday, shanghai)).toBe('2026-11-23~2026-11-29');
  });

  it('runs monthly on the 31st on the last day of a 30-day month (and of February)', () => {
    const monthly = timing({ frequency: 'monthly', monthDay: 31, time: '06:00' });
    const november = nextRun(monthly, at('2026-11-02T00:00:00Z'), shanghai);
    expect(shanghai.format(november, 'YYYY-MM-DD HH:mm')).toBe('2026-11-30 06:00');
    const december = nextRun(monthly, november, shanghai);
    expect(shanghai.format(december, 'YYYY-MM-DD HH:mm')).toBe('2026-12-31 06:00');
    const february = nextRun(monthly, at('2027-02-01T00:00:00Z'), shanghai);
    expect(shanghai.format(february, 'YYYY-MM-DD HH:mm')).toBe('2027-02-28 06:00');
    // The run on 30 November covers October: the previous full month.
    const covered = periodBefore('monthly', november, shanghai);
    expect([iso(covered.start), iso(covered.end)]).toEqual([
      '2026-09-30T16:00:00.000Z',
      '2026-10-31T16:00:00.000Z',
    ]);
    expect(periodText('monthly', covered, shanghai)).toBe('2026-10');
  });

  it('keeps the wall time across DST in Europe/Berlin; a skipped time runs when the clocks moved on', () => {
    const daily = timing({ time: '07:00' });
    // 07:00 CET on Saturday 28 March, 07:00 CEST on Sunday 29 March: 23 hours apart.
    const saturday = nextRun(daily, at('2026-03-28T00:00:00Z'), berlin);
    const sunday = nextRun(daily, saturday, berlin);
    expect(iso(saturday)).toBe('2026-03-28T06:00:00.000Z');
    expect(iso(sunday)).toBe('2026-03-29T05:00:00.000Z');
    expect(sunday - saturday).toBe(23 * HOUR);
    // 02:30 does not exist on 29 March: it runs at 03:30 CEST.
    const gap = nextRun(timing({ time: '02:30' }), at('2026-03-28T12:00:00Z'), berlin);
    expect(iso(gap)).toBe('2026-03-29T01:30:00.000Z');
    expect(berlin.format(gap, 'HH:mm')).toBe('03:30');
    // 02:30 happens twice on 25 October: it runs once, the first time.
    const overlap = nextRun(timing({ time: '02:30' }), at('2026-10-24T12:00:00Z'), berlin);
    expect(iso(overlap)).toBe('2026-10-25T00:30:00.000Z');
    expect(iso(nextRun(timing({ time: '02:30' }), overlap, berlin))).toBe('2026-10-26T01:30:00.000Z');
    // The day covered after each change is 23 and 25 hours long.
    const short = periodBefore('daily', at('2026-03-30T05:00:00Z'), berlin);
    expect(short.end - short.start).toBe(23 * HOUR);
    const long = periodBefore('daily', at('2026-10-26T06:00:00Z'), berlin);
    expect(long.end - long.start).toBe(25 * HOUR);
  });

  it('keeps the wall time across DST in a zone 12 hours ahead of UTC (Pacific/Auckland)', () => {
    const auckland = new PlantCalendar('Pacific/Auckland');
    // 02:30 does not exist on 29 September 2024 (02:00 NZST → 03:00 NZDT): it runs at 03:30 NZDT.
    const gap = nextRun(timing({ time: '02:30' }), at('2024-09-28T00:00:00Z'), auckland);
    expect(iso(gap)).toBe('2024-09-28T14:30:00.000Z');
    expect(auckland.format(gap, 'HH:mm')).toBe('03:30');
    // 02:30 happens twice on 7 April 2024: it runs once, the first time (NZDT).
    const overlap = nextRun(timing({ time: '02:30' }), at('2024-04-06T00:00:00Z'), auckland);
    expect(iso(overlap)).toBe('2024-04-06T13:30:00.000Z');
  });

  it('catches up once, with the latest missed run', () => {
    const daily = timing();
    const due = at('2026-11-20T23:00:00Z');
    expect(iso(latestRun(daily, due, at('2026-11-24T02:00:00Z'), shanghai))).toBe('2026-11-23T23:00:00.000Z');
    expect(latestRun(daily, due, due, shanghai)).toBe(due);
  });
});
