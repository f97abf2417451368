import { describe, expect, it } from 'vitest';
import { DEMAND_STEP, EdgeRegister, maxDemand } from './demand.ts';

const MIN = 60_000;
const T0 = Date.parse('2026-10-14T00:00:00+08:00');
/** A register over the first two hours of the day, edges every minute. */
const twoHours = () => new EdgeRegister(T0, DEMAND_STEP, 2 * 60 + 1);

/** Readings every `every` ms of a load in kW given by the minute of the day. */
function feed(
  r: EdgeRegister,
  every: number,
  kw: (ms: number) => number,
  from = T0 - MIN,
  to = T0 + 2 * 60 * MIN,
) {
  let e = 500;
  for (let ts = from; ts <= to; ts += every) {
    r.add(ts, e);
    e += (kw(ts) * every) / 3_600_000;
  }
  r.endMeter();
}

/** 120 kW, 300 kW over 00:30–00:45. */
const peak = (ts: number) => (ts >= T0 + 30 * MIN && ts < T0 + 45 * MIN ? 300 : 120);

describe('maximum demand from a register', () => {
  it('1-second readings: the clock quarter hour 00:30–00:45 at 300 kW', () => {
    const r = twoHours();
    feed(r, 1000, peak);
    const max = maxDemand(r, 'fixed');
    expect(max?.start).toBe(T0 + 30 * MIN);
    expect(max?.end).toBe(T0 + 45 * MIN);
    expect(max?.kw).toBeCloseTo(300, 6);
  });

  it('readings off the edges are interpolated: every 7 minutes from 23:53', () => {
    const r = twoHours();
    // A constant 120 kW: any window, whatever the readings around its edges, is 30 kWh.
    feed(r, 7 * MIN, () => 120, T0 - 7 * MIN, T0 + 2 * 60 * MIN + 7 * MIN);
    expect(r.values[1]! - r.values[0]!).toBeCloseTo(2, 9);
    expect(maxDemand(r, 'fixed')?.kw).toBeCloseTo(120, 9);
    // Two readings, 00:00 (500) and 00:20 (600): 00:15 is three quarters of the way, 75 kWh on;
    // after the last reading the register holds.
    const two = twoHours();
    two.add(T0, 500);
    two.add(T0 + 20 * MIN, 600);
    two.endMeter();
    expect(two.values[15]).toBe(75);
    expect(two.values[60]).toBe(100);
    expect(maxDemand(two, 'fixed')).toEqual({ start: T0, end: T0 + 15 * MIN, energy: 75, kw: 300 });
  });

  it('15-minute interval readings on the edges, fixed and sliding agree', () => {
    const r = twoHours();
    feed(r, 15 * MIN, peak, T0, T0 + 2 * 60 * MIN);
    expect(maxDemand(r, 'fixed')).toEqual({ start: T0 + 30 * MIN, end: T0 + 45 * MIN, energy: 75, kw: 300 });
    expect(maxDemand(r, 'sliding')).toEqual({
      start: T0 + 30 * MIN,
      end: T0 + 45 * MIN,
      energy: 75,
      kw: 300,
    });
  });

  it('sliding finds a peak astride two clock quarter hours', () => {
    const r = twoHours();
    const late = (ts: number) => (ts >= T0 + 35 * MIN && ts < T0 + 50 * MIN ? 300 : 120);
    feed(r, MIN, late);
    // Fixed: 00:30–00:45 holds 10 minutes of it: (10 × 5 + 5 × 2) kWh = 60 kWh, 240 kW.
    expect(maxDemand(r, 'fixed')).toMatchObject({ start: T0 + 30 * MIN, energy: 60, kw: 240 });
    expect(maxDemand(r, 'sliding')).toMatchObject({ start: T0 + 35 * MIN, end: T0 + 50 * MIN, energy: 75 });
  });

  it('sums meters edge by edge (coincident demand), holds a meter flat outside its readings, and counts across a reset', () => {
    const r = twoHours();
    feed(r, MIN, peak);
    // A second meter read only 00:40–01:00, 60 kW, reset to 0 at 00:50.
    r.add(T0 + 40 * MIN, 9000);
    r.add(T0 + 45 * MIN, 9005);
    r.add(T0 + 50 * MIN, 5);
    r.add(T0 + 60 * MIN, 15);
    r.endMeter();
    // 00:30–00:45: 75 kWh of the first, 5 of the second (00:40–00:45).
    expect(maxDemand(r, 'fixed')).toMatchObject({ start: T0 + 30 * MIN, energy: 80, kw: 320 });
    // 00:45–01:00: 30 kWh, plus the second's 5 counted up from its reset and 10 after.
    expect(r.values[60]! - r.values[45]!).toBeCloseTo(45, 9);
    expect(r.values[120]! - r.values[60]!).toBeCloseTo(120, 9);
  });

  it('rebase: minute rollups before raw readings join without a jump', () => {
    const r = twoHours();
    r.add(T0, 0);
    r.add(T0 + 30 * MIN, 60);
    r.rebase(T0 + 30 * MIN + 20_000, 12_345);
    r.add(T0 + 60 * MIN, 12_345 + 59);
    r.endMeter();
    expect(r.values[30]).toBe(60);
    expect(r.values[60]).toBe(119);
    expect(maxDemand(r, 'fixed')?.kw).toBeCloseTo(120, 9);
  });

  it('no window fits: null', () => {
    expect(maxDemand(new EdgeRegister(T0, DEMAND_STEP, 10), 'fixed')).toBeNull();
  });
});
