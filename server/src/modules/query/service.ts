import {
  type Cabinet,
  type DataPoint,
  type DeviceStatus,
  defaultCombine,
  type EffectiveAbility,
  type MetricQuery,
  MISSING_NAMES_MAX,
  naturalCompare,
  type QueryAggregator,
  type QueryResult,
  type ResourceType,
} from '@kilowatch/contract';
import { AppError } from '../../errors.ts';
import type { Live } from '../../live/index.ts';
import {
  bucketWidthFor,
  DAY,
  downsample,
  MAX_BUCKETS,
  MINUTE,
  type PlantCalendar,
  type Point,
  type TelemetryStore,
} from '../../telemetry/index.ts';
import type { Catalog, Resolved } from '../catalog/index.ts';
import { combineSeries, mergeRuns, missingThings, type Slot, slotsOf } from './buckets.ts';
import { compileFormula, FormulaError, roundTo } from './formula.ts';
import {
  alignPoints,
  type Buckets,
  bucketKeys,
  compareAnswer,
  compareRange,
  fixedBuckets,
  queryBuckets,
  queryRange,
  type Range,
} from './ranges.ts';

/** Most buckets one series of a query may have (spec: charts, not exports). */
const MAX_QUERY_BUCKETS = 10_000;
/** Longest range a query may cover. */
const MAX_RANGE_YEARS = 10;
const MAX_RANGE_MS = Math.round(MAX_RANGE_YEARS * 365.25 * DAY);
/** Raw points per series without groupByTime, unless the query says otherwise. */
const DEFAULT_MAX_POINTS = 2000;

export interface QueryDeps {
  store: TelemetryStore;
  /** Latest values as they arrive (strings are only there; numbers also sit in the store). */
  live: Pick<Live, 'latest'>;
  /** Things, regions' things and their abilities (cached there, dropped on every metadata write). */
  catalog: Pick<Catalog, 'select' | 'categoryAbilities'>;
  /** The plant calendar (PLANT_TIMEZONE): periods and day/month/year buckets follow it. */
  calendar: PlantCalendar;
  now: () => number;
}

const unknownMetric = (metric: string, resourceType: ResourceType) =>
  new AppError('UNPROCESSABLE', 422, { metric, resource: resourceType }, { message: 'query.unknownMetric' });

const badRequest = (
  message:
    | 'query.badRange'
    | 'query.rangeTooLong'
    | 'query.tooManyBuckets'
    | 'query.badFormula'
    | 'query.badCompare',
  params = {},
) => new AppError('BAD_REQUEST', 400, params, { message });

/**
 * Telemetry queries (spec §7 "Query and monitoring"): bucketed and raw series of things and
 * regions, real-time status and board cabinets.
 */
