import { describe, expect, it } from 'vitest';
import { overheat, replacedAt } from './events.ts';
import { PlantGenerator } from './generator.ts';
import { METRICS, type SimThingSpec } from './kinds.ts';
import type { ThingModel } from './model.ts';
import { planThings } from './plant.ts';
import { MOTOR_TEMP_LIMIT, REPLACE_PERIOD_HOURS } from './shapes.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TZ = 'Asia/Shanghai';
/** Monday 2026-11-16 00:00 in Shanghai. */
const MONDAY = Date.parse('2026-11-16T00:00:00+08:00');

const meter: SimThingSpec = { identifier: 'AL-1-01', kind: 'meter', rated: 50, profile: 'production' };
const compressor: SimThingSpec = { identifier: 'AC-01', kind: 'compressor', rated: 75, profile: 'utility' };

/** Values of one metric every `step` ms over [start, end), silent samples left out. */
function series(g: PlantGenerator, m: ThingModel, metric: string, start: number, end: number, step: number) {
  const index = m.metrics.indexOf(metric);
  const out = new Float64Array(m.metrics.length);
  const points: { ts: number; value: number }[] = [];
  for (let ts = start; ts < end; ts += step) {
    if (g.sample(m, ts, out)) points.push({ ts, value: out[index] as number });
  }
  return points;
}

const mean = (xs: { value: number }[]) => xs.reduce((s, p) => s + p.value, 0) / xs.length;

