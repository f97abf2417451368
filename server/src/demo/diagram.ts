import type { DiagramEdge, DiagramGraph, DiagramNode } from '@kilowatch/contract';
import { DEFAULT_DIAGRAM_THRESHOLDS } from '@kilowatch/contract';
import type { DiagramsService } from '../modules/diagrams/index.ts';
import { supplyTopology, type ThingPlan } from '../simulator/index.ts';

/** What the demo needs of the diagrams module. */
export type DemoDiagrams = Pick<DiagramsService, 'create' | 'exists'>;

/** The demo's single-line diagram: the power station's substation (docs/electric-diagram.md). */
const DEMO_DIAGRAM = '变配电室';

const SECTIONS = ['I', 'II', 'III', 'IV', 'V'];
/**
 * Horizontal room of one feeder: its arrow, its values beside it ("有功功率 12.35 kW", the
 * abilities' names) and its name below.
 */
const FEEDER = 170;
/** Vertical room of one busbar section, from its incoming line to its feeders' names. */
const ROW = 720;
const MARGIN = 60;

/**
 * The substation as its single-line diagram: for each transformer a 10 kV incoming line through a
 * disconnector and breaker to the transformer, its low-voltage breaker to a 0.4 kV busbar
 * section, and under the busbar every load the transformer supplies (`supplyTopology`, the same
 * cut the simulator uses), each through its own breaker to an outgoing feeder bound to the load's
 * thing: a cabinet meter or a compressor. Transformers report `Pin` (their input), loads `P`: the
 * busbar's branch loss, Pin minus all its feeders' P, is the transformer's own loss. Sections are
 * stacked, each as wide as its feeders need.
 */
function demoDiagram(
  plan: readonly ThingPlan[],
  idOf: (identifier: string) => number | undefined,
): DiagramGraph {
  const nodes: DiagramNode[] = [];
  const edges: DiagramEdge[] = [];
  const wire = (source: string, target: string) =>
    edges.push({ id: `w-${source}-${target}`, source, target });
  const byIdentifier = new Map(plan.map((t) => [t.identifier, t]));
  [...supplyTopology(plan)].slice(0, SECTIONS.length).forEach(([identifier, loads], i) => {
    const transformer = byIdentifier.get(identifier)!;
    const y = i * ROW;
    const n = i + 1;
    const width = Math.max(580, loads.length * FEEDER + 2 * MARGIN);
    // The supply comes down the middle of its busbar.
    const x = 20 + Math.round(width / 2 / 10) * 10 - 20;
    const trId = idOf(transformer.identifier);
    nodes.push(
      { id: `in${n}`, symbol: 'incoming', x, y, label: `10kV 进线${n}` },
      { id: `qs${n}`, symbol: 'disconnector', x: x + 5, y: y + 90, label: `QS${n}1` },
      { id: `qf${n}`, symbol: 'breaker', x: x + 5, y: y + 160, label: `QF${n}1` },
      {
        id: `tr${n}`,
        symbol: 'transformer',
        x,
        y: y + 230,
        label: transformer.name,
        ...(trId === undefined
          ? {}
          : { binding: { thingId: trId, shown: ['Pin', 'loadRate'], power: 'Pin' } }),
      },
      { id: `qf${n}l`, symbol: 'breaker', x: x + 5, y: y + 330, label: `QF${n}2` },
      { id: `bus${n}`, symbol: 'busbar', x: 20, y: y + 410, width, label: `0.4kV ${SECTIONS[i]}段母线` },
    );
    wire(`in${n}`, `qs${n}`);
    wire(`qs${n}`, `qf${n}`);
    wire(`qf${n}`, `tr${n}`);
    wire(`tr${n}`, `qf${n}l`);
    wire(`qf${n}l`, `bus${n}`);
    loads.forEach((load, j) => {
      const loadId = idOf(load.identifier);
      const fx = 20 + MARGIN + j * FEEDER;
      const id = `f${n}-${j + 1}`;
      const shown = load.kind === 'meter' ? ['P', 'Ia'] : ['P'];
      nodes.push(
        { id: `qf${id}`, symbol: 'breaker', x: fx + 5, y: y + 460, label: `QF${n}-${j + 3}` },
        {
          id,
          symbol: 'feeder',
          x: fx,
          y: y + 530,
          label: load.name,
          ...(loadId === undefined ? {} : { binding: { thingId: loadId, shown, power: 'P' } }),
        },
      );
      wire(`bus${n}`, `qf${id}`);
      wire(`qf${id}`, id);
    });
    // The reactive compensation of section I, at its right end (no active power of its own).
    if (i === 0) {
      nodes.push({ id: 'cap1', symbol: 'capacitor', x: 20 + width - MARGIN, y: y + 460, label: '无功补偿' });
      wire('bus1', 'cap1');
    }
  });
  return { nodes, edges, thresholds: { ...DEFAULT_DIAGRAM_THRESHOLDS } };
}

/** Saves the demo's diagram once (skipped when one of that name exists). */
export async function seedDiagram(
  diagrams: DemoDiagrams,
  plan: readonly ThingPlan[],
  idOf: (identifier: string) => number | undefined,
): Promise<boolean> {
  if (await diagrams.exists(DEMO_DIAGRAM)) return false;
  await diagrams.create({ name: DEMO_DIAGRAM, graph: demoDiagram(plan, idOf) });
  return true;
}
