import type { DiagramGraph, DiagramNode } from '@kilowatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, dialects, login, type TestApp } from '../../test/helpers.ts';
import { PlantGenerator, type SimThing } from '../simulator/index.ts';
import { loadPlant, seedPlant } from './seed.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Monday 2026-11-16 00:00 in Shanghai (the generator's zone here). */
const MONDAY = Date.parse('2026-11-16T00:00:00+08:00');

/**
 * A busbar's members as the live view finds them (docs/electric-diagram.md, `busbarMembers`):
 * from the busbar along the wires, the first symbol with a power metric on each path, above the
 * busbar flowing in, below it out.
 */
function members(graph: DiagramGraph, busId: string): { node: DiagramNode; flow: 'in' | 'out' }[] {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const next = new Map<string, string[]>();
  for (const { source, target } of graph.edges) {
    next.set(source, [...(next.get(source) ?? []), target]);
    next.set(target, [...(next.get(target) ?? []), source]);
  }
  const bus = byId.get(busId)!;
  const seen = new Set([busId]);
  const queue = [busId];
  const found: { node: DiagramNode; flow: 'in' | 'out' }[] = [];
  while (queue.length > 0) {
    for (const id of next.get(queue.shift()!) ?? []) {
      if (seen.has(id)) continue;
      seen.add(id);
      const node = byId.get(id);
      if (!node || node.symbol === 'busbar') continue;
      if (node.binding?.power) found.push({ node, flow: node.y < bus.y ? 'in' : 'out' });
      else queue.push(id);
    }
  }
  return found;
}

describe.each(dialects())('the demo substation diagram over the simulated plant (%s)', (dialect) => {
  let t: TestApp;
  let things: SimThing[];
  let graph: DiagramGraph;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
    const { things: thingsService, regions, metricConfigs, alarms, diagrams, dashboard } = t.app.services;
    await seedPlant(
      {
        things: thingsService,
        regions,
        saveConfigs: (p) => metricConfigs.saveConfigs(p),
        alarms,
        diagrams,
        dashboard,
      },
      { things: 120 },
    );
    things = await loadPlant(thingsService);
    const { token } = await login(t.app);
    const get = async (url: string) => (await t.app.inject({ url, headers: bearer(token) })).json().data;
    const [saved] = (await get('/api/diagrams')) as { id: number }[];
    graph = (await get(`/api/diagrams/${saved!.id}`)).graph;
  });
  afterAll(() => t?.close());

  it("reads each busbar's branch loss as its transformer's own loss: 0–5 %, not flagged", async () => {
    const generator = new PlantGenerator({ timeZone: 'Asia/Shanghai' });
    const byId = new Map(things.map((x) => [x.id, { thing: x, model: generator.model(x) }]));
    const busbars = graph.nodes.filter((n) => n.symbol === 'busbar');
    expect(busbars).toHaveLength(things.filter((x) => x.kind === 'transformer').length);
    const losses: { at: number; loss: number }[] = [];
    // A weekday morning in full production, the lunch dip, a night, a Saturday afternoon and a
    // Sunday night, when the no-load loss weighs most.
    const weekday = [MONDAY + 10.1 * HOUR, MONDAY + 12.5 * HOUR, MONDAY + DAY + 3 * HOUR];
    for (const at of [...weekday, MONDAY + 5.6 * DAY, MONDAY + 6 * DAY + 3 * HOUR]) {
      for (const bus of busbars) {
        const sides = { in: 0, out: 0 };
        for (const { node, flow } of members(graph, bus.id)) {
          const { model } = byId.get(node.binding!.thingId)!;
          // The live view shows a silent meter's last value: the tick before.
          let value: number | undefined;
          for (let ts = at; value === undefined; ts -= 10_000)
            value = generator.values(model, ts)?.[node.binding!.power!];
          sides[flow] += value;
        }
        // Nor do its feeders' meters flag a three-phase imbalance (NEMA, as the live view reads it).
        for (const { node } of members(graph, bus.id)) {
          const values = generator.values(byId.get(node.binding!.thingId)!.model, at);
          if (values?.Ia === undefined) continue;
          for (const [a, b, c] of [
            [values.Ia, values.Ib, values.Ic],
            [values.Ua, values.Ub, values.Uc],
          ] as [number, number, number][]) {
            const mean = (a + b + c) / 3;
            const imbalance =
              (Math.max(Math.abs(a - mean), Math.abs(b - mean), Math.abs(c - mean)) / mean) * 100;
            expect(imbalance, node.label).toBeLessThan(graph.thresholds.imbalancePct);
          }
        }
        const loss = ((sides.in - sides.out) / sides.in) * 100;
        losses.push({ at, loss });
        const where = `${bus.label} at ${new Date(at).toISOString()}`;
        expect(sides.out, where).toBeGreaterThan(0);
        expect(loss, where).toBeGreaterThan(0);
        expect(loss, where).toBeLessThan(graph.thresholds.lossPct);
      }
    }
    // A working transformer loses 0.5–1.5 % of its input: never the 70–95 % of a disconnected model.
    for (const { at, loss } of losses.filter((l) => weekday.includes(l.at))) {
      expect(loss, new Date(at).toISOString()).toBeGreaterThan(0.4);
      expect(loss, new Date(at).toISOString()).toBeLessThan(1.5);
    }
    // Every electric load of the plant is drawn, once, under the busbar that supplies it.
    const fed = busbars.flatMap((b) => members(graph, b.id).filter((m) => m.flow === 'out'));
    const loads = things.filter((x) => x.kind === 'meter' || x.kind === 'compressor');
    expect(fed.map((m) => m.node.binding!.thingId).sort((a, b) => a - b)).toEqual(loads.map((x) => x.id));
  });

  it('counts a transformer’s input energy as what its loads drew plus its losses', () => {
    const generator = new PlantGenerator({ timeZone: 'Asia/Shanghai' });
    const counter = (x: SimThing, metric: string, ts: number) => {
      const m = generator.model(x);
      let value: number | undefined;
      for (let at = ts; value === undefined; at += 10_000) value = generator.values(m, at)?.[metric];
      return value;
    };
    const from = MONDAY + DAY;
    const to = from + DAY;
    for (const transformer of things.filter((x) => x.kind === 'transformer')) {
      const input = counter(transformer, 'EPin', to) - counter(transformer, 'EPin', from);
      const drawn = (transformer.supplies ?? []).reduce(
        (sum, load) => sum + counter(load as SimThing, 'EP', to) - counter(load as SimThing, 'EP', from),
        0,
      );
      const loss = ((input - drawn) / input) * 100;
      expect(loss, transformer.identifier).toBeGreaterThan(0.3);
      expect(loss, transformer.identifier).toBeLessThan(2);
    }
  });
});
