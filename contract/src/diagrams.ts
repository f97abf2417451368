import { type Static, Type } from 'typebox';
import { IdParams, Ok, RowId } from './common.ts';
import { endpoint } from './endpoint.ts';

/**
 * Electrical single-line diagrams (issue 13, docs/electric-diagram.md): several per plant, each a
 * graph of symbols and the wires between them, saved as data. Symbols may be bound to a thing
 * (live values, breaker state, alarms, branch loss and imbalance in the console).
 */

export const DIAGRAM_SYMBOLS = [
  'incoming',
  'transformer',
  'breaker',
  'disconnector',
  'busbar',
  'feeder',
  'meter',
  'capacitor',
  'generator',
] as const;
export type DiagramSymbol = (typeof DIAGRAM_SYMBOLS)[number];

/** Which side of its busbar a bound symbol's power counts on for the branch loss. */
export const DIAGRAM_FLOWS = ['in', 'out'] as const;
export type DiagramFlow = (typeof DIAGRAM_FLOWS)[number];

/** Bounds of a saved graph: a station's diagram has tens of symbols, not thousands. */
export const DIAGRAM_MAX_NODES = 400;
export const DIAGRAM_MAX_EDGES = 800;
/** Metrics shown beside one symbol. */
export const DIAGRAM_MAX_SHOWN = 6;
/** Coordinates stay on a canvas a screen can pan over. */
export const DIAGRAM_MAX_COORD = 100_000;

const CellId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const Identifier = Type.String({ minLength: 1, maxLength: 64 });
const Coord = Type.Number({ minimum: -DIAGRAM_MAX_COORD, maximum: DIAGRAM_MAX_COORD });

export const DiagramBinding = Type.Object({
  thingId: RowId,
  /** Metrics drawn beside the symbol, in order. */
  shown: Type.Array(Identifier, { maxItems: DIAGRAM_MAX_SHOWN }),
  /** The active power metric (kW) the branch loss adds up; none leaves the symbol out of it. */
  power: Type.Optional(Identifier),
  /** Which side of its busbar that power is on (default from the symbol: docs/electric-diagram.md). */
  flow: Type.Optional(Type.Enum(DIAGRAM_FLOWS)),
  /** A switch's or source's state metric and the value meaning closed (in service). */
  status: Type.Optional(Identifier),
  closedValue: Type.Optional(Type.String({ maxLength: 32 })),
});
export type DiagramBinding = Static<typeof DiagramBinding>;

export const DiagramNode = Type.Object({
  id: CellId,
  symbol: Type.Enum(DIAGRAM_SYMBOLS),
  x: Coord,
  y: Coord,
  /** A busbar's length; other symbols have a fixed size. */
  width: Type.Optional(Type.Number({ minimum: 40, maximum: 4000 })),
  label: Type.String({ maxLength: 64 }),
  binding: Type.Optional(DiagramBinding),
});
export type DiagramNode = Static<typeof DiagramNode>;

export const DiagramEdge = Type.Object({
  id: CellId,
  source: CellId,
  target: CellId,
});
export type DiagramEdge = Static<typeof DiagramEdge>;

/** Thresholds above which the console flags a value (percent). */
export const DiagramThresholds = Type.Object({
  lossPct: Type.Number({ minimum: 0, maximum: 100 }),
  imbalancePct: Type.Number({ minimum: 0, maximum: 100 }),
});
export type DiagramThresholds = Static<typeof DiagramThresholds>;
export const DEFAULT_DIAGRAM_THRESHOLDS: DiagramThresholds = { lossPct: 5, imbalancePct: 2 };

export const DiagramGraph = Type.Object({
  nodes: Type.Array(DiagramNode, { maxItems: DIAGRAM_MAX_NODES }),
  edges: Type.Array(DiagramEdge, { maxItems: DIAGRAM_MAX_EDGES }),
  thresholds: DiagramThresholds,
});
export type DiagramGraph = Static<typeof DiagramGraph>;

const Name = Type.String({ minLength: 1, maxLength: 64 });

export const DiagramSummary = Type.Object({
  id: Type.Integer(),
  name: Name,
  updatedAt: Type.Number(),
});
export type DiagramSummary = Static<typeof DiagramSummary>;

export const Diagram = Type.Object({
  ...DiagramSummary.properties,
  graph: DiagramGraph,
});
export type Diagram = Static<typeof Diagram>;

export const DiagramCreate = Type.Object({ name: Name, graph: Type.Optional(DiagramGraph) });
export type DiagramCreate = Static<typeof DiagramCreate>;

export const DiagramPatch = Type.Object({
  name: Type.Optional(Name),
  graph: Type.Optional(DiagramGraph),
});
export type DiagramPatch = Static<typeof DiagramPatch>;

export const diagramList = endpoint({
  method: 'GET',
  path: '/api/diagrams',
  response: Type.Array(DiagramSummary),
  tags: ['diagrams'],
  summary: 'The plant’s single-line diagrams, by name',
});

export const diagramGet = endpoint({
  method: 'GET',
  path: '/api/diagrams/:id',
  params: IdParams,
  response: Diagram,
  tags: ['diagrams'],
  summary: 'One single-line diagram with its graph',
});

export const diagramCreate = endpoint({
  method: 'POST',
  path: '/api/diagrams',
  body: DiagramCreate,
  response: Diagram,
  tags: ['diagrams'],
  summary: 'Create a single-line diagram (empty unless a graph is given)',
  description: '422 when the graph names an unknown symbol, wire end, thing or metric; 409 on a taken name.',
});

export const diagramPatch = endpoint({
  method: 'PATCH',
  path: '/api/diagrams/:id',
  params: IdParams,
  body: DiagramPatch,
  response: Diagram,
  tags: ['diagrams'],
  summary: 'Rename a single-line diagram or save its graph',
  description: '422 when the graph names an unknown symbol, wire end, thing or metric; 409 on a taken name.',
});

export const diagramDelete = endpoint({
  method: 'DELETE',
  path: '/api/diagrams/:id',
  params: IdParams,
  response: Ok,
  tags: ['diagrams'],
  summary: 'Delete a single-line diagram',
});
