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
 * GET /api/health/live: the process runs and its event loop turns (a probe restarts it otherwise).
 * It asks nothing of the database or the stores, so an outage of theirs restarts no replica.
 */
export const HealthLive = Type.Object({ status: Type.Literal('ok'), version: Type.String() });
export type HealthLive = Static<typeof HealthLive>;

/** One dependency of readiness: `off` when this server does not use one (MQTT_PORT=0). */
export const HealthCheck = Type.Object({
  name: Type.Union([Type.Literal('database'), Type.Literal('telemetry'), Type.Literal('broker')]),
  state: Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Literal('off')]),
  /** What answered (sqlite, postgres, duckdb, victoriametrics, broker, subscriber, off). */
  kind: Type.String(),
  /** Why it is down (the error's message), absent when up. */
  detail: Type.Optional(Type.String()),
  ms: Type.Number(),
});
export type HealthCheck = Static<typeof HealthCheck>;

/**
 * GET /api/health/ready: whether a load balancer should send this replica traffic: 200 `ready`
 * when every check is up (or off), 503 `unready` when one is down, 503 `draining` once a shutdown
 * began. The body is the answer itself (no `{ data }`): probes read the status, people the checks.
 */
export const HealthReady = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('unready'), Type.Literal('draining')]),
  checks: Type.Array(HealthCheck),
});
export type HealthReady = Static<typeof HealthReady>;

export const healthLive = endpoint({
  method: 'GET',
  path: '/api/health/live',
  response: HealthLive,
  raw: true,
  errors: ['5xx'],
  tags: ['system'],
  summary: 'Liveness probe: the process answers (no dependency is asked)',
});

export const healthReady = endpoint({
  method: 'GET',
  path: '/api/health/ready',
  response: HealthReady,
  raw: true,
  responses: { 503: HealthReady },
  errors: ['5xx'],
  tags: ['system'],
  summary: 'Readiness probe: database, telemetry store and broker reachable (503 when not, or draining)',
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
