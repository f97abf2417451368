import {
  ENPI_CVRMSE_MAX,
  ENPI_EXTRA_POINTS,
  ENPI_MAX_DAYS,
  ENPI_R2_MIN,
  type Enpi,
  type EnpiGap,
  type EnpiInput,
  type EnpiModel,
  type EnpiOutputEntry,
  type EnpiPeriodRow,
  type EnpiReport,
  type EnpiReportQuery,
  type EnpiSource,
  type EnpiVariable,
  PlantCalendar,
  type StatisticsQuery,
} from '@kilowatch/contract';
import type { Db } from '../../../db/sql.ts';
import { isUniqueViolation } from '../../../db/sql.ts';
import { AppError } from '../../../errors.ts';
import type { MessageKey, MessageParams } from '../../../i18n/index.ts';
import type { StatisticsService } from '../statistics/service.ts';
import { dateOfDay, nextPeriod, periodLabel, periodStart, periodStarts } from './periods.ts';
import { fitOls, isFit, predict } from './regression.ts';
import * as repo from './repository.ts';

export interface EnpiDeps {
  db: Db;
  /** The statistics read: counter consumption with resets, daily means, on the plant calendar. */
  statistics: Pick<StatisticsService, 'range' | 'abilitiesOf'>;
  /** The plant calendar (PLANT_TIMEZONE), built once for the server. */
  calendar: PlantCalendar;
  now: () => number;
}

/** Translates a message key in the caller's language (the report's model error). */
export type Translate = (key: MessageKey, params?: MessageParams) => string;

const notFound = () => new AppError('NOT_FOUND', 404, {}, { message: 'enpi.notFound' });
const unprocessable = (message: MessageKey, params: MessageParams = {}) =>
  new AppError('UNPROCESSABLE', 422, params, { message });

/** Values per local day (bucket start → its day), from one statistics answer. */
type DayValues = Map<number, number>;

/**
 * EnPI and baselines (ISO 50006, docs/enpi.md): energy per unit of output per period, and a
 * baseline fitted by least squares on output and degree days, with expected energy, savings and
 * their cumulative sum after the baseline.
 */
