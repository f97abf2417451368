import { type Static, Type } from 'typebox';
import { MAX_EPOCH_MS, RowId } from './common.ts';
import { CompareResult, QueryComparison } from './compare.ts';
import { endpoint } from './endpoint.ts';
import { AGGREGATORS } from './thing-categories.ts';

/**
 * Telemetry queries (spec §3 param settings, chart time range, data point, query payload, device
 * status; §7 "Query and monitoring"). Metric configs: metric-configs.ts; ingest: ingest.ts.
 */

export const ResourceTypeSchema = Type.Union([Type.Literal('thing'), Type.Literal('region')]);

/** Bucket unit of groupByTime; the bucket is groupByInterval × this unit. */
export const GROUP_BY_TIMES = ['second', 'minute', 'hour', 'day', 'month', 'year'] as const;
export type GroupByTime = (typeof GROUP_BY_TIMES)[number];

/** A calendar period that the query covers (spec §3 chart time range `period`). */
export const PERIODS = ['day', 'month', 'year'] as const;
export type Period = (typeof PERIODS)[number];

/**
 * Aggregators a query may ask for: those of abilities, plus `delta` — the consumption of a
 * cumulative counter over each bucket (sum of positive increments, so resets do not count as
 * negative consumption).
 */
export const QUERY_AGGREGATORS = [...AGGREGATORS, 'delta'] as const;
export type QueryAggregator = (typeof QUERY_AGGREGATORS)[number];
const QueryAggregatorSchema = Type.Enum(QUERY_AGGREGATORS);

/** POST /api/query/data?seq= body: one metric of one thing or region over a time range. */
export const MetricQuery = Type.Object({
  resourceType: ResourceTypeSchema,
  /** The thing's or region's id. */
  resourceId: RowId,
  metricIdentifier: Type.String({ minLength: 1, maxLength: 64 }),
  metricName: Type.Optional(Type.String({ maxLength: 64 })),
  /** How values combine inside a bucket (spec: aggregator / function). Default: the ability's. */
  aggregator: Type.Optional(QueryAggregatorSchema),
  /** For regions: only things of this category (spec: categoryId). */
  categoryId: Type.Optional(RowId),
  /** For regions: include things bound to descendant regions. */
  successor: Type.Optional(Type.Boolean()),
  /**
   * For regions: `sum` (default) adds the bound things' bucket values into one series named for
   * the region; `none` returns one series per thing (group = thing name).
   */
  combine: Type.Optional(Type.Union([Type.Literal('sum'), Type.Literal('avg'), Type.Literal('none')])),
  /** `auto`: the server picks the width from the one bucket table (BUCKET_WIDTHS) for `maxPoints`. */
  groupByTime: Type.Optional(Type.Enum([...GROUP_BY_TIMES, 'auto'])),
  groupByInterval: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
  /** A calendar period around `startTime` (or now): today, this month, this year. */
  period: Type.Optional(Type.Enum(PERIODS)),
  /** Range in ms since the epoch (10-digit values are taken as seconds), [startTime, endTime). */
  startTime: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_EPOCH_MS })),
  endTime: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_EPOCH_MS })),
  /** Without groupByTime: downsample to about this many points (largest-triangle or bucket avg). */
  maxPoints: Type.Optional(Type.Integer({ minimum: 10, maximum: 20000 })),
  /** Arithmetic on each value with `x`, e.g. "x * 1000" or "x / 3600" (+ - * / and parentheses). */
  formula: Type.Optional(Type.String({ maxLength: 200 })),
  /** Decimal places applied after formula (spec: scale). */
  scale: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
  unit: Type.Optional(Type.String({ maxLength: 32 })),
  color: Type.Optional(Type.String({ maxLength: 32 })),
  /** The console's stamp may also travel in the body (spec §7); `?seq=` wins when both are sent. */
  seq: Type.Optional(Type.String({ maxLength: 64 })),
  /** The same metric over a second range on the same buckets (year on year, base period…). */
  compare: Type.Optional(QueryComparison),
});
export type MetricQuery = Static<typeof MetricQuery>;

export const SeqQuery = Type.Object({ seq: Type.Optional(Type.String({ maxLength: 64 })) });

