import { describe, expect, it } from 'vitest';
import { type Fit, fitOls } from '../modules/energy/index.ts';
import { HEATING_BASE, PlantGenerator, planThings } from '../simulator/index.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('the demo plant for EnPI baselines', () => {
  const g = new PlantGenerator({ timeZone: 'Asia/Shanghai' });
  const things = planThings(120).map((t) => ({
    plan: t,
    model: g.model({ identifier: t.identifier, kind: t.kind, rated: t.rated, profile: t.profile }),
  }));

  it('counts production on each line and publishes an outdoor temperature with the seasons', () => {
    const lines = things.filter((t) => t.plan.kind === 'line');
    expect(lines.map((t) => t.plan.region.at(-1))).toEqual(['装配线A', '装配线B', '机加工线', '喷涂线']);
    const transformer = things.find((t) => t.plan.kind === 'transformer')!;
    const at = (date: string) => Date.parse(`${date}T15:00:00+08:00`);
    const january = g.values(transformer.model, at('2025-01-15'))?.ambientTemp as number;
    const july = g.values(transformer.model, at('2025-07-15'))?.ambientTemp as number;
    expect(january).toBeLessThan(14);
    expect(july).toBeGreaterThan(24);
    // A Tuesday's shifts make pieces; the night between makes none.
    const line = lines[0]!.model;
    const pieces = (ts: number) => g.values(line, ts)?.pieces as number;
    const morning = Date.parse('2025-03-04T08:00:00+08:00');
    expect(pieces(morning + 8 * HOUR) - pieces(morning)).toBeGreaterThan(8 * 0.5 * lines[0]!.plan.rated);
    expect(pieces(morning - 2 * HOUR) - pieces(morning - 6 * HOUR)).toBe(0);
  });

  it("explains the plant's daily energy by its production and heating degree days", () => {
    const start = Date.parse('2025-01-01T00:00:00+08:00');
    const rows: number[][] = [];
    const energy: number[] = [];
    for (let d = 0; d < 120; d++) {
      const from = start + d * DAY;
      let e = 0;
      let output = 0;
      for (const { plan, model } of things) {
        // The mean shape's integral (what the counters count, without a replaced meter's reset).
        if (plan.kind === 'meter') {
          for (let h = from / HOUR; h < (from + DAY) / HOUR; h++) {
            e += ((g.knot(model, h) + g.knot(model, h + 1)) / 2) * plan.rated;
          }
        }
        if (plan.kind === 'line') {
          output +=
            (g.values(model, from + DAY)?.pieces as number) - (g.values(model, from)?.pieces as number);
        }
      }
      const t = g.dayTemperature(g.calendar.dayOf(from + DAY / 2));
      rows.push([output, Math.max(0, HEATING_BASE - t)]);
      energy.push(e);
    }
    const fit = fitOls(rows, energy, 2) as Fit;
    expect(fit.r2).toBeGreaterThan(0.9);
    expect(fit.coefficients[0]).toBeGreaterThan(0);
    expect(fit.coefficients[1]).toBeGreaterThan(0);
  });
});
