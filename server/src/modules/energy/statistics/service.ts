import {
  CIRCLE_KEYS,
  CIRCLE_METRIC_NAMES,
  type CircleMetrics,
  type EffectiveAbility,
  MAX_STATISTICS_SERIES,
  type MetricQuery,
  naturalCompare,
  type PlantCalendar,
  type QueryAggregator,
  type QueryResult,
  type ResourceType,
  type RunningCircle,
  STATISTICS_MAX_CELLS,
  type StatisticsQuery,
  type StatisticsResult,
  type StatisticsSeries,
  type Thing,
  toMillis,
} from '@kilowatch/contract';
import { AppError } from '../../../errors.ts';
import { slicer } from '../../../shared/slices.ts';
import type { Catalog, Resolved } from '../../catalog/index.ts';
import type { QueryService } from '../../query/index.ts';
import type { FilterGroupService } from '../filters/service.ts';
import { createPeriods } from '../periods.ts';

export interface StatisticsDeps {
  catalog: Pick<Catalog, 'select' | 'selectThings'>;
  /** The one telemetry query: buckets, counter consumption with resets, comparisons. */
  query: Pick<QueryService, 'data' | 'dataOf'>;
  filterGroups: Pick<FilterGroupService, 'get'>;
  /** The plant calendar (PLANT_TIMEZONE), built once for the server. */
  calendar: PlantCalendar;
  now: () => number;
}

/** One series asked for: a thing, or a region with its sub-regions' things. */
export interface Member {
  key: string;
  resourceType: ResourceType;
  resourceId: number;
  /** Its own name (a filter's), else the thing's or region's. */
  name: string;
}

/** Aggregators whose values add up across buckets and series (they get a SUM line). */
const ADDITIVE = new Set<QueryAggregator>(['delta', 'sum', 'count']);

/** Values (things × buckets) asked of the store in one read of things. */
const READ_CELLS = 20_000;

const badRange = () => new AppError('BAD_REQUEST', 400, {}, { message: 'statistics.badRange' });

/** A series' value over the whole range, by its aggregator. */
function totalOf(values: readonly (number | null)[], aggregator: QueryAggregator): number | null {
  const present = values.filter((v): v is number => v !== null);
  if (present.length === 0) return null;
  switch (aggregator) {
    case 'max':
      return Math.max(...present);
    case 'min':
      return Math.min(...present);
    case 'avg':
      return present.reduce((a, b) => a + b, 0) / present.length;
    case 'first':
      return present[0] ?? null;
    case 'last':
      return present[present.length - 1] ?? null;
    default:
      return present.reduce((a, b) => a + b, 0);
  }
}

/** The SUM line: bucket by bucket over the series (null where none has a value). */
function sumLine(rows: readonly (readonly (number | null)[])[], width: number): (number | null)[] {
  const out: (number | null)[] = new Array(width).fill(null);
  for (const row of rows) {
    row.forEach((v, i) => {
      if (v !== null) out[i] = (out[i] ?? 0) + v;
    });
  }
  return out;
}

/**
 * Energy statistics (docs/statistics.md): a metric of several things, regions or a filter
 * group's filters over a calendar range of the plant, each series read by the query service —
 * the one place counters become consumption (resets handled) and comparisons are computed.
 */