/** One point of a series (spec §3 chart data point): bucket start (ms), value, series name. */
export const DataPoint = Type.Object({
  key: Type.Number(),
  value: Type.Union([Type.Number(), Type.Null()]),
  group: Type.String(),
  /** False when part of the bucket had no data (a gap) or the bucket is still running. */
  complete: Type.Boolean(),
  /**
   * Series combined over several things (a region's sum or mean): the names of the things whose
   * own bucket was incomplete, at most MISSING_NAMES_MAX of them. Only on incomplete buckets;
   * absent elsewhere.
   */
  missing: Type.Optional(Type.Array(Type.String(), { maxItems: 20 })),
  /** How many things were incomplete in the bucket (more than `missing` names when capped). */
  missingCount: Type.Optional(Type.Integer({ minimum: 0 })),
});

/** Names listed in a bucket's `missing` (a plant of 129 meters must not send 129 per bucket). */
export const MISSING_NAMES_MAX = 20;
export type DataPoint = Static<typeof DataPoint>;

export const QueryResult = Type.Object({
  result: Type.Array(DataPoint),
  /** The `seq` the request carried, so the console can drop late answers. */
  seq: Type.Union([Type.String(), Type.Null()]),
  unit: Type.String(),
  /** Which stored resolution answered (raw, minute, hour, day): for the curious and the benchmarks. */
  resolution: Type.String(),
  /** The plant's IANA time zone (PLANT_TIMEZONE): periods follow it, exports print times in it. */
  timeZone: Type.Optional(Type.String()),
  /** The buckets the answer has (absent for raw points): `auto` answers with the width it picked. */
  bucket: Type.Optional(
    Type.Object({ groupByTime: Type.Enum(GROUP_BY_TIMES), groupByInterval: Type.Integer({ minimum: 1 }) }),
  ),
  /** The query's `compare`, answered. */
  compare: Type.Optional(CompareResult),
});
export type QueryResult = Static<typeof QueryResult>;

export const RealtimeQuery = Type.Object({
  resourceId: RowId,
  /** Default thing. */
  resourceType: Type.Optional(ResourceTypeSchema),
  categoryId: Type.Optional(RowId),
  /** For regions: include things bound to descendant regions. */
  successor: Type.Optional(Type.Boolean()),
});

/** Device status item (spec §3: key operation, name, unit, value). */
export const DeviceStatus = Type.Object({
  /** The ability identifier. */
  operation: Type.String(),
  name: Type.String(),
  unit: Type.String(),
  value: Type.Union([Type.Number(), Type.String(), Type.Null()]),
  /** Time of the value (ms), null when the device never sent it. */
  ts: Type.Union([Type.Number(), Type.Null()]),
  thingId: Type.Integer(),
});
export type DeviceStatus = Static<typeof DeviceStatus>;

/** A device cabinet of a board (spec §3 cabinet/device). */
export const Cabinet = Type.Object({
  thingId: Type.Integer(),
  identifier: Type.String(),
  name: Type.String(),
  description: Type.String(),
  categoryId: Type.Integer(),
  setting: Type.Object({
    attributes: Type.Array(
      Type.Object({ identifier: Type.String(), name: Type.String(), value: Type.String() }),
    ),
  }),
  /** Latest value of each ability, by identifier. */
  attrMap: Type.Record(
    Type.String(),
    Type.Object({
      name: Type.String(),
      unit: Type.String(),
      value: Type.Union([Type.Number(), Type.String(), Type.Null()]),
      ts: Type.Union([Type.Number(), Type.Null()]),
    }),
  ),
  /** Seconds since the newest value; null when never seen. Online when under 3 × its interval. */
  lastSeenAgo: Type.Union([Type.Number(), Type.Null()]),
});
export type Cabinet = Static<typeof Cabinet>;

export const BoardComponentsQuery = Type.Object({
  categoryId: Type.Optional(RowId),
  successor: Type.Optional(Type.Boolean()),
});

/** Converts 10-digit second timestamps to ms (spec §9); leaves ms as they are. */
export const toMillis = (t: number): number => (Math.abs(t) < 1e11 ? t * 1000 : t);

/** GET /api/query/live?thingIds=1,2 (Server-Sent Events; `?token=` since EventSource sends no headers). */
export const LiveQuery = Type.Object({
  thingIds: Type.String({ minLength: 1, maxLength: 2000 }),
  /** From POST /api/query/live/ticket: EventSource cannot send the access token as a header. */
  ticket: Type.Optional(Type.String({ maxLength: 100 })),
});

