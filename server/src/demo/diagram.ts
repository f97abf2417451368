import type { DiagramEdge, DiagramGraph, DiagramNode } from '@kilowatch/contract';
import { DEFAULT_DIAGRAM_THRESHOLDS } from '@kilowatch/contract';
import type { DiagramsService } from '../modules/diagrams/index.ts';
import type { ThingPlan } from '../simulator/index.ts';

/** What the demo needs of the diagrams module. */
export type DemoDiagrams = Pick<DiagramsService, 'create' | 'exists'>;

/** The demo's single-line diagram: the power station's substation (docs/electric-diagram.md). */
export const DEMO_DIAGRAM = '变配电室';

/** Feeders drawn under each transformer's busbar: the lines whose first cabinet meter is bound. */
const FEEDER_LINES: string[][] = [
  ['装配线A', '装配线B', '办公楼'],
  ['机加工线', '喷涂线', '水泵房'],
  ['装配线A', '机加工线', '办公楼'],
];
const SECTIONS = ['I', 'II', 'III'];
/** Horizontal room of one transformer's column. */
const COLUMN = 660;

/**
 * The substation as its single-line diagram: for each transformer (up to three) a 10 kV incoming
 * line through a disconnector and breaker to the transformer, its low-voltage breaker to a 0.4 kV
 * busbar section, and three feeders, each a breaker and an outgoing line bound to a cabinet meter
 * of the line it feeds. Transformers report `Pin` (their input), meters `P`: the busbar's branch
 * loss is Pin minus the feeders' P.
 */
export function demoDiagram(
  plan: readonly ThingPlan[],
  idOf: (identifier: string) => number | undefined,
): DiagramGraph {
  const nodes: DiagramNode[] = [];
  const edges: DiagramEdge[] = [];
  const wire = (source: string, target: string) =>
    edges.push({ id: `w-${source}-${target}`, source, target });
  const transformers = plan.filter((t) => t.kind === 'transformer').slice(0, SECTIONS.length);
  const used = new Set<string>();
  transformers.forEach((transformer, i) => {
    const x = i * COLUMN;
    const n = i + 1;
    const trId = idOf(transformer.identifier);
    nodes.push(
      { id: `in${n}`, symbol: 'incoming', x: x + 280, y: 0, label: `10kV 进线${n}` },
      { id: `qs${n}`, symbol: 'disconnector', x: x + 285, y: 90, label: `QS${n}1` },
      { id: `qf${n}`, symbol: 'breaker', x: x + 285, y: 160, label: `QF${n}1` },
      {
        id: `tr${n}`,
        symbol: 'transformer',
        x: x + 280,
        y: 230,
        label: transformer.name,
        ...(trId === undefined
          ? {}
          : { binding: { thingId: trId, shown: ['Pin', 'loadRate'], power: 'Pin' } }),
      },
      { id: `qf${n}l`, symbol: 'breaker', x: x + 285, y: 330, label: `QF${n}2` },
      { id: `bus${n}`, symbol: 'busbar', x: x + 20, y: 410, width: 580, label: `0.4kV ${SECTIONS[i]}段母线` },
    );
    wire(`in${n}`, `qs${n}`);
    wire(`qs${n}`, `qf${n}`);
    wire(`qf${n}`, `tr${n}`);
    wire(`tr${n}`, `qf${n}l`);
    wire(`qf${n}l`, `bus${n}`);
    (FEEDER_LINES[i] ?? []).forEach((line, j) => {
      const meter = plan.find(
        (t) => t.kind === 'meter' && t.region.at(-1) === line && !used.has(t.identifier),
      );
      if (!meter) return;
      used.add(meter.identifier);
      const meterId = idOf(meter.identifier);
      const fx = x + 60 + j * 170;
      const id = `f${n}${j + 1}`;
      nodes.push(
        { id: `qf${id}`, symbol: 'breaker', x: fx + 5, y: 460, label: `QF${n}${j + 3}` },
        {
          id,
          symbol: 'feeder',
          x: fx,
          y: 530,
          label: meter.name,
          ...(meterId === undefined ? {} : { binding: { thingId: meterId, shown: ['P', 'Ia'], power: 'P' } }),
        },
      );
      wire(`bus${n}`, `qf${id}`);
      wire(`qf${id}`, id);
    });
  });
  if (transformers.length > 0) {
    nodes.push({ id: 'cap1', symbol: 'capacitor', x: 540, y: 460, label: '无功补偿' });
    wire('bus1', 'cap1');
  }
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
