import { type BillCoverage, DAY, HOUR, MINUTE, type PlantCalendar, type Thing } from '@kilowatch/contract';
import type { TelemetryStore } from '../../../telemetry/index.ts';
import type { Catalog } from '../../catalog/index.ts';
import type { SlotPlan } from '../tariffs/pricing.ts';
import { unprocessable } from '../tariffs/service.ts';

/** Buckets asked of the store in one read (things × slots), well under its own cap. */
const READ_CHUNK = 1_000_000;

export interface ReadingsDeps {
  catalog: Pick<Catalog, 'select'>;
  store: Pick<TelemetryStore, 'bucketColumns'>;
  calendar: PlantCalendar;
  now: () => number;
  /** Read every slot at the plan's width, without hour rollups (a test compares both reads). */
  wholeSlots?: boolean;
}

/**
 * What a bill reads of the meters: counter buckets slot by slot, the things of a target that count
 * a metric, and which hours of a month have readings.
 */
export function createReadings(deps: ReadingsDeps) {
  const { calendar, now } = deps;

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
        complete: false,
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
   * Which hours of [start, end) have a reading of some of `things`' counter (hour buckets' counts),
   * the first and last reading to the minute, and the local days with none. Counts only: the reads
   * skip the buckets' completeness, whose last-sample and largest-gap aggregates cost a minute read
   * nearly half its time (bench/README.md "Maximum demand of the bill").
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
        complete: false,
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
        complete: false,
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

  return { readSlots, targetThings, coverage };
}
