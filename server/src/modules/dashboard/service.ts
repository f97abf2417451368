import { randomUUID } from 'node:crypto';
import {
  type AlarmCounts,
  MAP_IMAGE_MAX_PIXELS,
  MAP_IMAGE_MAX_SIDE,
  MAX_PLACEMENTS,
  type MapImage,
  type MetricConfig,
  type MetricQuery,
  type Overview,
  type Placement,
  type PlacementInput,
  type PlacementMove,
  type Presence,
  type QueryResult,
  SEVERITIES,
  type Severity,
  type SituationMap,
  type Tariff,
  type TariffSource,
  type TpfcQuery,
  type TpfcResult,
} from '@kilowatch/contract';
import type { Db } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import type { Catalog } from '../catalog/index.ts';
import { sniffImage } from './image.ts';
import * as repo from './repository.ts';

/**
 * The units the overview reports in: power in kW, energy in kWh, which is also what the tariffs
 * price. A metric in another unit (W, MWh…) is not summed as if it were these.
 */
const POWER_UNIT = 'kW';
const ENERGY_UNIT = 'kWh';
/** Preferred on a tie between identifiers: the demo's and most meters' (the tariffs' default too). */
const USUAL = { power: 'P', energy: 'EP' } as const;

/** The plant's power and energy metrics (docs/dashboard.md, "Which metrics, which tariff"). */
export interface PlantMetrics {
  power: string | null;
  energy: string | null;
}

type Abilities = ReadonlyMap<number, readonly { identifier: string; unit: string; cumulative: boolean }[]>;

/**
 * The plant's power and energy metrics: what its region's metric configs (the home screen's) name
 * in kW and in kWh as consumption, first by their order; without such a config, the identifier most
 * of the plant's things carry as a kW reading or a kWh counter (a meter's `P`/`EP` over the few
 * transformers' `Pin`/`EPin`, which measure the same energy upstream and must not be added to it).
 */
function choosePlantMetrics(configs: readonly MetricConfig[], abilities: Abilities): PlantMetrics {
  const shown = configs.filter((c) => c.enabled && c.categoryId === null).toSorted((a, b) => a.sort - b.sort);
  const configured = (unit: string, counter: boolean) =>
    shown.find((c) => c.unit === unit && (c.function === 'delta') === counter)?.metricIdentifier;
  const carried = (unit: string, cumulative: boolean, usual: string): string | null => {
    const things = new Map<string, number>();
    for (const list of abilities.values()) {
      const own = new Set(
        list.filter((a) => a.unit === unit && a.cumulative === cumulative).map((a) => a.identifier),
      );
      for (const id of own) things.set(id, (things.get(id) ?? 0) + 1);
    }
    let best: string | null = null;
    for (const [id, n] of things) {
      const top = best === null ? 0 : (things.get(best) as number);
      if (n > top || (n === top && (id === usual || (best !== usual && id < (best as string))))) best = id;
    }
    return best;
  };
  return {
    power: configured(POWER_UNIT, false) ?? carried(POWER_UNIT, false, USUAL.power),
    energy: configured(ENERGY_UNIT, true) ?? carried(ENERGY_UNIT, true, USUAL.energy),
  };
}

export interface DashboardDeps {
  db: Db;
  catalog: Pick<Catalog, 'select'>;
  /** The region tree's roots, in order (the plant is the first, as on the home screen). */
  roots: () => Promise<readonly { id: number; name: string }[]>;
  /** Every thing's presence now (things service). */
  presence: () => Promise<Map<number, Presence>>;
  /** Active alarms (alarm service). */
  activeAlarms: () => Promise<{ thingId: number; severity: string; acknowledged: boolean }[]>;
  /** The latest stored number of each series asked (telemetry store, from memory). */
  latest: (series: readonly { thingId: number; metric: string }[]) => readonly { value: number }[];
  /** A region's own metric configs (the home screen's charts), all categories. */
  metricConfigs: (regionId: number) => Promise<MetricConfig[]>;
  /** The tariff the plant's statistics price with (erpConfig's `tariffId`), null when none is named. */
  plantTariffId: () => Promise<number | null>;
  /** The tariffs module's public reads: the list, and cost by band. */
  tariffs: {
    list(): Promise<Tariff[]>;
    get(id: number): Promise<Tariff>;
    tpfc(q: TpfcQuery): Promise<TpfcResult>;
    /** A target's own tariff (its region's, an ancestor's, else the plant's) and why. */
    resolve(
      resourceType: 'thing' | 'region',
      id: number,
    ): Promise<{ tariff: Tariff; source: TariffSource } | null>;
  };
  /** The query module's data read (today's energy on the plant calendar). */
  data: (q: MetricQuery) => Promise<QueryResult>;
  now: () => number;
}