describe('demo plant generator', () => {
  it('is a pure function of thing, time and seed', () => {
    const a = new PlantGenerator({ seed: 7, timeZone: TZ });
    const b = new PlantGenerator({ seed: 7, timeZone: TZ });
    const c = new PlantGenerator({ seed: 8, timeZone: TZ });
    const ts = MONDAY + 10.5 * HOUR;
    const ma = a.model(meter);
    // A model that has walked forward first (warm caches) agrees with a fresh one.
    for (let t = ts - DAY; t < ts; t += 5 * 60_000) a.sample(ma, t, new Float64Array(10));
    expect(a.values(ma, ts)).toEqual(b.values(b.model(meter), ts));
    expect(a.values(a.model(compressor), ts)).toEqual(b.values(b.model(compressor), ts));
    expect(c.values(c.model(meter), ts)).not.toEqual(b.values(b.model(meter), ts));
  });

  it('publishes every metric of its kind', () => {
    const g = new PlantGenerator({ timeZone: TZ });
    for (const spec of planThings(50)) {
      const values = g.values(g.model(spec), MONDAY + 9 * HOUR + 60_000) ?? {};
      if (Object.keys(values).length === 0) continue; // silent at that instant
      expect(Object.keys(values)).toEqual([...METRICS[spec.kind]]);
      for (const v of Object.values(values)) expect(Number.isFinite(v)).toBe(true);
    }
  });

  it('follows two shifts with a night base load and a lunch dip', () => {
    const g = new PlantGenerator({ timeZone: TZ });
    const m = g.model(meter);
    const at = (fromHour: number, toHour: number) =>
      mean(series(g, m, 'P', MONDAY + 2 * DAY + fromHour * HOUR, MONDAY + 2 * DAY + toHour * HOUR, 60_000));
    const night = at(2, 4);
    const morning = at(9, 11);
    const evening = at(17, 19);
    expect(morning).toBeGreaterThan(3 * night);
    expect(evening).toBeGreaterThan(3 * night);
    expect(at(12, 12.5)).toBeLessThan(morning * 0.9);
    expect(morning).toBeLessThan(meter.rated * 1.1);
  });

  it('runs weekends at about 30 % of a weekday', () => {
    const g = new PlantGenerator({ timeZone: TZ });
    const m = g.model(meter);
    const weekday = mean(series(g, m, 'P', MONDAY + 2 * DAY, MONDAY + 3 * DAY, 60_000));
    const saturday = mean(series(g, m, 'P', MONDAY + 5 * DAY, MONDAY + 6 * DAY, 60_000));
    expect(saturday / weekday).toBeGreaterThan(0.2);
    expect(saturday / weekday).toBeLessThan(0.45);
  });

  it('keeps voltages, power factor and frequency in their ranges', () => {
    const g = new PlantGenerator({ timeZone: TZ });
    const m = g.model(meter);
    for (const [metric, lo, hi] of [
      ['Ua', 212, 228],
      ['Ub', 212, 228],
      ['Uc', 212, 228],
      ['PF', 0.85, 0.98],
      ['F', 49.95, 50.05],
    ] as const) {
      const values = series(g, m, metric, MONDAY, MONDAY + 7 * DAY, 97_000).map((p) => p.value);
      expect(Math.min(...values), metric).toBeGreaterThanOrEqual(lo);
      expect(Math.max(...values), metric).toBeLessThanOrEqual(hi);
    }
    const amps = series(g, m, 'Ia', MONDAY + 10 * HOUR, MONDAY + 10 * HOUR + 1, 1)[0]?.value ?? 0;
    const p = series(g, m, 'P', MONDAY + 10 * HOUR, MONDAY + 10 * HOUR + 1, 1)[0]?.value ?? 0;
    expect(amps).toBeCloseTo((p * 1000) / (3 * 220 * 0.95), -1.5);
  });

  it('counts reactive energy at a power factor of 0.85–0.95 that rises with the load', () => {
    const g = new PlantGenerator({ timeZone: TZ });
    for (const spec of [meter, { ...meter, identifier: 'OF-1', profile: 'office' as const }, compressor]) {
      const m = g.model(spec);
      const hourly = (metric: string) => series(g, m, metric, MONDAY, MONDAY + 7 * DAY + 1, HOUR);
      const ep = hourly('EP');
      const eq = hourly('EQ');
      const factors: { load: number; pf: number }[] = [];
      for (let i = 1; i < ep.length; i++) {
        const p = (ep[i]?.value ?? 0) - (ep[i - 1]?.value ?? 0);
        const q = (eq[i]?.value ?? 0) - (eq[i - 1]?.value ?? 0);
        expect(q, `${spec.identifier} ${i}`).toBeGreaterThanOrEqual(0);
        // An idle compressor hour counts neither; a counter a few hundredths apart is rounding.
        if (p < 1) continue;
        factors.push({ load: p / spec.rated, pf: p / Math.hypot(p, q) });
      }
      expect(factors.length, spec.identifier).toBeGreaterThan(24);
      for (const { pf } of factors) {
        expect(pf, spec.identifier).toBeGreaterThanOrEqual(0.85 - 0.005);
        expect(pf, spec.identifier).toBeLessThanOrEqual(0.95 + 0.005);
      }
      if (spec.kind !== 'meter') continue;
      // Nights and weekends run light, with the poorer factor.
      const light = factors.filter((f) => f.load < 0.3);
      const heavy = factors.filter((f) => f.load > 0.8);
      expect(light.length && heavy.length, spec.identifier).toBeGreaterThan(0);
      expect(Math.max(...light.map((f) => f.pf))).toBeLessThan(Math.min(...heavy.map((f) => f.pf)));
    }
  });

  it('counts energy as the integral of power', () => {
    const g = new PlantGenerator({ timeZone: TZ });
    const m = g.model(meter);
    const start = MONDAY + 2 * DAY;
    const p = series(g, m, 'P', start, start + DAY, 10_000);
    const ep = series(g, m, 'EP', start, start + DAY + 10_000, 10_000);
    const consumed = (ep.at(-1)?.value ?? 0) - (ep[0]?.value ?? 0);
    expect(consumed).toBeGreaterThan(0);
    expect(Math.abs(consumed / (mean(p) * 24) - 1)).toBeLessThan(0.02);
  });

  it('keeps counters monotonic except when a meter is replaced', () => {
    const g = new PlantGenerator({ timeZone: TZ });
    // Find a meter whose counter is reset (replaced) within the first 60 days of 2026.
    const from = Date.parse('2026-01-01T00:00:00Z');
    const to = from + 60 * DAY;
    let replaced: { m: ThingModel; at: number } | undefined;
    for (let i = 1; i < 500 && !replaced; i++) {
      const m = g.model({ ...meter, identifier: `AL-9-${i}` });
      const at = replacedAt(m, Math.floor(to / HOUR));
      if (at !== undefined && at * HOUR > from) replaced = { m, at: at * HOUR };
    }
    expect(replaced).toBeDefined();
    const { m, at } = replaced!;
    const ep = series(g, m, 'EP', from, to, 5 * 60_000);
    const drops = ep.filter((p, i) => i > 0 && p.value < (ep[i - 1]?.value ?? 0));
    expect(drops).toHaveLength(1);
    expect(drops[0]!.ts - at).toBeLessThan(5 * 60_000 + 1);
    expect(drops[0]!.ts).toBeGreaterThanOrEqual(at);
    expect(drops[0]!.value).toBeLessThan(m.spec.rated * 1.2);
    // Replacements are rare: a period of REPLACE_PERIOD_HOURS hours holds at most one.
    expect(REPLACE_PERIOD_HOURS).toBeGreaterThan(24 * 30);

    for (const spec of planThings(120)) {
      const other = g.model(spec);
      for (const metric of other.metrics) {
        if (!['EP', 'EQ', 'EPin', 'total', 'gasTotal', 'runHours', 'startups', 'stopHours'].includes(metric))
          continue;
        const values = series(g, other, metric, MONDAY, MONDAY + 7 * DAY, 20 * 60_000);
        const resets = values.filter((p, i) => i > 0 && p.value < (values[i - 1]?.value ?? 0));
        expect(resets.length, `${spec.identifier} ${metric}`).toBeLessThanOrEqual(1);
        if (resets.length === 1) expect(replacedAt(other, Math.floor(resets[0]!.ts / HOUR))).toBeDefined();
      }
    }
  });

  it('cycles compressors on and off, counting starts, running and stopped hours', () => {
    const g = new PlantGenerator({ timeZone: TZ });
    const m = g.model(compressor);
    const start = MONDAY + DAY;
    const out = new Float64Array(m.metrics.length);
    let prev: number[] | undefined;
    let transitions = 0;
    let onSamples = 0;
    let pressures = [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
    const step = 10_000;
    let first: number[] | undefined;
    let last: number[] | undefined;
    const problems: string[] = [];
    for (let ts = start; ts < start + DAY; ts += step) {
      if (!g.sample(m, ts, out)) continue;
      const v = [...out];
      first ??= v;
      last = v;
      if (v[0] !== 0 && v[0] !== 1) problems.push(`status ${v[0]} at ${ts}`);
      if (v[0] === 1) {
        onSamples++;
        pressures = [Math.min(pressures[0]!, v[6]!), Math.max(pressures[1]!, v[6]!)];
        if (!(v[4]! > 0)) problems.push(`no power while running at ${ts}`);
      } else if (v[4] !== 0) problems.push(`power while stopped at ${ts}`);
      if (prev) {
        for (const i of [1, 2, 3, 5]) if (v[i]! < prev[i]!) problems.push(`${m.metrics[i]} fell at ${ts}`);
        if (prev[0] === 0 && v[0] === 1) transitions++;
      }
      prev = v;
    }
    expect(problems).toEqual([]);
    expect(transitions).toBeGreaterThan(5);
    const starts = last![2]! - first![2]!;
    // Every off → on is a start (silent samples may hide one).
    expect(Math.abs(starts - transitions)).toBeLessThanOrEqual(1);
    const run = last![1]! - first![1]!;
    const stop = last![3]! - first![3]!;
    expect(run + stop).toBeCloseTo(24 - step / HOUR, 1);
    expect(run).toBeCloseTo((onSamples * step) / HOUR, 0);
    // Hysteresis: loads at the low limit, unloads at the high one.
    expect(pressures[0]).toBeGreaterThan(0.6);
    expect(pressures[1]).toBeLessThan(0.74);
  });

  it('raises a few fire alarms a week across the plant and leaves rare gaps', () => {
    const g = new PlantGenerator({ timeZone: TZ });
    const sensors = planThings(120).filter((t) => t.kind === 'fire');
    const weeks = 8;
    let alarms = 0;
    let faults = 0;
    let silent = 0;
    let samples = 0;
    for (const spec of sensors) {
      const m = g.model(spec);
      let state = 0;
      const out = new Float64Array(3);
      for (let ts = MONDAY - weeks * 7 * DAY; ts < MONDAY; ts += 60_000) {
        samples++;
        if (!g.sample(m, ts, out)) {
          silent++;
          continue;
        }
        if (out[2] === 1 && state !== 1) {
          alarms++;
          expect(out[0]).toBeGreaterThan(0.5);
        }
        if (out[2] === 2 && state !== 2) faults++;
        state = out[2] as number;
      }
    }
    expect(alarms / weeks).toBeGreaterThan(0.5);
    expect(alarms / weeks).toBeLessThan(10);
    expect(faults).toBeGreaterThan(0);
    expect(silent / samples).toBeGreaterThan(0);
    expect(silent / samples).toBeLessThan(0.005);
  });

  it('overheats a compressor motor a few times a day across the plant, for minutes, then it cools back', () => {
    const g = new PlantGenerator({ timeZone: TZ });
    const days = 14;
    const over: { thing: string; at: number; minutes: number }[] = [];
    let healthy = 0;
    for (const spec of planThings(120).filter((t) => t.kind === 'compressor')) {
      const m = g.model(spec);
      let since: number | undefined;
      for (const { ts, value } of series(g, m, 'motorTemp', MONDAY - days * DAY, MONDAY, 60_000)) {
        if (!overheat(m, ts)) healthy = Math.max(healthy, value);
        if (value > MOTOR_TEMP_LIMIT) since ??= ts;
        // Below the limit less the demo rule's deadband: its alarm returns.
        else if (since !== undefined && value < MOTOR_TEMP_LIMIT - 5) {
          over.push({ thing: spec.identifier, at: since, minutes: (ts - since) / 60_000 });
          since = undefined;
        }
      }
    }
    expect(healthy).toBeGreaterThan(60);
    expect(healthy).toBeLessThan(MOTOR_TEMP_LIMIT - 10);
    expect(over.length / days).toBeGreaterThan(1);
    expect(over.length / days).toBeLessThan(6);
    // Longer than the rule's one-minute on-delay, shorter than an hour.
    expect(Math.min(...over.map((o) => o.minutes))).toBeGreaterThanOrEqual(2);
    expect(Math.max(...over.map((o) => o.minutes))).toBeLessThan(30);
    // From the default seed the plant never goes three days without one, weekends included.
    const times = over.map((o) => o.at).sort((a, b) => a - b);
    expect(times[0]! - (MONDAY - days * DAY)).toBeLessThan(DAY);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeLessThan(3 * DAY);
  });
});