export function createEnpiService(deps: EnpiDeps) {
  const { db, now } = deps;
  const { calendar } = deps;
  const iso = () => new Date(now()).toISOString();

  async function get(id: number): Promise<Enpi> {
    const [found] = await repo.listEnpis(db, id);
    if (!found) throw notFound();
    return found;
  }

  /** One statistics read of a source over local days [from, to], by day or by month. */
  async function read(
    source: Pick<EnpiSource, 'resourceType' | 'resourceId' | 'metricIdentifier' | 'categoryId'>,
    from: number,
    to: number,
    bucket: 'day' | 'month',
    aggregator?: StatisticsQuery['aggregator'],
  ) {
    const result = await deps.statistics.range({
      resourceType: source.resourceType,
      resourceIds: [source.resourceId],
      metricIdentifier: source.metricIdentifier,
      ...(source.categoryId ? { categoryId: source.categoryId } : {}),
      period: bucket === 'day' ? 'month' : 'year',
      startTime: calendar.dayStart(from),
      endTime: calendar.dayStart(to + 1),
      groupByTime: bucket,
      ...(aggregator ? { aggregator } : {}),
    });
    // A filter group answers one series per filter and their SUM line; a thing or region, one.
    const values = result.total?.values ?? result.series[0]?.values ?? [];
    const byDay: DayValues = new Map();
    result.keys.forEach((key, i) => {
      const v = values[i];
      if (v !== null && v !== undefined) byDay.set(calendar.dayOf(key), v);
    });
    return { byDay, unit: result.unit, aggregator: result.aggregator };
  }

  /** Refuses a definition whose sources do not read as the EnPI needs (counters, a temperature). */
  async function check(input: EnpiInput): Promise<void> {
    const start = PlantCalendar.dayOfDate(input.baselineStart);
    const end = PlantCalendar.dayOfDate(input.baselineEnd);
    if (start === null) throw unprocessable('enpi.badDate', { value: input.baselineStart });
    if (end === null) throw unprocessable('enpi.badDate', { value: input.baselineEnd });
    if (end < start) throw unprocessable('enpi.baselineOrder');
    if (end - start > ENPI_MAX_DAYS) throw unprocessable('enpi.rangeTooLong', { days: ENPI_MAX_DAYS });
    for (const v of ['hdd', 'cdd'] as const) {
      if (!input.variables.includes(v)) continue;
      const base = v === 'hdd' ? input.temperature?.heatingBase : input.temperature?.coolingBase;
      if (base === null || base === undefined) throw unprocessable('enpi.needsTemperature', { variable: v });
    }
    const today = calendar.dayOf(now());
    const counter = async (source: EnpiSource) => {
      const { aggregator } = await read(source, today, today, 'day');
      if (aggregator !== 'delta') throw unprocessable('enpi.notCounter', { metric: source.metricIdentifier });
    };
    await counter(input.energy);
    if (input.output.kind === 'metric') await counter(input.output.source);
    if (input.temperature) {
      await read(
        { resourceType: 'thing', resourceId: input.temperature.thingId, ...input.temperature },
        today,
        today,
        'day',
        'avg',
      );
    }
  }

  async function save(id: number | null, input: EnpiInput): Promise<Enpi> {
    if (id !== null) await get(id);
    await check(input);
    try {
      if (id === null) return await get(await repo.insertEnpi(db, input, iso()));
      if (!(await repo.updateEnpi(db, id, input, iso()))) throw notFound();
      return await get(id);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new AppError('CONFLICT', 409, { name: input.name }, { message: 'enpi.nameTaken' });
      }
      throw error;
    }
  }

  async function remove(id: number): Promise<void> {
    if (!(await repo.deleteEnpi(db, id))) throw notFound();
  }

  async function outputs(id: number): Promise<EnpiOutputEntry[]> {
    await get(id);
    return repo.listOutputs(db, id);
  }

  async function putOutput(id: number, entry: EnpiOutputEntry): Promise<EnpiOutputEntry> {
    const enpi = await get(id);
    if (enpi.output.kind !== 'entered') throw unprocessable('enpi.outputMetered');
    const day = PlantCalendar.dayOfDate(entry.period);
    if (day === null) throw unprocessable('enpi.badDate', { value: entry.period });
    if (periodStart(enpi.period, day) !== day) {
      throw unprocessable('enpi.notPeriodStart', {
        value: entry.period,
        first: dateOfDay(periodStart(enpi.period, day)),
      });
    }
    await repo.putOutput(db, id, entry, iso());
    return entry;
  }

  async function removeOutput(id: number, period: string): Promise<void> {
    await get(id);
    if (!(await repo.deleteOutput(db, id, period))) {
      throw new AppError('NOT_FOUND', 404, { value: period }, { message: 'enpi.outputNotFound' });
    }
  }

  /** Sums day values into the periods; a period without any day is null. */
  function perPeriod(byDay: DayValues, starts: readonly number[], period: Enpi['period']): (number | null)[] {
    const index = new Map(starts.map((s, i) => [s, i]));
    const out: (number | null)[] = starts.map(() => null);
    for (const [day, v] of byDay) {
      const i = index.get(periodStart(period, day));
      if (i !== undefined) out[i] = (out[i] ?? 0) + v;
    }
    return out;
  }

  async function report(id: number, q: EnpiReportQuery, t: Translate): Promise<EnpiReport> {
    const enpi = await get(id);
    const today = calendar.dayOf(now());
    const baseStart = PlantCalendar.dayOfDate(enpi.baselineStart) as number;
    const baseEnd = PlantCalendar.dayOfDate(enpi.baselineEnd) as number;
    const from = q.from !== undefined ? PlantCalendar.dayOfDate(q.from) : baseStart;
    const to = q.to !== undefined ? PlantCalendar.dayOfDate(q.to) : today;
    if (from === null) throw unprocessable('enpi.badDate', { value: String(q.from) });
    if (to === null) throw unprocessable('enpi.badDate', { value: String(q.to) });
    if (to < from) throw unprocessable('enpi.rangeOrder');
    // The baseline is always read, whatever range is shown: the model needs its periods.
    const first = Math.min(from, baseStart);
    const last = Math.max(to, baseEnd);
    if (last - first > ENPI_MAX_DAYS) throw unprocessable('enpi.rangeTooLong', { days: ENPI_MAX_DAYS });

    const starts = periodStarts(enpi.period, first, last);
    const span = {
      from: starts[0] as number,
      to: nextPeriod(enpi.period, starts[starts.length - 1] as number) - 1,
    };
    const bucket = enpi.period === 'month' ? 'month' : 'day';

    const energyRead = await read(enpi.energy, span.from, span.to, bucket);
    const energy = perPeriod(energyRead.byDay, starts, enpi.period);
    let output: (number | null)[];
    if (enpi.output.kind === 'metric') {
      output = perPeriod(
        (await read(enpi.output.source, span.from, span.to, bucket)).byDay,
        starts,
        enpi.period,
      );
    } else {
      const entered = new Map((await repo.listOutputs(db, id)).map((e) => [e.period, e.value]));
      output = starts.map((s) => entered.get(dateOfDay(s)) ?? null);
    }
    let hdd: (number | null)[] = starts.map(() => null);
    let cdd: (number | null)[] = starts.map(() => null);
    const temp = enpi.temperature;
    if (temp) {
      const means = (
        await read(
          { resourceType: 'thing', resourceId: temp.thingId, ...temp },
          span.from,
          span.to,
          'day',
          'avg',
        )
      ).byDay;
      // Degree days of each day from its mean; a day without a temperature counts nothing.
      const degrees = (base: number | null, sign: 1 | -1) => {
        if (base === null) return starts.map(() => null);
        const daily: DayValues = new Map();
        for (const [day, mean] of means) daily.set(day, Math.max(0, sign * (base - mean)));
        return perPeriod(daily, starts, enpi.period);
      };
      hdd = degrees(temp.heatingBase, 1);
      cdd = degrees(temp.coolingBase, -1);
    }

    const variableOf: Record<EnpiVariable, (number | null)[]> = { output, hdd, cdd };
    const rowOf = (i: number): number[] | null => {
      const row = enpi.variables.map((v) => variableOf[v][i] ?? null);
      return row.every((x): x is number => x !== null) ? row : null;
    };
    const inBaseline = starts.map((s) => s >= baseStart && nextPeriod(enpi.period, s) - 1 <= baseEnd);

    const xs: number[][] = [];
    const ys: number[] = [];
    starts.forEach((_, i) => {
      const row = rowOf(i);
      const e = energy[i];
      if (inBaseline[i] && row && e !== null && e !== undefined) {
        xs.push(row);
        ys.push(e);
      }
    });
    const fit = fitOls(xs, ys, ENPI_EXTRA_POINTS);
    let model: EnpiModel | null = null;
    let modelError: EnpiReport['modelError'] = null;
    if (isFit(fit)) {
      const cvrmseMax = ENPI_CVRMSE_MAX[enpi.period];
      model = {
        variables: enpi.variables,
        intercept: fit.intercept,
        coefficients: fit.coefficients,
        n: fit.n,
        r2: fit.r2,
        cvrmse: fit.cvrmse,
        adequate: fit.r2 >= ENPI_R2_MIN && fit.cvrmse <= cvrmseMax,
        r2Min: ENPI_R2_MIN,
        cvrmseMax,
      };
    } else {
      const key: MessageKey =
        fit.kind === 'tooFewPoints'
          ? 'enpi.tooFewPoints'
          : fit.kind === 'singular'
            ? 'enpi.singular'
            : 'enpi.noBaselineEnergy';
      const params: MessageParams = fit.kind === 'tooFewPoints' ? { n: fit.n, needed: fit.needed } : {};
      modelError = { code: fit.kind, message: t(key, params) };
    }

    let cusum = 0;
    const totals = {
      energy: null as number | null,
      expected: null as number | null,
      savings: null as number | null,
    };
    const add = (k: keyof typeof totals, v: number | null) => {
      if (v !== null) totals[k] = (totals[k] ?? 0) + v;
    };
    const periods: EnpiPeriodRow[] = [];
    starts.forEach((s, i) => {
      const end = nextPeriod(enpi.period, s);
      if (end - 1 < from || s > to) return;
      const e = energy[i] ?? null;
      const o = output[i] ?? null;
      const gap: EnpiGap | null =
        e === null ? 'noEnergy' : o === null ? 'noOutput' : o === 0 ? 'zeroOutput' : null;
      const row = rowOf(i);
      const expected = model && row ? predict(model, row) : null;
      const savings = expected !== null && e !== null ? expected - e : null;
      const after = s > baseEnd;
      if (after && savings !== null) cusum += savings;
      if (after) {
        add('energy', e);
        add('expected', expected);
        add('savings', savings);
      }
      periods.push({
        period: dateOfDay(s),
        label: periodLabel(enpi.period, s),
        startTime: calendar.dayStart(s),
        endTime: calendar.dayStart(end),
        energy: e,
        output: o,
        enpi: gap === null ? (e as number) / (o as number) : null,
        gap,
        hdd: hdd[i] ?? null,
        cdd: cdd[i] ?? null,
        inBaseline: inBaseline[i] as boolean,
        expected,
        savings,
        cusum: after && model ? cusum : null,
      });
    });
    return {
      enpi,
      timeZone: calendar.timeZone,
      energyUnit: energyRead.unit,
      periods,
      model,
      modelError,
      totals,
    };
  }

  return {
    list: () => repo.listEnpis(db),

    /** The numeric abilities of a source, for the metric picker (404 unknown source). */
    abilities: (q: { resourceType: 'thing' | 'region' | 'filterGroup'; resourceId: number }) =>
      deps.statistics.abilitiesOf(q.resourceType, q.resourceId),
    get,
    create: (input: EnpiInput) => save(null, input),
    update: (id: number, input: EnpiInput) => save(id, input),
    remove,
    outputs,
    putOutput,
    removeOutput,
    report,
  };
}

export type EnpiService = ReturnType<typeof createEnpiService>;