const placementNotFound = () =>
  new AppError('NOT_FOUND', 404, {}, { message: 'dashboard.placementNotFound' });

const rank = (s: string) => {
  const i = SEVERITIES.indexOf(s as Severity);
  return i < 0 ? SEVERITIES.length : i;
};

/** The situation overview (docs/dashboard.md): totals now, the layout image and its markers. */
export function createDashboardService(deps: DashboardDeps) {
  const { db, catalog, now } = deps;
  const iso = () => new Date(now()).toISOString();

  async function thingsOf(p: { resourceType: 'thing' | 'region'; resourceId: number }): Promise<number[]> {
    if (p.resourceType === 'thing') return [p.resourceId];
    const res = await catalog.select({ resourceType: 'region', id: p.resourceId, successor: true });
    return res.things.map((t) => t.id);
  }

  async function describe(rows: repo.PlacementRow[]): Promise<Placement[]> {
    if (rows.length === 0) return [];
    const [presence, alarms] = await Promise.all([deps.presence(), deps.activeAlarms()]);
    const alarmsOf = new Map<number, { severity: string; acknowledged: boolean }[]>();
    for (const a of alarms) {
      const list = alarmsOf.get(a.thingId);
      if (list) list.push(a);
      else alarmsOf.set(a.thingId, [a]);
    }
    return Promise.all(
      rows.map(async (row): Promise<Placement> => {
        const ids = await thingsOf(row);
        const states = ids.map((id) => presence.get(id) ?? 'never');
        const online = states.filter((s) => s === 'online').length;
        const regionPresence: Presence = states.includes('offline')
          ? 'offline'
          : online > 0
            ? 'online'
            : 'never';
        const active = ids.flatMap((id) => alarmsOf.get(id) ?? []);
        const worst = active.reduce<string | null>(
          (w, a) => (w === null || rank(a.severity) < rank(w) ? a.severity : w),
          null,
        );
        return {
          ...row,
          presence: row.resourceType === 'thing' ? (states[0] ?? 'never') : regionPresence,
          online,
          things: ids.length,
          alarm:
            worst === null
              ? null
              : {
                  severity: worst as Severity,
                  unacknowledged: active.some((a) => !a.acknowledged),
                  count: active.length,
                },
        };
      }),
    );
  }

  async function placement(id: number): Promise<Placement> {
    const rows = await repo.listPlacements(db, id);
    if (rows.length === 0) throw placementNotFound();
    return (await describe(rows))[0] as Placement;
  }

  /**
   * `?tariffId=` when asked (404 when unknown), else the plant's: the one its statistics price with.
   * A plant that names none, or names one since deleted, has no cost today rather than a guess.
   */
  async function chosenTariff(
    asked: number | undefined,
    rootId: number | undefined,
  ): Promise<{ tariff: Tariff; source: TariffSource } | null> {
    if (asked) return { tariff: await deps.tariffs.get(asked), source: { kind: 'asked', region: null } };
    // The plant region's own tariff when it has one (docs/tariffs.md "A region's tariff").
    if (rootId !== undefined) return deps.tariffs.resolve('region', rootId);
    const id = await deps.plantTariffId();
    if (id === null) return null;
    const tariff = (await deps.tariffs.list()).find((t) => t.id === id);
    return tariff ? { tariff, source: { kind: 'plant', region: null } } : null;
  }

  const toImage = (row: repo.ImageRow): MapImage => ({ ...row, type: row.type as MapImage['type'] });

  return {
    async overview(query: { tariffId?: number }): Promise<Overview> {
      const at = now();
      const [roots, presence, alarms] = await Promise.all([
        deps.roots(),
        deps.presence(),
        deps.activeAlarms(),
      ]);
      const chosen = await chosenTariff(query.tariffId, roots[0]?.id);
      const tariff = chosen?.tariff ?? null;

      const counts: AlarmCounts = { critical: 0, major: 0, minor: 0, warning: 0, unacknowledged: 0 };
      for (const a of alarms) {
        if (a.severity in counts) counts[a.severity as Severity]++;
        if (!a.acknowledged) counts.unacknowledged++;
      }
      const devices = { online: 0, offline: 0, never: 0, total: presence.size };
      for (const p of presence.values()) devices[p]++;

      const root = roots[0];
      let metrics: PlantMetrics = { power: null, energy: null };
      let power: number | null = null;
      let energyToday: number | null = null;
      let costToday: number | null = null;
      if (root) {
        const [configs, plant] = await Promise.all([
          deps.metricConfigs(root.id),
          catalog.select({ resourceType: 'region', id: root.id, successor: true }),
        ]);
        metrics = choosePlantMetrics(configs, plant.abilities);
        const carrying = (metric: string | null) =>
          metric === null
            ? []
            : plant.things.filter((t) => plant.abilities.get(t.id)?.some((a) => a.identifier === metric));
        // Offline things' last values are not "now": they are left out, not summed as if current.
        const online = carrying(metrics.power).filter((t) => presence.get(t.id) === 'online');
        if (metrics.power !== null && online.length > 0) {
          const metric = metrics.power;
          const values = deps.latest(online.map((t) => ({ thingId: t.id, metric })));
          power = values.length > 0 ? values.reduce((sum, v) => sum + v.value, 0) : null;
        }
        if (metrics.energy !== null && carrying(metrics.energy).length > 0) {
          const result = await deps.data({
            resourceType: 'region',
            resourceId: root.id,
            metricIdentifier: metrics.energy,
            successor: true,
            period: 'day',
            groupByTime: 'day',
            startTime: at,
          });
          energyToday = result.result.reduce((sum, p) => sum + (p.value ?? 0), 0);
          if (tariff) {
            const tpfc = await deps.tariffs.tpfc({
              tariffId: tariff.id,
              targets: [{ resourceType: 'region', resourceId: root.id }],
              metricIdentifier: metrics.energy,
              period: 'day',
              startTime: at,
            });
            costToday = tpfc.rows.reduce((sum, r) => sum + r.total.totalCost, 0);
          }
        }
      }
      return {
        at,
        region: root ? { id: root.id, name: root.name } : null,
        power,
        energyToday,
        costToday,
        tariff: chosen ? { id: chosen.tariff.id, name: chosen.tariff.name, source: chosen.source } : null,
        alarms: counts,
        devices,
        metrics,
      };
    },

    async map(): Promise<SituationMap> {
      const [image, rows] = await Promise.all([repo.findImage(db), repo.listPlacements(db)]);
      return { image: image ? toImage(image) : null, placements: await describe(rows) };
    },

    imageBytes: () => repo.imageBytes(db),

    /** Checks and stores a layout image; `tooLarge` is the caller's (the upload stream's) verdict. */
    async saveImage(bytes: Uint8Array, username: string): Promise<MapImage> {
      const sniffed = sniffImage(bytes);
      if (sniffed.kind === 'svg')
        throw new AppError('BAD_REQUEST', 415, {}, { message: 'dashboard.imageSvg' });
      if (sniffed.kind === 'other')
        throw new AppError('BAD_REQUEST', 415, {}, { message: 'dashboard.imageType' });
      if (sniffed.kind === 'unreadable')
        throw new AppError('UNPROCESSABLE', 422, {}, { message: 'dashboard.imageUnreadable' });
      const { width, height } = sniffed;
      if (width < 1 || height < 1 || width > MAP_IMAGE_MAX_SIDE || height > MAP_IMAGE_MAX_SIDE)
        throw new AppError(
          'UNPROCESSABLE',
          422,
          { width, height, max: MAP_IMAGE_MAX_SIDE },
          { message: 'dashboard.imageSide' },
        );
      if (width * height > MAP_IMAGE_MAX_PIXELS)
        throw new AppError(
          'UNPROCESSABLE',
          422,
          { width, height, pixels: width * height, max: MAP_IMAGE_MAX_PIXELS },
          { message: 'dashboard.imagePixels' },
        );
      const row: repo.ImageRow = {
        type: sniffed.type,
        width,
        height,
        size: bytes.byteLength,
        version: randomUUID(),
        updatedBy: username,
        updatedAt: iso(),
      };
      await repo.saveImage(db, { ...row, bytes });
      return toImage(row);
    },

    async deleteImage(): Promise<void> {
      if (!(await repo.deleteImage(db)))
        throw new AppError('NOT_FOUND', 404, {}, { message: 'dashboard.noImage' });
    },

    async place(input: PlacementInput): Promise<Placement> {
      // A 404 from the things or regions service when it does not exist.
      await catalog.select({ resourceType: input.resourceType, id: input.resourceId });
      const id = await db.transaction().execute(async (trx) => {
        const placed = (await repo.listPlacements(trx)).some(
          (p) => p.resourceType === input.resourceType && p.resourceId === input.resourceId,
        );
        if (!placed && (await repo.countPlacements(trx)) >= MAX_PLACEMENTS)
          throw new AppError(
            'UNPROCESSABLE',
            422,
            { max: MAX_PLACEMENTS },
            { message: 'dashboard.tooManyPlacements' },
          );
        return repo.upsertPlacement(trx, input, iso());
      });
      return placement(id);
    },

    async move(id: number, at: PlacementMove): Promise<Placement> {
      if (!(await repo.movePlacement(db, id, at, iso()))) throw placementNotFound();
      return placement(id);
    },

    async remove(id: number): Promise<void> {
      if (!(await repo.deletePlacement(db, id))) throw placementNotFound();
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
