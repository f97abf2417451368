import {
  BAND_KINDS,
  type BandKind,
  bandsOfDay,
  DAY,
  type DayRules,
  dayTypeOf,
  HOUR,
  MINUTE,
  minuteOf,
  type PlantCalendar,
  seasonOn,
  type TariffVersionBody,
  versionOn,
} from '@kilowatch/contract';

/** A version as pricing needs it: its id, start and body. */
type PricedVersion = TariffVersionBody & { id: number };

export interface PricedTariff {
  rules: DayRules;
  /** Oldest first. */
  versions: readonly PricedVersion[];
}

/** Index of a band in BAND_KINDS; -1 for a slot before the tariff's first version. */
export const UNPRICED = -1;

/**
 * The price of every slot of [start, end) on a grid of `width` ms anchored at `start` (a local
 * midnight): its band, price and version. Each slot is priced by the wall-clock minute of its
 * start in the plant's zone, so a DST day has 92 or 100 quarter hours and each gets its band.
 */
export interface SlotPlan {
  start: number;
  width: number;
  band: Int8Array;
  price: Float64Array;
  /** Index into `versions` of the tariff. */
  version: Int16Array;
  /** Local day number of each slot. */
  day: Int32Array;
}

interface DayPrice {
  version: number;
  band: Int8Array;
  price: Float64Array;
}

/**
 * The widest slot (60, 15, 5 or 1 minute) that every band edge of the versions falls on, so no
 * slot straddles an edge: a band starting at 08:00 begins a slot exactly. Whole hours let the
 * store answer from its hour rollups (a month of 200 meters in a fraction of the rows).
 */
export function slotWidth(versions: readonly TariffVersionBody[]): number {
  const edges = new Set<number>();
  for (const v of versions)
    for (const s of v.seasons)
      for (const spans of [s.workday, s.weekend, s.holiday])
        for (const span of spans) {
          edges.add(minuteOf(span.from));
          edges.add(minuteOf(span.to));
        }
  for (const minutes of [60, 15, 5]) {
    if ([...edges].every((e) => e % minutes === 0)) return minutes * MINUTE;
  }
  return MINUTE;
}

const dateOfDay = (day: number): string => new Date(day * DAY).toISOString().slice(0, 10);

export function slotPlan(
  tariff: PricedTariff,
  calendar: PlantCalendar,
  start: number,
  end: number,
  width: number,
): SlotPlan {
  const n = Math.ceil((end - start) / width);
  const plan: SlotPlan = {
    start,
    width,
    band: new Int8Array(n),
    price: new Float64Array(n),
    version: new Int16Array(n),
    day: new Int32Array(n),
  };
  const days = new Map<number, DayPrice | null>();
  const dayPrice = (day: number): DayPrice | null => {
    const known = days.get(day);
    if (known !== undefined) return known;
    const date = dateOfDay(day);
    const version = versionOn(tariff.versions, date);
    const season = version && seasonOn(version, date);
    let out: DayPrice | null = null;
    if (version && season) {
      const bands = bandsOfDay(season[dayTypeOf(tariff.rules, date)]);
      if ('minutes' in bands) {
        const band = new Int8Array(bands.minutes.length);
        const price = new Float64Array(bands.minutes.length);
        bands.minutes.forEach((b, i) => {
          band[i] = BAND_KINDS.indexOf(b as BandKind);
          price[i] = version.prices[b as BandKind] ?? 0;
        });
        out = { version: tariff.versions.indexOf(version), band, price };
      }
    }
    days.set(day, out);
    return out;
  };
  for (let i = 0; i < n; i++) {
    const ts = start + i * width;
    const wall = ts + calendar.offset(ts);
    const day = Math.floor(wall / DAY);
    const minute = Math.floor((wall - day * DAY) / MINUTE);
    const p = dayPrice(day);
    plan.day[i] = day;
    if (!p) {
      plan.band[i] = UNPRICED;
      plan.version[i] = -1;
      continue;
    }
    plan.band[i] = p.band[minute] as number;
    plan.price[i] = p.price[minute] as number;
    plan.version[i] = p.version;
  }
  return plan;
}

/**
 * Which hours of a plan (hour `h` is `[start + h·HOUR, start + (h+1)·HOUR)`) must be read slot by
 * slot: 1 where the hour's slots differ in band, price, version or day, or in `group` (the caller's
 * period of each slot, -1 outside the range). The other hours can be read from the store's hour
 * rollups and their energy added to their first slot: every slot of the hour would price it alike.
 * Null when the plan's slots are already hours, or the plan does not divide into whole hours.
 */
export function fineHours(plan: SlotPlan, group?: Int32Array): Uint8Array | null {
  if (plan.width >= HOUR || HOUR % plan.width !== 0) return null;
  const per = HOUR / plan.width;
  const n = plan.band.length;
  const hours = new Uint8Array(Math.ceil(n / per));
  for (let h = 0; h < hours.length; h++) {
    const a = h * per;
    // A last hour cut short by the range's end is read slot by slot.
    if (a + per > n) {
      hours[h] = 1;
      continue;
    }
    for (let i = a + 1; i < a + per; i++) {
      if (
        plan.band[i] !== plan.band[a] ||
        plan.price[i] !== plan.price[a] ||
        plan.version[i] !== plan.version[a] ||
        plan.day[i] !== plan.day[a] ||
        (group !== undefined && group[i] !== group[a])
      ) {
        hours[h] = 1;
        break;
      }
    }
  }
  return hours;
}

/** Energy and cost per band, and energy no version priced; added bucket by bucket. */
export class BandTotals {
  readonly energy = new Float64Array(BAND_KINDS.length);
  readonly cost = new Float64Array(BAND_KINDS.length);
  unpriced = 0;

  add(plan: SlotPlan, slot: number, kwh: number): void {
    const band = plan.band[slot] as number;
    if (band === UNPRICED) {
      this.unpriced += kwh;
      return;
    }
    this.energy[band] = (this.energy[band] as number) + kwh;
    this.cost[band] = (this.cost[band] as number) + kwh * (plan.price[slot] as number);
  }

  merge(other: BandTotals): void {
    for (let i = 0; i < BAND_KINDS.length; i++) {
      this.energy[i] = (this.energy[i] as number) + (other.energy[i] as number);
      this.cost[i] = (this.cost[i] as number) + (other.cost[i] as number);
    }
    this.unpriced += other.unpriced;
  }
}
