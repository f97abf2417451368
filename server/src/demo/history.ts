/**
 * The demo plant's history, written on its first start while the server already serves: the days
 * before the first start, newest first, in bounded slices through the running server's telemetry
 * store, each followed by a turn of the event loop, with the progress kept in a file so a restart
 * resumes where it stopped (docs/demo-plant.md#history-on-the-first-start).
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import type { DemoHistoryStatus } from '@kilowatch/contract';
import type { Logger, PlantGenerator, SimThing, ThingModel } from '../simulator/index.ts';
import type { Point, TelemetryStore } from '../telemetry/index.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Hours a counter cache advances between turns of the event loop while warming. */
const WARM_HOURS = 500;
/** Days written before the first start: a month, for the bill, the comparisons and EnPI. */
export const HISTORY_DAYS = 31;
/**
 * One sample a minute: the live 10 s would be 6 × the points, and a minute is what keeps every
 * minute, hour and day bucket complete (the store's gap tolerance is at least a minute).
 */
export const HISTORY_STEP_MS = 60_000;
/**
 * Points per slice: one write, and the longest stretch the event loop is held by this work (its
 * generation, the store's checks and sort): 5,000 held it under 60 ms on the 2-core VM at load 19,
 * 10,000 up to 170 ms.
 */
export const HISTORY_SLICE_POINTS = 5_000;
const FILE = 'demo-history.json';

/**
 * What the file keeps: the range planned at the first start, cut in two stretches written in
 * turn, each forwards (the generator's counter caches only run forwards): the last day first, so
 * today's and yesterday's charts fill within seconds, then the days before it.
 */
interface HistoryPlan {
  start: number;
  end: number;
  stepMs: number;
  /** [from, to) and how far it is written: [from, writtenTo). */
  stretches: { from: number; to: number; writtenTo: number }[];
  points: number;
}

/** The progress the console shows; `none` when this plant has no history to write. */
export class HistoryProgress {
  private status: DemoHistoryStatus = { state: 'none', percent: 0, from: null, to: null, points: 0 };
  get(): DemoHistoryStatus {
    return this.status;
  }
  set(status: DemoHistoryStatus): void {
    this.status = status;
  }
}

