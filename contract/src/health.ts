import { type Static, Type } from 'typebox';
import { endpoint } from './endpoint.ts';

/** GET /api/health: liveness plus which metadata database this server uses. */
export const Health = Type.Object({
  status: Type.Literal('ok'),
  db: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
  version: Type.String(),
});
export type Health = Static<typeof Health>;

// ---- endpoints ----------------------------------------------------------------------------------

export const health = endpoint({
  method: 'GET',
  path: '/api/health',
  response: Health,
  // No input to get wrong: it answers 200, or 5xx when the database does not.
  errors: ['5xx'],
  tags: ['system'],
  summary: 'Liveness and database check',
});

/**
 * GET /api/demo/history: the demo plant's history written in the background on its first start
 * (docs/demo-plant.md). `none`: nothing to write (no demo, or a plant seeded before).
 */
export const DemoHistoryStatus = Type.Object({
  state: Type.Union([
    Type.Literal('none'),
    Type.Literal('running'),
    Type.Literal('done'),
    Type.Literal('failed'),
  ]),
  /** Share of the planned range written, 0–100. */
  percent: Type.Integer({ minimum: 0, maximum: 100 }),
  /** The planned range [from, to), ms; null when none. */
  from: Type.Union([Type.Number(), Type.Null()]),
  to: Type.Union([Type.Number(), Type.Null()]),
  points: Type.Integer({ minimum: 0 }),
});
export type DemoHistoryStatus = Static<typeof DemoHistoryStatus>;

export const demoHistory = endpoint({
  method: 'GET',
  path: '/api/demo/history',
  response: DemoHistoryStatus,
  tags: ['system'],
  summary: "Progress of the demo plant's history, written in the background on the first start",
});