export function createStatisticsService(deps: StatisticsDeps) {
  const { calendar } = deps;
  const periods = createPeriods(calendar);

  async function members(q: StatisticsQuery): Promise<Member[]> {
    if (q.resourceType === 'filterGroup') {
      const group = await deps.filterGroups.get(q.resourceIds[0] as number);
      return group.filters.map((f) => ({
        key: `filter:${f.id}`,
        resourceType: f.resourceType,
        resourceId: f.resourceId,
        name: f.name || f.resourceName,
      }));
    }
    const type = q.resourceType;
    return [...new Set(q.resourceIds)].map((id) => ({
      key: `${type}:${id}`,
      resourceType: type,
      resourceId: id,
      name: '',
    }));
  }

  /** [start, end) and the bucket unit of a query. */
  function rangeOf(q: StatisticsQuery) {
    const groupByTime = q.groupByTime ?? periods.bucketOf(q.period);
    if (q.endTime !== undefined) {
      if (q.startTime === undefined) throw badRange();
      const start = toMillis(q.startTime);
      const end = toMillis(q.endTime);
      if (!(end > start)) throw badRange();
      return { start, end, groupByTime, free: true };
    }
    const { start, end } = periods.range(
      q.period,
      q.startTime !== undefined ? toMillis(q.startTime) : deps.now(),
    );
    return { start, end, groupByTime, free: false };
  }

  /** The buckets a query's range holds (an export checks its size before it starts). */
  function bucketsOf(q: StatisticsQuery): number {
    const { start, end, groupByTime } = rangeOf(q);
    return periods.bucketCount(start, end, groupByTime);
  }

  /** A member's things having `metric` (none when it has none), with their abilities. */
  async function resolve(m: Member, metric: string | undefined, categoryId: number | undefined) {
    try {
      return await deps.catalog.select({
        resourceType: m.resourceType,
        id: m.resourceId,
        successor: true,
        categoryId: m.resourceType === 'region' ? categoryId : undefined,
        ability: metric,
      });
    } catch (error) {
      // A filter may name a thing or region deleted since: it draws no values.
      if (m.key.startsWith('filter:') && error instanceof AppError && error.status === 404) {
        return { name: m.name, things: [], abilities: new Map<number, readonly EffectiveAbility[]>() };
      }
      throw error;
    }
  }

  /** Every member resolved; things asked by id are read together (one query, not one each). */
  async function resolveAll(
    list: readonly Member[],
    metric: string | undefined,
    categoryId: number | undefined,
  ) {
    const direct = list.flatMap((m, i) =>
      m.resourceType === 'thing' && !m.key.startsWith('filter:') ? [i] : [],
    );
    const batched = new Set(direct);
    const out: Resolved[] = new Array(list.length);
    const [things] = await Promise.all([
      deps.catalog.selectThings(
        direct.map((i) => (list[i] as Member).resourceId),
        metric,
      ),
      ...list.map(async (m, i) => {
        if (!batched.has(i)) out[i] = await resolve(m, metric, categoryId);
      }),
    ]);
    direct.forEach((i, k) => {
      out[i] = things[k] as Resolved;
    });
    return out;
  }

  async function range(q: StatisticsQuery, circleMetrics: CircleMetrics = {}): Promise<StatisticsResult> {
    const list = await members(q);
    if (list.length > MAX_STATISTICS_SERIES) {
      throw new AppError(
        'BAD_REQUEST',
        400,
        { max: MAX_STATISTICS_SERIES },
        { message: 'statistics.tooManySeries' },
      );
    }
    const { start, end, groupByTime, free } = rangeOf(q);
    const metric = q.metricIdentifier;
    const resolved = await resolveAll(list, metric, q.categoryId);
    const buckets = periods.bucketCount(start, end, groupByTime);
    const cells =
      resolved.reduce((n, r) => n + Math.max(1, r.things.length), 0) * buckets * (q.compare ? 2 : 1);
    if (cells > STATISTICS_MAX_CELLS) {
      throw new AppError(
        'BAD_REQUEST',
        400,
        { cells, max: STATISTICS_MAX_CELLS },
        { message: 'statistics.tooManyCells' },
      );
    }

    let ability: EffectiveAbility | undefined;
    for (const r of resolved) {
      for (const t of r.things) {
        ability ??= r.abilities.get(t.id)?.find((a) => a.identifier === metric);
      }
    }
    if (!ability) throw new AppError('UNPROCESSABLE', 422, { metric }, { message: 'statistics.noMetric' });
    const aggregator: QueryAggregator = q.aggregator ?? (ability.cumulative ? 'delta' : ability.aggregator);

    const base: Omit<MetricQuery, 'resourceType' | 'resourceId'> = {
      metricIdentifier: metric,
      aggregator,
      groupByTime,
      groupByInterval: 1,
      successor: true,
      combine: 'sum',
      ...(free ? { startTime: start, endTime: end } : { period: q.period, startTime: start }),
      ...(q.compare ? { compare: q.compare } : {}),
    };
    // Things are read together (one store read for all of them), regions one by one (each is a sum).
    const thingAt = list.flatMap((m, i) =>
      m.resourceType === 'thing' && resolved[i]?.things.length ? [i] : [],
    );
    const answers: (QueryResult | null)[] = await Promise.all(
      list.map((m, i) =>
        m.resourceType === 'region' && resolved[i]?.things.length
          ? deps.query.data(
              {
                ...base,
                resourceType: 'region',
                resourceId: m.resourceId,
                ...(q.categoryId ? { categoryId: q.categoryId } : {}),
              },
              null,
            )
          : Promise.resolve(null),
      ),
    );
    // A few thousand values per read: each read is one pass of the event loop (docs/statistics.md#limits).
    const perRead = Math.max(1, Math.floor(READ_CELLS / buckets));
    const pause = slicer();
    for (let from = 0; from < thingAt.length; from += perRead) {
      await pause();
      const part = thingAt.slice(from, from + perRead);
      const together = await manyThings(
        base,
        part.map((i) => resolved[i] as Resolved),
      );
      for (const i of part) answers[i] = together.get(resolved[i]?.things[0]?.id as number) ?? null;
    }

    const keySet = new Set<number>();
    for (const a of answers) for (const p of a?.result ?? []) keySet.add(p.key);
    const keys = [...keySet].sort((a, b) => a - b);
    const index = new Map(keys.map((k, i) => [k, i]));
    const compared = answers.find((a) => a?.compare)?.compare;

    const series: StatisticsSeries[] = list.map((m, i) => {
      const answer = answers[i] ?? null;
      const values: (number | null)[] = new Array(keys.length).fill(null);
      for (const p of answer?.result ?? []) values[index.get(p.key) as number] = p.value;
      const out: StatisticsSeries = {
        key: m.key,
        name: m.name || (resolved[i]?.name ?? ''),
        resourceType: m.resourceType,
        resourceId: m.resourceId,
        identifier: m.resourceType === 'thing' ? (resolved[i]?.things[0]?.identifier ?? '') : '',
        values,
        total: totalOf(values, aggregator),
        hasMetric: answer !== null,
      };
      if (q.compare) {
        const previous: (number | null)[] = new Array(keys.length).fill(null);
        for (const p of answer?.compare?.result ?? []) {
          const at = index.get(p.key);
          if (at !== undefined) previous[at] = p.value;
        }
        out.compare = { values: previous, total: totalOf(previous, aggregator) };
      }
      return out;
    });

    let total: StatisticsResult['total'] = null;
    if (ADDITIVE.has(aggregator)) {
      const values = sumLine(
        series.map((s) => s.values),
        keys.length,
      );
      total = { values, total: totalOf(values, aggregator) };
      if (q.compare) {
        const previous = sumLine(
          series.map((s) => s.compare?.values ?? []),
          keys.length,
        );
        total.compare = { values: previous, total: totalOf(previous, aggregator) };
      }
    }

    const label = periods.labeler(groupByTime, start, end);
    const result: StatisticsResult = {
      metricIdentifier: metric,
      metricName: ability.name,
      unit: answers.find((a) => a)?.unit ?? ability.unit,
      aggregator,
      timeZone: calendar.timeZone,
      startTime: start,
      endTime: end,
      groupByTime,
      keys,
      labels: keys.map(label),
      series,
      total,
      ...(compared ? { compare: { startTime: compared.startTime, endTime: compared.endTime } } : {}),
    };
    if (q.circle) result.circle = await circle(list, q, circleMetrics);
    return result;
  }

  /**
   * One query over many things (`dataOf`), split back into one answer per thing: the same
   * buckets, counter rule and comparison as a query per thing, at the cost of one store read.
   */
  async function manyThings(
    base: Omit<MetricQuery, 'resourceType' | 'resourceId'>,
    selections: readonly Resolved[],
  ): Promise<Map<number, QueryResult>> {
    const things = selections.flatMap((r) => r.things);
    const abilities = new Map(selections.flatMap((r) => [...r.abilities]));
    const all = await deps.query.dataOf(
      { ...base, resourceType: 'region', resourceId: things[0]?.id ?? 1, combine: 'none' },
      { name: '', things, abilities },
      (t) => String(t.id),
    );
    const byGroup = <P extends { group: string }>(points: readonly P[]) => {
      const map = new Map<string, P[]>();
      for (const p of points) {
        const list = map.get(p.group);
        if (list) list.push(p);
        else map.set(p.group, [p]);
      }
      return map;
    };
    const result = byGroup(all.result);
    const compared = all.compare ? byGroup(all.compare.result) : null;
    const out = new Map<number, QueryResult>();
    for (const t of things) {
      const group = String(t.id);
      out.set(t.id, {
        ...all,
        result: result.get(group) ?? [],
        ...(all.compare ? { compare: { ...all.compare, result: compared?.get(group) ?? [] } } : {}),
      });
    }
    return out;
  }

  /**
   * The running circle (spec §3, §9): hours run, hours stopped and startups over the range,
   * from the counters named 运行时长 / 停机时长 / 启动次数 (or the identifiers the config names),
   * summed over the distinct things behind the series.
   */
  async function circle(
    list: readonly Member[],
    q: StatisticsQuery,
    named: CircleMetrics,
  ): Promise<RunningCircle> {
    const things = new Map<
      number,
      { thing: Resolved['things'][number]; abilities: readonly EffectiveAbility[] }
    >();
    for (const m of list) {
      const r = await resolve(m, undefined, q.categoryId);
      for (const t of r.things) things.set(t.id, { thing: t, abilities: r.abilities.get(t.id) ?? [] });
    }
    const names: Record<(typeof CIRCLE_KEYS)[number], string> = {
      running: CIRCLE_METRIC_NAMES[0],
      startupTimes: CIRCLE_METRIC_NAMES[1],
      notRunning: CIRCLE_METRIC_NAMES[2],
    };
    const { start, end } = rangeOf(q);
    const out: RunningCircle = { running: 0, notRunning: 0, startupTimes: 0, things: 0 };
    /** The things reporting each part, by the identifier they report it under. */
    const parts = new Map<
      string,
      { key: (typeof CIRCLE_KEYS)[number]; ability: EffectiveAbility; selection: Resolved }
    >();
    for (const [thingId, { thing, abilities }] of things) {
      let reports = false;
      for (const key of CIRCLE_KEYS) {
        const ability = abilities.find((a) =>
          named[key] !== undefined ? a.identifier === named[key] : a.name === names[key],
        );
        if (!ability) continue;
        reports = true;
        const id = `${key}\u0000${ability.identifier}`;
        const part = parts.get(id) ?? {
          key,
          ability,
          selection: { name: '', things: [], abilities: new Map() },
        };
        (part.selection.things as (typeof thing)[]).push(thing);
        (part.selection.abilities as Map<number, readonly EffectiveAbility[]>).set(thingId, abilities);
        parts.set(id, part);
      }
      if (reports) out.things++;
    }
    const reads = [...parts.values()].map(async ({ key, ability, selection }) => {
      const answer = await deps.query.dataOf(
        {
          resourceType: 'region',
          resourceId: selection.things[0]?.id ?? 1,
          metricIdentifier: ability.identifier,
          aggregator: ability.cumulative ? 'delta' : 'sum',
          combine: 'none',
          groupByTime: 'day',
          groupByInterval: 1,
          startTime: start,
          endTime: end,
        },
        selection,
        (t) => t.name,
      );
      out[key] +=
        totalOf(
          answer.result.map((p) => p.value),
          'sum',
        ) ?? 0;
    });
    await Promise.all(reads);
    return out;
  }

  /**
   * The distinct things behind a query's series that have its metric (the ERP export's rows):
   * a region's or a filter's things, in series order.
   */
  async function thingsOf(q: StatisticsQuery): Promise<Thing[]> {
    const ids = new Map<number, Thing>();
    for (const m of await members(q)) {
      for (const t of (await resolve(m, q.metricIdentifier, q.categoryId)).things) ids.set(t.id, t);
    }
    if (ids.size === 0) {
      throw new AppError(
        'UNPROCESSABLE',
        422,
        { metric: q.metricIdentifier },
        { message: 'statistics.noMetric' },
      );
    }
    return [...ids.values()];
  }

  /**
   * The numeric abilities of the things behind a thing, a region (recursively) or a filter group,
   * each once with how many things have it, sorted by name (the EnPI metric picker's).
   */
  async function abilitiesOf(
    resourceType: 'thing' | 'region' | 'filterGroup',
    resourceId: number,
  ): Promise<{ identifier: string; name: string; unit: string; cumulative: boolean; things: number }[]> {
    const found = new Map<
      string,
      { identifier: string; name: string; unit: string; cumulative: boolean; things: Set<number> }
    >();
    const list = await members({ resourceType, resourceIds: [resourceId], period: 'day' } as StatisticsQuery);
    for (const m of list) {
      const res = await resolve(m, undefined, undefined);
      for (const thing of res.things)
        for (const a of res.abilities.get(thing.id) ?? []) {
          if (a.dataType !== 'number') continue;
          const entry = found.get(a.identifier) ?? {
            identifier: a.identifier,
            name: a.name,
            unit: a.unit,
            cumulative: a.cumulative,
            things: new Set<number>(),
          };
          entry.things.add(thing.id);
          found.set(a.identifier, entry);
        }
    }
    return [...found.values()]
      .map((a) => ({ ...a, things: a.things.size }))
      .sort((a, b) => naturalCompare(a.name, b.name) || naturalCompare(a.identifier, b.identifier));
  }

  return { range, thingsOf, bucketsOf, abilitiesOf };
}

export type StatisticsService = ReturnType<typeof createStatisticsService>;
