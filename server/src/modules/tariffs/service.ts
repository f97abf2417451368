import {
  BAND_KINDS,
  type BandAmounts,
  type Bill,
  type BillCoverage,
  type BillQuery,
  checkVersion,
  DAY,
  dayTypeOf,
  HOUR,
  isLocalDate,
  MINUTE,
  PlantCalendar,
  type RegionNode,
  type Tariff,
  type TariffCreate,
  type TariffIssue,
  type TariffSource,
  type TariffUpdate,
  type TariffVersion,
  type TariffVersionBody,
  type TariffVersionInput,
  type TariffWriteResult,
  type Thing,
  type TpfcAmounts,
  type TpfcQuery,
  type TpfcResult,
  type TpfcRow,
  versionOn,
} from '@kilowatch/contract';
import type { Db } from '../../db/sql.ts';
import { isUniqueViolation } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import type { MessageKey } from '../../i18n/index.ts';
import type { TelemetryStore } from '../../telemetry/index.ts';
import type { Catalog } from '../catalog/index.ts';
import { type DemandMax, demandRegister, maxDemand } from './demand.ts';
import { adjustmentPercent, monthlyPowerFactor, round2 } from './power-factor.ts';
import { BandTotals, fineHours, type PricedTariff, type SlotPlan, slotPlan, slotWidth } from './pricing.ts';
import * as repo from './repository.ts';

export interface TariffDeps {
  db: Db;
  catalog: Pick<Catalog, 'select'>;
  store: Pick<TelemetryStore, 'buckets' | 'bucketColumns' | 'pointColumns' | 'summedRegister'>;
  /** PLANT_TIMEZONE: versions start, days are typed and bands read on its calendar. */
  timeZone: string;
  now: () => number;
  /** RETENTION_RAW_DAYS: demand before it is read from the minute rollups (without it, raw only). */
  rawRetentionDays?: number;
  /** Read every slot at the plan's width, without hour rollups (a test compares both reads). */
  wholeSlots?: boolean;
  /** Raw points asked of the store in one read for demand (default POINTS_CHUNK; a test pages with a few). */
  pointsPerRead?: number;
  /** The region tree with its things: a target's own tariff is its region's or an ancestor's. */
  regions?: () => Promise<RegionNode[]>;
  /** The plant's tariff (erpConfig's tariffId), what prices a target no region's tariff covers. */
  plantTariffId?: () => Promise<number | null>;
}

/** The demo's and most meters' active energy counter (kWh) and reactive counter (kvarh). */
export const DEFAULT_ENERGY_METRIC = 'EP';
export const DEFAULT_REACTIVE_METRIC = 'EQ';
/** Buckets asked of the store in one read (things × slots), well under its own cap. */
const READ_CHUNK = 1_000_000;

const notFound = () => new AppError('NOT_FOUND', 404, {}, { message: 'tariff.notFound' });
const unprocessable = (message: MessageKey, params: Record<string, string | number> = {}) =>
  new AppError('UNPROCESSABLE', 422, params, { message });

const ISSUE_MESSAGES: Record<TariffIssue['code'], MessageKey> = {
  badMonthDay: 'tariff.badMonthDay',
  seasonGap: 'tariff.seasonGap',
  seasonOverlap: 'tariff.seasonOverlap',
  bandEmpty: 'tariff.bandEmpty',
  bandGap: 'tariff.bandGap',
  bandOverlap: 'tariff.bandOverlap',
  missingPrice: 'tariff.missingPrice',
  badDate: 'tariff.badDate',
};

function checkBody(v: TariffVersionBody): void {
  const issue = checkVersion(v);
  if (!issue) return;
  const { code, ...params } = issue;
  throw unprocessable(ISSUE_MESSAGES[code], params);
}

const emptyAmounts = (): BandAmounts => ({ tip: 0, peak: 0, flat: 0, valley: 0, deepValley: 0 });