export function createQueryService(deps: QueryDeps) {
  const { store, now } = deps;
  const { calendar } = deps;

  function transform(q: MetricQuery): (value: number | null) => number | null {
    let formula: ((x: number) => number) | undefined;
    if (q.formula?.trim()) {
      try {
        formula = compileFormula(q.formula);
      } catch (error) {
        if (error instanceof FormulaError) throw badRequest('query.badFormula', { detail: error.message });
        throw error;
      }
    }
    const { scale } = q;
    return (value) => {
      if (value === null) return null;
      const v = formula ? formula(value) : value;
      if (!Number.isFinite(v)) return null;
      return scale === undefined ? v : roundTo(v, scale);
    };
  }

  return {
    // ---- series ----

    async data(q: MetricQuery, seq: string | null): Promise<QueryResult> {
      const res = await deps.catalog.select({
        resourceType: q.resourceType,
        id: q.resourceId,
        categoryId: q.categoryId,
        successor: q.successor,
        ability: q.metricIdentifier,
      });
      return answer(q, res, seq, (t) => t.name);
    },

    /**
     * `data` over things already selected from the catalog (energy statistics asks for many
     * things at once: one store read instead of one per thing), one series per thing (`combine`
     * of the query, `none` for a thing), each point's `group` named by `groupOf`.
     */
    dataOf(
      q: MetricQuery,
      selection: Resolved,
      groupOf: (thing: Resolved['things'][number]) => string,
    ): Promise<QueryResult> {
      return answer(q, selection, null, groupOf);
    },

    // ---- real-time status and boards ----

    async realtime(query: {
      resourceId: number;
      resourceType?: ResourceType | undefined;
      categoryId?: number | undefined;
      successor?: boolean | undefined;
    }): Promise<DeviceStatus[]> {
      const { things, abilities } = await deps.catalog.select({
        resourceType: query.resourceType ?? 'thing',
        id: query.resourceId,
        categoryId: query.categoryId,
        successor: query.successor,
      });
      const out: DeviceStatus[] = [];
      for (const t of things) {
        for (const [ability, latest] of latestOf(t.id, abilities.get(t.id) ?? [])) {
          out.push({
            operation: ability.identifier,
            name: ability.name,
            unit: ability.unit,
            value: latest?.value ?? null,
            ts: latest?.ts ?? null,
            thingId: t.id,
          });
        }
      }
      return out;
    },

    async cabinets(
      regionId: number,
      query: { categoryId?: number | undefined; successor?: boolean | undefined },
    ): Promise<Cabinet[]> {
      const { things, abilities } = await deps.catalog.select({
        resourceType: 'region',
        id: regionId,
        categoryId: query.categoryId,
        successor: query.successor,
      });
      const at = now();
      // Devices as counted (1#, 2#, … 10#), whatever order they were bound in.
      return [...things]
        .sort((a, b) => naturalCompare(a.name, b.name) || a.id - b.id)
        .map((t) => {
          const attrMap: Cabinet['attrMap'] = {};
          let newest: number | null = null;
          for (const [ability, latest] of latestOf(t.id, abilities.get(t.id) ?? [])) {
            attrMap[ability.identifier] = {
              name: ability.name,
              unit: ability.unit,
              value: latest?.value ?? null,
              ts: latest?.ts ?? null,
            };
            if (latest && (newest === null || latest.ts > newest)) newest = latest.ts;
          }
          return {
            thingId: t.id,
            identifier: t.identifier,
            name: t.name,
            description: t.description,
            categoryId: t.categoryId,
            setting: t.setting,
            attrMap,
            lastSeenAgo: newest === null ? null : Math.max(0, Math.round((at - newest) / 1000)),
          };
        });
    },
  };

  /** The answer of a query over its selected things (see `data`). */
  async function answer(
    q: MetricQuery,
    res: Resolved,
    seq: string | null,
    groupOf: (thing: Resolved['things'][number]) => string,
  ): Promise<QueryResult> {
    const { abilities, things } = res;
    const ability = things
      .map((t) => abilities.get(t.id)?.find((a) => a.identifier === q.metricIdentifier))
      .find((a) => a !== undefined);
    if (!ability || things.length === 0) throw unknownMetric(q.metricIdentifier, q.resourceType);

    const range = queryRange(q, calendar, now());
    const { start, end } = range;
    if (!(end > start)) throw badRequest('query.badRange');
    if (end - start > MAX_RANGE_MS) throw badRequest('query.rangeTooLong', { years: MAX_RANGE_YEARS });
    const apply = transform(q);
    const combine = q.resourceType === 'thing' ? 'none' : (q.combine ?? defaultCombine(ability));
    const unit = q.unit ?? ability.unit;
    const metric = q.metricIdentifier;
    const maxPoints = q.maxPoints ?? DEFAULT_MAX_POINTS;

    /** Buckets and their aggregator, or null for raw points. */
    let plan: { buckets: Buckets; aggregator: QueryAggregator } | null = null;
    if (q.groupByTime) {
      const buckets = queryBuckets(q, range, calendar, maxPoints);
      const { count, merge } = buckets;
      if (count > MAX_QUERY_BUCKETS || count * merge * things.length > MAX_BUCKETS) {
        throw badRequest('query.tooManyBuckets', { count, max: MAX_QUERY_BUCKETS });
      }
      plan = { buckets, aggregator: q.aggregator ?? (ability.cumulative ? 'delta' : ability.aggregator) };
    } else if (combine !== 'none') {
      // Raw points of several things do not line up in time: a region's sum is bucketed.
      // Auto buckets of region sums without groupByTime: the table's widths from a minute to a day.
      const width = bucketWidthFor((end - start) / maxPoints, { min: MINUTE, max: DAY });
      plan = {
        buckets: fixedBuckets(width, range),
        aggregator: q.aggregator ?? (ability.cumulative ? 'last' : ability.aggregator),
      };
    }

    const bucketed = async ({ spec, merge }: Buckets, aggregator: QueryAggregator, r: Range) => {
      const columns = await store.bucketColumns({
        series: things.map((t) => ({ thingId: t.id, metric })),
        start: r.start,
        end: r.end,
        bucket: spec,
        aggregator,
      });
      const { resolution } = columns;
      const series = things.map((_, k) => mergeRuns(slotsOf(columns, k), merge, aggregator));
      const points = (slots: readonly Slot[], group: string): DataPoint[] =>
        slots.map((s) => ({ key: s.start, value: apply(s.value), group, complete: s.complete }));
      const result =
        combine === 'none'
          ? things.flatMap((t, i) => points(series[i] ?? [], groupOf(t)))
          : withMissing(
              points(combineSeries(series, combine), res.name),
              series,
              things.map((t) => t.name),
            );
      return { result, resolution };
    };
    const raw = async (r: Range) => {
      // Asked at once: the store answers each series from memory or its read lanes in parallel.
      const read = await Promise.all(
        things.map((t) => downsample(store, { thingId: t.id, metric }, r.start, r.end, maxPoints)),
      );
      const result: DataPoint[] = [];
      for (let i = 0; i < things.length; i++) {
        const group = groupOf(things[i] as Resolved['things'][number]);
        for (const p of read[i] as Point[])
          result.push({ key: p.ts, value: apply(p.value), group, complete: true });
      }
      return { result, resolution: 'raw' };
    };
    const read = (r: Range) => (plan ? bucketed(plan.buckets, plan.aggregator, r) : raw(r));

    const { result, resolution } = await read(range);
    const out: QueryResult = {
      result,
      seq,
      unit,
      resolution,
      timeZone: calendar.timeZone,
      ...(plan ? { bucket: plan.buckets.bucket } : {}),
    };
    if (q.compare) {
      const compared =
        q.compare.shift && q.compare.startTime !== undefined
          ? null
          : compareRange(q, q.compare, range, calendar);
      if (!compared) throw badRequest('query.badCompare');
      if (compared.end - compared.start > MAX_RANGE_MS) {
        throw badRequest('query.rangeTooLong', { years: MAX_RANGE_YEARS });
      }
      const other = await read(compared);
      const keys = plan
        ? {
            base: bucketKeys(calendar, plan.buckets, range),
            compare: bucketKeys(calendar, plan.buckets, compared),
          }
        : null;
      out.compare = compareAnswer(compared, alignPoints(other.result, keys, range, compared));
    }
    return out;
  }

  /** Each ability of a thing with its latest value (numbers from the store, strings from the live hub). */
  function latestOf(
    thingId: number,
    abilities: readonly EffectiveAbility[],
  ): [EffectiveAbility, { value: number | string; ts: number } | undefined][] {
    const numbers = new Map(
      store.latest(abilities.map((a) => ({ thingId, metric: a.identifier }))).map((l) => [l.metric, l]),
    );
    return abilities.map((a) => [
      a,
      a.dataType === 'string'
        ? deps.live.latest({ thingId, metric: a.identifier })
        : numbers.get(a.identifier),
    ]);
  }
}

/** Incomplete buckets of a combined series name the things behind the gap (tooltips say who). */
function withMissing(points: DataPoint[], series: readonly (readonly Slot[])[], names: readonly string[]) {
  return points.map((p, i) => {
    if (p.complete) return p;
    const missing = missingThings(series, i, names);
    if (!missing.length) return p;
    return { ...p, missing: missing.slice(0, MISSING_NAMES_MAX), missingCount: missing.length };
  });
}

export type QueryService = ReturnType<typeof createQueryService>;