/** A stream ticket: stands for the caller's access token, once, for `expiresIn` seconds. */
export const LiveTicket = Type.Object({
  ticket: Type.String(),
  expiresIn: Type.Integer(),
});
export type LiveTicket = Static<typeof LiveTicket>;

/** One value of a `values` event of the live channel: written and durable. */
export const LiveValue = Type.Object({
  thingId: Type.Integer(),
  metric: Type.String(),
  ts: Type.Number(),
  value: Type.Union([Type.Number(), Type.String()]),
});
export type LiveValue = Static<typeof LiveValue>;

/**
 * Units of quantities that add up across devices (a region's power is the sum of its feeders'),
 * as opposed to intensive ones (voltage, temperature, pressure, power factor), which average.
 */
export const ADDITIVE_UNITS = [
  'W',
  'kW',
  'MW',
  'var',
  'kvar',
  'Mvar',
  'VA',
  'kVA',
  'MVA',
  'Wh',
  'kWh',
  'MWh',
  'kvarh',
  'm³',
  'm³/h',
  'm³/min',
  'Nm³',
  'Nm³/h',
  'L',
  'L/min',
  't',
  't/h',
  'h',
  '次',
];

/** How a region combines its things' bucket values when the query does not say (spec: region queries). */
export const defaultCombine = (ability: { unit: string; cumulative: boolean }): 'sum' | 'avg' =>
  ability.cumulative || ADDITIVE_UNITS.includes(ability.unit) ? 'sum' : 'avg';

// ---- endpoints: /api/query and /api/board (spec §7 "Query and monitoring") ----------------------

export const queryData = endpoint({
  method: 'POST',
  path: '/api/query/data',
  querystring: SeqQuery,
  body: MetricQuery,
  response: QueryResult,
  tags: ['query'],
  summary: 'One metric of a thing or region over a time range: buckets or raw points',
  description:
    'See docs/query-api.md. groupByTime auto: the server picks the width (answer: bucket); compare: the same metric over a second range on the same buckets (year on year, base period). 400 bad range (end ≤ start, > 10 years, > 10,000 buckets), formula or compare; 404 unknown resource; 422 metric not an ability of the thing (or of any bound thing).',
});

export const queryRealtime = endpoint({
  method: 'GET',
  path: '/api/query/realtime',
  querystring: RealtimeQuery,
  response: Type.Array(DeviceStatus),
  tags: ['query'],
  summary: 'Latest value of every ability of a thing, or of the things bound to a region',
});

/** A stream, not JSON: the console opens it with EventSource. */
export const queryLive = endpoint({
  method: 'GET',
  path: '/api/query/live',
  querystring: LiveQuery,
  tags: ['query'],
  summary: 'Server-Sent Events: latest values of these things as they are written',
  description:
    'EventSource cannot send headers: pass a ticket from POST /api/query/live/ticket as `?ticket=` (the access token itself is never put in the URL; other clients may send the usual header). Events: `values` (data: LiveValue[]), first a snapshot of the latest values, then each written batch; a comment heartbeat every 15 s. A consumer that falls behind gets the latest value of each metric once it catches up, and is dropped after 30 s without reading. The stream ends (event `end`, data `{code}`) when the token expires or the user is disabled, logs out or has the password reset; at most 4 streams per user (429 beyond). While the stream is down, poll `GET /api/query/realtime` for the same values (the console does so until the stream opens again).',
});

export const queryLiveTicket = endpoint({
  method: 'POST',
  path: '/api/query/live/ticket',
  response: LiveTicket,
  tags: ['query'],
  summary: 'A ticket to open the live stream with: usable once, within 30 s',
  description:
    'Keeps the long-lived access token out of the stream URL (proxies and servers log URLs). The ticket stands for the access token of this request: the stream it opens ends when that token expires or its session ends, like a stream opened with the header.',
});

export const boardComponents = endpoint({
  method: 'GET',
  path: '/api/board/components/:regionId',
  params: Type.Object({ regionId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }),
  querystring: BoardComponentsQuery,
  response: Type.Array(Cabinet),
  tags: ['board'],
  summary: 'Cabinets of the things bound to a region: attributes, latest values, seconds since last seen',
});