const readPlan = (dataDir: string): HistoryPlan | null => {
  let text: string;
  try {
    text = readFileSync(join(dataDir, FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return JSON.parse(text) as HistoryPlan;
};

const writePlan = (dataDir: string, plan: HistoryPlan) => {
  // Written aside and renamed, so a crash leaves the old progress or the new, never half a file.
  const path = join(dataDir, FILE);
  writeFileSync(`${path}.tmp`, JSON.stringify(plan));
  renameSync(`${path}.tmp`, path);
};

const left = (plan: HistoryPlan) => plan.stretches.reduce((n, s) => n + (s.to - s.writtenTo), 0);

const statusOf = (plan: HistoryPlan, state: DemoHistoryStatus['state']): DemoHistoryStatus => ({
  state,
  percent: Math.floor((1 - left(plan) / (plan.end - plan.start)) * 100),
  from: plan.start,
  to: plan.end,
  points: plan.points,
});

/** What the history logs: its start and end, and a failure. */
export type HistoryLogger = Logger & { error(obj: object, msg?: string): void };

export interface HistoryOptions {
  store: Pick<TelemetryStore, 'write'>;
  /** RETENTION_RAW_DAYS: the store refuses points older than that, so the history starts after it. */
  rawDays: number;
  things: readonly SimThing[];
  generator: PlantGenerator;
  dataDir: string;
  /** True when this start seeded the plant: the history is planned now, ending now. */
  fresh: boolean;
  progress: HistoryProgress;
  now?: () => number;
  days?: number;
  stepMs?: number;
  slicePoints?: number;
  log?: HistoryLogger;
}

export interface HistoryRun {
  /** Resolves when the history is written, or at once when there is none to write. */
  done: Promise<void>;
  /** Stops after the slice being written (its progress is kept). */
  stop: () => Promise<void>;
}

/**
 * Brings a model's counter caches to `ts` a few thousand hours at a time, a turn of the event loop
 * between: from its installation that is a year or two of hours, and a transformer sums its loads'.
 */
async function warm(generator: PlantGenerator, model: ThingModel, ts: number): Promise<void> {
  const target = Math.floor(ts / HOUR);
  for (let h = model.anchor + WARM_HOURS; h < target; h += WARM_HOURS) {
    generator.counters(model, h * HOUR);
    await turn();
  }
}

/**
 * Plans the history on a fresh plant, or resumes a plan a previous start left unfinished, and
 * writes it in the background. A plant seeded before (or by `npm run backfill`) with no plan has
 * nothing to do. Samples fall on the same grid as the live ticks and the backfill's, so a slice
 * written twice (a restart between its write and the file) is replaced by identical values.
 */
export function startHistory(options: HistoryOptions): HistoryRun {
  const now = options.now ?? Date.now;
  const stepMs = options.stepMs ?? HISTORY_STEP_MS;
  const { generator, store, things } = options;
  // The store's own edge (whole minutes) plus a minute, so a slice is not refused while it is written.
  const writableFrom = () => Math.ceil((now() - options.rawDays * DAY) / MINUTE) * MINUTE + MINUTE;
  let plan = readPlan(options.dataDir);
  if (!plan && options.fresh) {
    const end = Math.floor(now() / stepMs) * stepMs;
    const start =
      Math.ceil(Math.max(end - (options.days ?? HISTORY_DAYS) * DAY, writableFrom()) / stepMs) * stepMs;
    const recent = Math.max(start, end - DAY);
    plan = {
      start,
      end,
      stepMs,
      stretches: [
        { from: recent, to: end, writtenTo: recent },
        { from: start, to: recent, writtenTo: start },
      ].filter((x) => x.to > x.from),
      points: 0,
    };
    writePlan(options.dataDir, plan);
  }
  const none = { done: Promise.resolve(), stop: async () => {} };
  if (!plan || things.length === 0 || plan.end <= plan.start) return none;
  if (left(plan) === 0) {
    options.progress.set(statusOf(plan, 'done'));
    return none;
  }

  let stopped = false;
  const current: HistoryPlan = plan;
  const models = things.map((t) => {
    const model = generator.model(t);
    // Indexes into the sample of the metrics written (those the thing's category declares).
    const kept = model.metrics.flatMap((metric, i) =>
      t.declared && !t.declared.includes(metric) ? [] : [i],
    );
    return { id: t.id, model, kept };
  });
  const series = models.reduce((n, m) => n + m.kept.length, 0);
  const stepsPerSlice = Math.max(1, Math.floor((options.slicePoints ?? HISTORY_SLICE_POINTS) / series));
  const out = new Float64Array(Math.max(1, ...models.map((m) => m.model.metrics.length)));
  options.progress.set(statusOf(current, 'running'));
  options.log?.info(
    { from: new Date(current.start).toISOString(), to: new Date(current.end).toISOString() },
    'demo plant history: writing in the background',
  );

  const slice = (from: number, to: number): Point[] => {
    const points: Point[] = [];
    for (let ts = from; ts < to; ts += current.stepMs) {
      for (const { id, model, kept } of models) {
        if (!generator.sample(model, ts, out)) continue;
        for (const i of kept)
          points.push({ thingId: id, metric: model.metrics[i] as string, ts, value: out[i] as number });
      }
    }
    return points;
  };

  const done = (async () => {
    for (const stretch of current.stretches) {
      // Live data may reach past the retention's edge by the time a slice is written.
      stretch.writtenTo = Math.max(
        stretch.writtenTo,
        Math.ceil(writableFrom() / current.stepMs) * current.stepMs,
      );
      if (stretch.writtenTo >= stretch.to) continue;
      for (const { model } of models) {
        await warm(generator, model, stretch.writtenTo);
        if (stopped) return;
      }
      while (!stopped && stretch.writtenTo < stretch.to) {
        const to = Math.min(stretch.to, stretch.writtenTo + stepsPerSlice * current.stepMs);
        const points = slice(stretch.writtenTo, to);
        await store.write(points);
        stretch.writtenTo = to;
        current.points += points.length;
        writePlan(options.dataDir, current);
        options.progress.set(statusOf(current, 'running'));
        await turn();
      }
      if (stopped) return;
    }
    options.progress.set(statusOf(current, 'done'));
    options.log?.info({ points: current.points }, 'demo plant history: written');
  })().catch((error: unknown) => {
    options.progress.set(statusOf(current, 'failed'));
    options.log?.error({ err: error }, 'demo plant history failed; the next start resumes it');
  });

  return {
    done,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}
