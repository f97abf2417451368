import {
  BAND_KINDS,
  type BandAmounts,
  type Bill,
  type BillQuery,
  DAY,
  PlantCalendar,
  type Tariff,
  type TariffVersion,
  type Thing,
  type TpfcAmounts,
  type TpfcQuery,
  type TpfcResult,
  type TpfcRow,
  versionOn,
} from '@kilowatch/contract';
import type { TelemetryStore } from '../../../telemetry/index.ts';
import { BandTotals, fineHours, type SlotPlan, slotPlan, slotWidth } from '../tariffs/pricing.ts';
import { createTariffBook, priced, type TariffBookDeps, unprocessable } from '../tariffs/service.ts';
import { type DemandMax, demandRegister, maxDemand } from './demand.ts';
import { adjustmentPercent, monthlyPowerFactor, round2 } from './power-factor.ts';
import { createReadings, type ReadingsDeps } from './readings.ts';

export interface TariffDeps extends TariffBookDeps, ReadingsDeps {
  store: Pick<TelemetryStore, 'buckets' | 'bucketColumns' | 'pointColumns' | 'summedRegister'>;
  /** RETENTION_RAW_DAYS: demand before it is read from the minute rollups (without it, raw only). */
  rawRetentionDays?: number;
  /** Raw points asked of the store in one read for demand (default POINTS_CHUNK; a test pages with a few). */
  pointsPerRead?: number;
}

/** The demo's and most meters' active energy counter (kWh) and reactive counter (kvarh). */
const DEFAULT_ENERGY_METRIC = 'EP';
const DEFAULT_REACTIVE_METRIC = 'EQ';

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

/** Versions that priced some slot of a plan, oldest first. */
const usedVersions = (tariff: Tariff, plan: SlotPlan) => {
  const used = new Set<number>(plan.version);
  return tariff.versions.filter((_, i) => used.has(i)).map((v) => ({ id: v.id, validFrom: v.validFrom }));
};

/**
 * The tariff service: the tariff book (tariffs/) and what it prices, the cost of energy by band
 * (TPFC), the monthly bill and the ERP export's cost (docs/tariffs.md). Costs are computed on read
 * from the versions in force on each day.
 */
export function createTariffService(deps: TariffDeps) {
  const { calendar, now } = deps;
  const book = createTariffBook(deps);
  const { readSlots, targetThings, coverage } = createReadings(deps);

  return {
    ...book,

    /** Energy and cost per band of each target over a local day, month or year (POST /api/statistics/range/TPFC). */
    async tpfc(q: TpfcQuery): Promise<TpfcResult> {
      const tariff = await book.get(q.tariffId);
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
        timeZone: calendar.timeZone,
        unit: 'kWh',
        versions: usedVersions(tariff, plan),
        rows: out,
      };
    },

    /** The monthly bill of a meter or region (POST /api/tariffs/bill). */
    async bill(q: BillQuery): Promise<Bill> {
      const metric = q.energyMetric ?? DEFAULT_ENERGY_METRIC;
      const reactiveMetric = q.reactiveMetric ?? DEFAULT_REACTIVE_METRIC;
      const { name, things, alsoCounting } = await targetThings(q.resourceType, q.resourceId, metric);
      const chosen =
        q.tariffId !== undefined
          ? { tariff: await book.get(q.tariffId), source: { kind: 'asked' as const, region: null } }
          : await book.resolve(q.resourceType, q.resourceId);
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
        timeZone: calendar.timeZone,
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
      const tariff = await book.get(tariffId);
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

export type TariffService = ReturnType<typeof createTariffService>;