function amounts(t: BandTotals): TpfcAmounts {
  const energy = emptyAmounts();
  const cost = emptyAmounts();
  let totalEnergy = 0;
  let totalCost = 0;
  BAND_KINDS.forEach((band, i) => {
    energy[band] = round4(t.energy[i] as number);
    cost[band] = round2(t.cost[i] as number);
    totalEnergy += t.energy[i] as number;
    totalCost += cost[band];
  });
  return {
    energy,
    cost,
    totalEnergy: round4(totalEnergy),
    totalCost: round2(totalCost),
    unpricedEnergy: round4(t.unpriced),
  };
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/**
 * Tariffs as calendars with dated versions, the cost of energy by band (TPFC) and the monthly bill
 * (docs/tariffs.md). Costs are computed on read from the versions in force on each day; a version
 * that has started is changed only with `retroactive`, and the answer names the recomputed range.
 */
export function createTariffService(deps: TariffDeps) {
  const { db, now } = deps;
  const calendar = new PlantCalendar(deps.timeZone);
  const iso = () => new Date(now()).toISOString();
  const today = () => calendar.dateOf(now());

  async function get(id: number): Promise<Tariff> {
    const [tariff] = await repo.listTariffs(db, id);
    if (!tariff) throw notFound();
    return tariff;
  }

  const dayBefore = (date: string) =>
    new Date(Date.parse(`${date}T00:00:00Z`) - DAY).toISOString().slice(0, 10);
  const minDate = (a: string, b: string) => (a < b ? a : b);

  /**
   * The past range a change of versions touches: from `from` up to the day before the next
   * version (or today); null when it lies wholly in the future. Without `retroactive`, a 422.
   */
  function pastRange(
    from: string,
    nextFrom: string | undefined,
    retroactive: boolean | undefined,
  ): { from: string; to: string } | null {
    const t = today();
    if (from > t) return null;
    const to = nextFrom ? minDate(dayBefore(nextFrom), t) : t;
    if (!retroactive) throw unprocessable('tariff.retroactive', { from, to });
    return { from, to };
  }

  const nextStart = (versions: readonly TariffVersion[], after: string, except?: number) =>
    versions.find((v) => v.validFrom > after && v.id !== except)?.validFrom;

  function checkDays(fields: { holidays: readonly string[]; workdays: readonly string[] }): void {
    for (const value of [...fields.holidays, ...fields.workdays]) {
      if (!isLocalDate(value)) throw unprocessable('tariff.badDate', { value });
    }
  }

  const fieldsOf = (t: TariffCreate | TariffUpdate): repo.TariffRow => ({
    name: t.name.trim(),
    description: t.description ?? '',
    holidays: [...new Set(t.holidays)].sort(),
    workdays: [...new Set(t.workdays)].sort(),
    weekendDays: [...new Set(t.weekendDays)].sort(),
  });

  const duplicate = (error: unknown, validFrom: string) => {
    if (isUniqueViolation(error))
      return new AppError('CONFLICT', 409, { date: validFrom }, { message: 'tariff.duplicateVersion' });
    return error;
  };

  const priced = (t: Tariff): PricedTariff => ({
    rules: { holidays: t.holidays, workdays: t.workdays, weekendDays: t.weekendDays },
    versions: t.versions,
  });

  /** Every counter bucket of `things` over [start, end) at `width`, in chunks the store takes. */
  async function readWidth(
    things: readonly Thing[],
    metric: string,
    start: number,
    end: number,
    width: number,
    onBucket: (thing: number, at: number, kwh: number) => void,
    hours?: readonly number[],
  ): Promise<void> {
    const slotsPerDay = DAY / width;
    // Whole local days per read, as many as keep things × slots under the chunk.
    const perThing = Math.max(1, Math.floor(READ_CHUNK / things.length / slotsPerDay));
    for (let day = calendar.dayOf(start); calendar.dayStart(day) < end; day += perThing) {
      const from = Math.max(start, calendar.dayStart(day));
      const to = Math.min(end, calendar.dayStart(day + perThing));
      const within = hours?.filter((h) => h >= from && h < to);
      if (within?.length === 0) continue;
      const { values, starts } = await deps.store.bucketColumns({
        series: things.map((t) => ({ thingId: t.id, metric })),
        start: from,
        end: to,
        bucket: { widthMs: width },
        aggregator: 'delta',
        ...(within ? { hours: within } : {}),
      });
      // Columns, not a bucket object each: a month of hours of 200 meters is 148,800 buckets.
      const n = starts.length - 1;
      things.forEach((_, k) => {
        for (let i = 0; i < n; i++) {
          const kwh = values[k * n + i] as number;
          if (kwh > 0 || kwh < 0) onBucket(k, starts[i] as number, kwh);
        }
      });
    }
  }

  /**
   * Every counter bucket of `things` over the plan's range, each given to the slot it starts in.
   * With `fine` (see `fineHours`), hours that price alike throughout are read from the hour
   * rollups, and only the others slot by slot: a quarter-hour tariff reads minute rows for the
   * few hours a band edge falls inside, not for the whole month.
   */
  async function readSlots(
    things: readonly Thing[],
    metric: string,
    plan: SlotPlan,
    end: number,
    fine: Uint8Array | null,
    onBucket: (thing: number, slot: number, kwh: number) => void,
  ): Promise<void> {
    if (things.length === 0) return;
    const { start, width } = plan;
    const slotOf = (ts: number) => Math.round((ts - start) / width);
    let mixed = 0;
    for (const f of fine ?? []) mixed += f;
    // The store's hours start at each local midnight and the cut hours are named by UTC hours: a
    // zone half an hour off UTC, or whose clock moves by half an hour, reads slot by slot.
    let aligned = start % HOUR === 0;
    for (let d = calendar.dayOf(start); calendar.dayStart(d) < end; d++)
      if ((calendar.dayStart(d) - start) % HOUR !== 0) aligned = false;
    // Mostly mixed hours: one read slot by slot costs less than many short ones.
    if (fine === null || deps.wholeSlots || !aligned || mixed * 2 > fine.length) {
      await readWidth(things, metric, start, end, width, (k, ts, kwh) => onBucket(k, slotOf(ts), kwh));
      return;
    }
    await readWidth(things, metric, start, end, HOUR, (k, ts, kwh) => {
      if (fine[Math.round((ts - start) / HOUR)] === 0) onBucket(k, slotOf(ts), kwh);
    });
    // The cut hours in one read per chunk: the store filters its rows to them.
    const cut: number[] = [];
    for (let h = 0; h < fine.length; h++) if (fine[h] === 1) cut.push(start + h * HOUR);
    await readWidth(things, metric, start, end, width, (k, ts, kwh) => onBucket(k, slotOf(ts), kwh), cut);
  }

  /** The things of a target that have the counter, checked to be a cumulative ability. */
  async function targetThings(resourceType: 'thing' | 'region', resourceId: number, metric: string) {
    const res = await deps.catalog.select({ resourceType, id: resourceId, successor: true, ability: metric });
    const counters = res.things.filter((t) =>
      res.abilities.get(t.id)?.some((a) => a.identifier === metric && a.cumulative),
    );
    if (resourceType === 'thing' && counters.length === 0)
      throw unprocessable('tariff.notCounter', { metric, name: res.name });
    /** Those of them that also count another cumulative ability (the reactive energy). */
    const alsoCounting = (other: string) =>
      counters.filter((t) => res.abilities.get(t.id)?.some((a) => a.identifier === other && a.cumulative));
    return { name: res.name, things: counters, alsoCounting };
  }

  /**
   * The tariff that prices a target when none is asked for (docs/tariffs.md "A region's tariff"):
   * a region's own, else its nearest ancestor's; a meter's, that of the nearest region it is bound
   * in (the first in tree order of equally near ones); else the plant's. Null when none applies.
   */
  async function resolveTariff(
    resourceType: 'thing' | 'region',
    resourceId: number,
  ): Promise<{ tariff: Tariff; source: TariffSource } | null> {
    const [own, tree, tariffs] = await Promise.all([
      repo.listRegionTariffs(db),
      deps.regions ? deps.regions() : Promise.resolve([] as RegionNode[]),
      repo.listTariffs(db),
    ]);
    const byId = new Map(tariffs.map((t) => [t.id, t]));
    const tariffOf = new Map(own.map((r) => [r.regionId, r.tariffId]));
    // Every path from a root to the target: a region once, a meter once per region it is bound in.
    const paths: RegionNode[][] = [];
    const walk = (nodes: readonly RegionNode[], above: RegionNode[]) => {
      for (const n of nodes) {
        if (n.resourceType === 'thing') {
          if (resourceType === 'thing' && n.thingId === resourceId) paths.push(above);
          continue;
        }
        const path = [...above, n];
        if (resourceType === 'region' && n.id === resourceId) paths.push(path);
        walk(n.children, path);
      }
    };
    walk(tree, []);
    let best: { region: RegionNode; distance: number } | null = null;
    for (const path of paths) {
      for (let k = path.length - 1; k >= 0; k--) {
        const region = path[k] as RegionNode;
        const distance = path.length - 1 - k;
        if (!byId.has(tariffOf.get(region.id) ?? 0)) continue;
        if (!best || distance < best.distance) best = { region, distance };
        break;
      }
    }
    if (best) {
      const tariff = byId.get(tariffOf.get(best.region.id) as number) as Tariff;
      return { tariff, source: { kind: 'region', region: { id: best.region.id, name: best.region.name } } };
    }
    const plant = deps.plantTariffId ? await deps.plantTariffId() : null;
    const tariff = plant === null ? undefined : byId.get(plant);
    return tariff ? { tariff, source: { kind: 'plant', region: null } } : null;
  }

  /**
   * Which hours of [start, end) have a reading of some of `things`' counter (hour buckets' counts),
   * the first and last reading to the minute, and the local days with none.
   */
  async function coverage(
    things: readonly Thing[],
    metric: string,
    start: number,
    end: number,
  ): Promise<BillCoverage> {
    const series = things.map((t) => ({ thingId: t.id, metric }));
    const hours = Math.round((end - start) / HOUR);
    const covered = new Uint8Array(hours);
    if (series.length > 0) {
      const { starts, values } = await deps.store.bucketColumns({
        series,
        start,
        end,
        bucket: { widthMs: HOUR },
        aggregator: 'count',
      });
      const n = starts.length - 1;
      for (let k = 0; k < series.length; k++)
        for (let i = 0; i < n; i++) if ((values[k * n + i] as number) > 0) covered[i] = 1;
    }
    /** The first (or last) minute of an hour with a reading. */
    const minuteIn = async (hour: number, last: boolean): Promise<number> => {
      const { starts, values } = await deps.store.bucketColumns({
        series,
        start: hour,
        end: hour + HOUR,
        bucket: { widthMs: MINUTE },
        aggregator: 'count',
      });
      const n = starts.length - 1;
      let found = last ? -1 : n;
      for (let k = 0; k < series.length; k++)
        for (let i = 0; i < n; i++)
          if ((values[k * n + i] as number) > 0) found = last ? Math.max(found, i) : Math.min(found, i);
      return hour + Math.min(Math.max(found, 0), n - 1) * MINUTE;
    };
    const firstHour = covered.indexOf(1);
    const lastHour = covered.lastIndexOf(1);
    const elapsed = Math.max(0, Math.min(hours, Math.ceil((Math.min(end, now()) - start) / HOUR)));
    let withData = 0;
    for (let i = 0; i < elapsed; i++) withData += covered[i] as number;
    const emptyDays: number[] = [];
    for (let day = calendar.dayOf(start); calendar.dayStart(day) < end; day++) {
      const from = Math.round((calendar.dayStart(day) - start) / HOUR);
      const to = Math.round((Math.min(end, calendar.dayStart(day + 1)) - start) / HOUR);
      if (!covered.subarray(from, to).includes(1)) emptyDays.push(calendar.dayStart(day));
    }
    return {
      first: firstHour < 0 ? null : await minuteIn(start + firstHour * HOUR, false),
      last: lastHour < 0 ? null : await minuteIn(start + lastHour * HOUR, true),
      percent: elapsed === 0 ? 0 : Math.round((withData / elapsed) * 1000) / 10,
      emptyDays,
    };
  }

  /** Versions that priced some slot of a plan, oldest first. */
  const usedVersions = (tariff: Tariff, plan: SlotPlan) => {
    const used = new Set<number>(plan.version);
    return tariff.versions.filter((_, i) => used.has(i)).map((v) => ({ id: v.id, validFrom: v.validFrom }));
  };

  return {
    list: (): Promise<Tariff[]> => repo.listTariffs(db),

    get,

    async create(input: TariffCreate): Promise<TariffWriteResult> {
      checkDays(input);
      const { retroactive, ...version } = input.version;
      checkBody(version);
      // A new tariff has no past costs to protect: it may start on any date.
      void retroactive;
      const at = iso();
      const id = await db.transaction().execute(async (trx) => {
        const tariffId = await repo.insertTariff(trx, fieldsOf(input), at);
        await repo.insertVersion(trx, tariffId, version, at);
        return tariffId;
      });
      return { tariff: await get(id), recomputed: null };
    },

    async update(id: number, input: TariffUpdate): Promise<TariffWriteResult> {
      const old = await get(id);
      checkDays(input);
      const fields = fieldsOf(input);
      const first = old.versions[0]?.validFrom;
      const t = today();
      // The first past day whose type changes: a holiday or make-up day added or removed, or any
      // started day if the weekend itself changes.
      const changed = [
        ...symmetricDifference(old.holidays, fields.holidays),
        ...symmetricDifference(old.workdays, fields.workdays),
      ].filter((d) => first !== undefined && d >= first && d <= t);
      if (first !== undefined && first <= t && !sameList(old.weekendDays, fields.weekendDays))
        changed.push(first);
      const rules = { holidays: fields.holidays, workdays: fields.workdays, weekendDays: fields.weekendDays };
      const before = { holidays: old.holidays, workdays: old.workdays, weekendDays: old.weekendDays };
      const really = changed
        .filter((d) => d === first || dayTypeOf(rules, d) !== dayTypeOf(before, d))
        .sort();
      const recomputed =
        really.length > 0 ? pastRange(really[0] as string, undefined, input.retroactive) : null;
      await repo.updateTariff(db, id, fields, iso());
      return { tariff: await get(id), recomputed };
    },

    async remove(id: number): Promise<void> {
      if (!(await repo.deleteTariff(db, id))) throw notFound();
    },

    async addVersion(id: number, input: TariffVersionInput): Promise<TariffWriteResult> {
      const tariff = await get(id);
      const { retroactive, ...version } = input;
      checkBody(version);
      const recomputed = pastRange(
        version.validFrom,
        nextStart(tariff.versions, version.validFrom),
        retroactive,
      );
      const at = iso();
      try {
        await db.transaction().execute(async (trx) => {
          await repo.insertVersion(trx, id, version, at);
          await repo.touchTariff(trx, id, at);
        });
      } catch (error) {
        throw duplicate(error, version.validFrom);
      }
      return { tariff: await get(id), recomputed };
    },

    async updateVersion(
      id: number,
      versionId: number,
      input: TariffVersionInput,
    ): Promise<TariffWriteResult> {
      const tariff = await get(id);
      const old = tariff.versions.find((v) => v.id === versionId);
      if (!old) throw new AppError('NOT_FOUND', 404, {}, { message: 'tariff.versionNotFound' });
      const { retroactive, ...version } = input;
      checkBody(version);
      const from = minDate(old.validFrom, version.validFrom);
      const recomputed = pastRange(
        from,
        nextStart(
          tariff.versions,
          version.validFrom > old.validFrom ? version.validFrom : old.validFrom,
          versionId,
        ),
        retroactive,
      );
      const at = iso();
      try {
        await db.transaction().execute(async (trx) => {
          await repo.updateVersion(trx, versionId, version);
          await repo.touchTariff(trx, id, at);
        });
      } catch (error) {
        throw duplicate(error, version.validFrom);
      }
      return { tariff: await get(id), recomputed };
    },

    async removeVersion(id: number, versionId: number, retroactive?: boolean): Promise<TariffWriteResult> {
      const tariff = await get(id);
      const old = tariff.versions.find((v) => v.id === versionId);
      if (!old) throw new AppError('NOT_FOUND', 404, {}, { message: 'tariff.versionNotFound' });
      if (tariff.versions.length === 1) throw unprocessable('tariff.lastVersion');
      const recomputed = pastRange(old.validFrom, nextStart(tariff.versions, old.validFrom), retroactive);
      await db.transaction().execute(async (trx) => {
        await repo.deleteVersion(trx, versionId);
        await repo.touchTariff(trx, id, iso());
      });
      return { tariff: await get(id), recomputed };
    },

    /** Energy and cost per band of each target over a local day, month or year (POST /api/statistics/range/TPFC). */
    async tpfc(q: TpfcQuery): Promise<TpfcResult> {
      const tariff = await get(q.tariffId);
      const metric = q.metricIdentifier ?? DEFAULT_ENERGY_METRIC;
      const at = q.startTime ?? now();
      const { start, end } = calendar.periodRange(q.period, at);
      const keys = calendar.periodBuckets(q.period, at);

      // Rows, and the things each one adds up; every thing is read once.
      const rows: { resourceType: 'thing' | 'region'; resourceId: number; name: string; things: number[] }[] =
        [];
      const things: Thing[] = [];
      const seen = new Map<number, number>();
      const indexOf = (t: Thing) => {
        let i = seen.get(t.id);
        if (i === undefined) {
          i = things.push(t) - 1;
          seen.set(t.id, i);
        }
        return i;
      };
      for (const target of q.targets) {
        const res = await targetThings(target.resourceType, target.resourceId, metric);
        if (target.resourceType === 'region' && q.byThing) {
          for (const t of res.things)
            rows.push({ resourceType: 'thing', resourceId: t.id, name: t.name, things: [indexOf(t)] });
        } else {
          rows.push({ ...target, name: res.name, things: res.things.map(indexOf) });
        }
      }

      const plan = slotPlan(priced(tariff), calendar, start, end, slotWidth(tariff.versions));
      // The period bucket of each slot: keys are sorted bucket starts.
      const periodOf = new Int32Array(plan.band.length);
      for (let i = 0, k = 0; i < periodOf.length; i++) {
        const ts = start + i * plan.width;
        while (k + 1 < keys.length && (keys[k + 1] as number) <= ts) k++;
        periodOf[i] = k;
      }
      const perThing = things.map(() => keys.map(() => new BandTotals()));
      await readSlots(things, metric, plan, end, fineHours(plan, periodOf), (thing, slot, kwh) => {
        if (slot < 0 || slot >= periodOf.length) return;
        perThing[thing]?.[periodOf[slot] as number]?.add(plan, slot, kwh);
      });

      const labels = keys.map((key) => calendar.periodLabel(q.period, key));
      const out: TpfcRow[] = rows.map((row) => {
        const total = new BandTotals();
        const buckets = keys.map((key, k) => {
          const sum = new BandTotals();
          for (const t of row.things) sum.merge(perThing[t]?.[k] as BandTotals);
          total.merge(sum);
          return { key, label: labels[k] as string, ...amounts(sum) };
        });
        return {
          resourceType: row.resourceType,
          resourceId: row.resourceId,
          name: row.name,
          buckets,
          total: amounts(total),
        };
      });
      return {
        tariffId: tariff.id,
        period: q.period,
        start,
        end,
        timeZone: deps.timeZone,
        unit: 'kWh',
        versions: usedVersions(tariff, plan),
        rows: out,
      };
    },

    /** The regions that have a tariff of their own. */
    regionTariffs: () => repo.listRegionTariffs(db),

    /** Makes `tariffId` the own tariff of exactly `regionIds` (404 unknown tariff or region). */
    async setRegions(tariffId: number, regionIds: readonly number[]) {
      await get(tariffId);
      const unique = [...new Set(regionIds)];
      const known = new Set<number>();
      const collect = (nodes: readonly RegionNode[]) => {
        for (const n of nodes)
          if (n.resourceType !== 'thing') {
            known.add(n.id);
            collect(n.children);
          }
      };
      collect(deps.regions ? await deps.regions() : []);
      const missing = unique.find((id) => !known.has(id));
      if (missing !== undefined)
        throw new AppError('NOT_FOUND', 404, { id: missing }, { message: 'region.unknown' });
      const at = iso();
      await db.transaction().execute((trx) => repo.setRegionTariffs(trx, tariffId, unique, at));
      return repo.listRegionTariffs(db);
    },

    resolve: resolveTariff,

    /** The monthly bill of a meter or region (POST /api/tariffs/bill). */
    async bill(q: BillQuery): Promise<Bill> {
      const metric = q.energyMetric ?? DEFAULT_ENERGY_METRIC;
      const reactiveMetric = q.reactiveMetric ?? DEFAULT_REACTIVE_METRIC;
      const { name, things, alsoCounting } = await targetThings(q.resourceType, q.resourceId, metric);
      const chosen =
        q.tariffId !== undefined
          ? { tariff: await get(q.tariffId), source: { kind: 'asked' as const, region: null } }
          : await resolveTariff(q.resourceType, q.resourceId);
      if (!chosen) throw unprocessable('tariff.noneForTarget', { name });
      const { tariff } = chosen;
      const firstDay = PlantCalendar.dayOfDate(`${q.month}-01`) as number;
      const { start, end } = calendar.periodRange('month', calendar.dayStart(firstDay));
      const plan = slotPlan(priced(tariff), calendar, start, end, slotWidth(tariff.versions));
      const totals = new BandTotals();
      await readSlots(things, metric, plan, end, fineHours(plan), (_thing, slot, kwh) => {
        if (slot >= 0 && slot < plan.band.length) totals.add(plan, slot, kwh);
      });

      const energy = BAND_KINDS.map((band, i) => {
        const kwh = totals.energy[i] as number;
        const cost = round2(totals.cost[i] as number);
        // Without energy in a band, its price on the month's first priced day (the line still reads right).
        const listed =
          versionOn(tariff.versions, calendar.dateOf(start))?.prices[band] ??
          tariff.versions[0]?.prices[band];
        return { band, energy: round4(kwh), price: kwh > 0 ? round4(cost / kwh) : (listed ?? 0), cost };
      }).filter(
        (line) => line.energy !== 0 || tariff.versions.some((v) => v.prices[line.band] !== undefined),
      );
      const energyKwh = round4(energy.reduce((s, l) => s + l.energy, 0));
      const energyCost = round2(energy.reduce((s, l) => s + l.cost, 0));

      // Demand or capacity: each day of the month carries 1/days of its version's monthly charge.
      const days: TariffVersion[] = [];
      const lastDay = calendar.dayOf(end - 1);
      for (let d = firstDay; d <= lastDay; d++) {
        const v = versionOn(tariff.versions, new Date(d * DAY).toISOString().slice(0, 10));
        if (v) days.push(v);
      }
      const monthDays = lastDay - firstDay + 1;
      const first = days[0];
      const kind = first?.demand.kind ?? 'none';
      // The mode of the month's first version that charges demand (a change inside a month is rare
      // and the utility's meter runs one mode for the month).
      const mode = days.find((v) => v.demand.kind === 'demand')?.demand;
      const windowMode = mode?.kind === 'demand' ? (mode.window ?? 'fixed') : 'fixed';
      const peak: DemandMax | null = mode
        ? maxDemand(
            await demandRegister(
              {
                store: deps.store,
                now,
                rawRetentionDays: deps.rawRetentionDays,
                pointsPerRead: deps.pointsPerRead,
              },
              things.map((t) => ({ thingId: t.id, metric })),
              start,
              end,
            ),
            windowMode,
          )
        : null;
      const demandKw = peak ? peak.kw : 0;
      let demandCost = 0;
      let quantity = 0;
      for (const v of days) {
        if (v.demand.kind === 'demand') demandCost += (demandKw * v.demand.pricePerKw) / monthDays;
        if (v.demand.kind === 'capacity')
          demandCost += (v.demand.capacityKva * v.demand.pricePerKva) / monthDays;
      }
      if (first?.demand.kind === 'demand') quantity = round4(demandKw);
      if (first?.demand.kind === 'capacity') quantity = first.demand.capacityKva;
      demandCost = round2(demandCost);
      const shown = kind === 'demand' ? peak : null;
      const demand = {
        kind,
        quantity,
        window: kind === 'demand' ? windowMode : null,
        at: shown ? shown.start : null,
        end: shown ? shown.end : null,
        price: quantity > 0 ? round4(demandCost / quantity) : 0,
        cost: demandCost,
      };

      // Power factor: the month's kWh and kvarh, against the target of the month's first version.
      const target = first?.powerFactorTarget ?? null;
      const base = round2(energyCost + demandCost);
      const reactiveThings = alsoCounting(reactiveMetric);
      let reactive: number | null = null;
      if (reactiveThings.length > 0) {
        reactive = 0;
        const { buckets } = await deps.store.buckets({
          series: reactiveThings.map((t) => ({ thingId: t.id, metric: reactiveMetric })),
          start,
          end,
          bucket: { calendar: 'month' },
          aggregator: 'delta',
        });
        for (const b of buckets) reactive += b.value ?? 0;
      }
      const activeKwh = energyKwh + round4(totals.unpriced);
      const cosPhi = reactive === null ? null : monthlyPowerFactor(activeKwh, reactive);
      const percent = target !== null && cosPhi !== null ? adjustmentPercent(cosPhi, target) : 0;
      const powerFactor = {
        target,
        activeKwh,
        reactiveKvarh: reactive === null ? null : round4(reactive),
        cosPhi,
        percent,
        base,
        cost: round2((base * percent) / 100),
        note: target === null ? ('noTarget' as const) : reactive === null ? ('noReactive' as const) : null,
      };

      return {
        tariffId: tariff.id,
        tariffName: tariff.name,
        tariffSource: chosen.source,
        coverage: await coverage(things, metric, start, end),
        resourceType: q.resourceType,
        resourceId: q.resourceId,
        name,
        month: q.month,
        start,
        end,
        timeZone: deps.timeZone,
        versions: usedVersions(tariff, plan),
        energy,
        energyKwh,
        energyCost,
        unpricedEnergy: round4(totals.unpriced),
        demand,
        powerFactor,
        total: round2(energyCost + demandCost + powerFactor.cost),
      };
    },

    /**
     * Each thing's energy and cost per period `[keys[k], keys[k + 1] ?? end)`, priced slot by slot
     * like TPFC (band, season, day type, dated version); `unpriced` is energy on days no version
     * covers. The ERP export's cost (docs/statistics.md#erp).
     */
    async costByPeriod(
      tariffId: number,
      things: readonly Thing[],
      metric: string,
      start: number,
      end: number,
      keys: readonly number[],
    ): Promise<{ energy: number; cost: number; unpriced: number }[][]> {
      const tariff = await get(tariffId);
      // Slots are anchored at a local midnight, so a free range starting mid-day keeps band edges.
      const from = calendar.startOfDay(start);
      const plan = slotPlan(priced(tariff), calendar, from, end, slotWidth(tariff.versions));
      const periodOf = new Int32Array(plan.band.length).fill(-1);
      for (let i = 0, k = -1; i < periodOf.length; i++) {
        const ts = from + i * plan.width;
        while (k + 1 < keys.length && (keys[k + 1] as number) <= ts) k++;
        if (ts >= start && ts < end) periodOf[i] = k;
      }
      const totals = things.map(() => keys.map(() => new BandTotals()));
      await readSlots(things, metric, plan, end, fineHours(plan, periodOf), (thing, slot, kwh) => {
        const k = slot >= 0 && slot < periodOf.length ? (periodOf[slot] as number) : -1;
        if (k >= 0) totals[thing]?.[k]?.add(plan, slot, kwh);
      });
      const sum = (a: Float64Array) => a.reduce((s, x) => s + x, 0);
      return totals.map((row) =>
        row.map((t) => ({ energy: sum(t.energy), cost: sum(t.cost), unpriced: t.unpriced })),
      );
    },
  };
}

const symmetricDifference = (a: readonly string[], b: readonly string[]): string[] => [
  ...a.filter((x) => !b.includes(x)),
  ...b.filter((x) => !a.includes(x)),
];
const sameList = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);

export type TariffService = ReturnType<typeof createTariffService>;
