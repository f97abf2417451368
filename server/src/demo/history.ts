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
import type { PointBatch, TelemetryStore } from '../telemetry/index.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Hours a counter cache advances between turns of the event loop while warming. */
const WARM_HOURS = 500;
/**
 * Generated at once, forwards, then written backwards in slices: a day (≈ 12 MB for 120 things at
 * the minute step, two of them: the next is generated while the slices of the one before are written).
 */
const BLOCK_MS = DAY;
/**
 * Slices in the first block: nothing is written before it is generated, so it is short, and the
 * first day block is generated while it is written.
 */
const FIRST_BLOCK_SLICES = 4;
/** Days written before the first start: a month, for the bill, the comparisons and EnPI. */
const HISTORY_DAYS = 31;
/**
 * One sample a minute: the live 10 s would be 6 × the points, and a minute is what keeps every
 * minute, hour and day bucket complete (the store's gap tolerance is at least a minute).
 */
const HISTORY_STEP_MS = 60_000;
/**
 * Points per slice: one write, one group commit (the store's default commit size). Each commit
 * costs about the same fixed 50–60 ms of SQL and fsync however small it is (a rollup pass, the
 * series update, the commit), so 10,000-point slices spent most of their time there
 * (bench/README.md, backfill). The event loop no longer waits for a slice: generation yields on
 * time (`GENERATE_MS`) and the store's writer cuts its own work into slices of a few ms.
 */
const HISTORY_SLICE_POINTS = 250_000;
/** Slices written at once: the next one is built while the store commits the one before. */
const IN_FLIGHT = 2;
/** How long generation runs before it lets the event loop turn, ms. */
const GENERATE_MS = 8;
const FILE = 'demo-history.json';

/**
 * What the file keeps: the range planned at the first start and how far down it is written,
 * [writtenFrom, end), `end` a step after the last reading (the one at or just before the first
 * start). It is written newest first (the last day's charts fill first), each slice
 * just before what is already there, so the store's rollups of a late slice reach no further than
 * the slice itself (a late point recomputes up to the next stored minute).
 */
interface HistoryPlan {
  start: number;
  end: number;
  stepMs: number;
  writtenFrom: number;
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

const statusOf = (plan: HistoryPlan, state: DemoHistoryStatus['state']): DemoHistoryStatus => ({
  state,
  percent: Math.floor(((plan.end - plan.writtenFrom) / (plan.end - plan.start)) * 100),
  from: plan.start,
  to: plan.end,
  points: plan.points,
});

/** What the history logs: its start and end, and a failure. */
export type HistoryLogger = Logger & { error(obj: object, msg?: string): void };

export interface HistoryOptions {
  store: Pick<TelemetryStore, 'writeBatch'>;
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
 * Brings a model's counter caches to `ts` a few hundred hours at a time, a turn of the event loop
 * between: from its installation that is a year or two of hours, and a transformer sums its loads'.
 * The caches only run forwards, so each block (a day, written before the one after it) starts here.
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
    // Up to and with the reading at the start (on the grid, at or before now): the simulator's
    // first reading comes a tick later, and a counter's increment is credited to the interval
    // ending at its reading, so without it the minute before the start got none and the next two.
    const last = Math.floor(now() / stepMs) * stepMs;
    const end = last + stepMs;
    const start =
      Math.ceil(Math.max(last - (options.days ?? HISTORY_DAYS) * DAY, writableFrom()) / stepMs) * stepMs;
    plan = { start, end, stepMs, writtenFrom: end, points: 0 };
    writePlan(options.dataDir, plan);
  }
  const none = { done: Promise.resolve(), stop: async () => {} };
  if (!plan || things.length === 0 || plan.end <= plan.start) return none;
  if (plan.writtenFrom <= plan.start) {
    options.progress.set(statusOf(plan, 'done'));
    return none;
  }

  let stopped = false;
  const current: HistoryPlan = plan;
  const step = current.stepMs;
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
  const stepsPerBlock = Math.max(stepsPerSlice, Math.floor(BLOCK_MS / step));
  const out = new Float64Array(Math.max(1, ...models.map((m) => m.model.metrics.length)));
  // Two blocks' samples, step-major: block step i, series j at i * series + j; NaN when silent.
  const buffers = [new Float64Array(stepsPerBlock * series), new Float64Array(stepsPerBlock * series)];
  // Set when the run ends early (stopped, failed): a block being generated ahead stops too.
  let halted = false;
  options.progress.set(statusOf(current, 'running'));
  options.log?.info(
    { from: new Date(current.start).toISOString(), to: new Date(current.end).toISOString() },
    'demo plant history: writing in the background',
  );

  /** Samples [from, from + steps × step) into `block`, forwards, a turn every few ms. */
  const generate = async (from: number, steps: number, block: Float64Array) => {
    for (const { model } of models) {
      await warm(generator, model, from);
      if (stopped || halted) return;
    }
    let since = performance.now();
    for (let i = 0; i < steps; i++) {
      let j = i * series;
      for (const { model, kept } of models) {
        const live = generator.sample(model, from + i * step, out);
        for (const k of kept) block[j++] = live ? (out[k] as number) : Number.NaN;
      }
      if (performance.now() - since >= GENERATE_MS) {
        await turn();
        if (stopped || halted) return;
        since = performance.now();
      }
    }
  };

  /**
   * The points of block steps [i0, i1), the block starting at `from`, as one column batch per thing
   * (store.writeBatch, the path ingest's parse workers use): no object per value.
   */
  const slice = (block: Float64Array, from: number, i0: number, i1: number): PointBatch[] => {
    const batches: PointBatch[] = [];
    let offset = 0;
    for (const { id, model, kept } of models) {
      const size = (i1 - i0) * kept.length;
      const metric = new Uint32Array(size);
      const ts = new Float64Array(size);
      const values = new Float64Array(size);
      let n = 0;
      for (let i = i0; i < i1; i++) {
        const at = from + i * step;
        const j = i * series + offset;
        for (let k = 0; k < kept.length; k++) {
          const value = block[j + k] as number;
          if (Number.isNaN(value)) continue;
          metric[n] = k;
          ts[n] = at;
          values[n++] = value;
        }
      }
      offset += kept.length;
      if (n > 0)
        batches.push({
          thingId: id,
          metrics: kept.map((k) => model.metrics[k] as string),
          metric: metric.subarray(0, n),
          ts: ts.subarray(0, n),
          values: values.subarray(0, n),
        });
    }
    return batches;
  };

  /** Slices handed to the store, oldest handed last; each one's progress is kept once it is durable. */
  const writing: { write: Promise<void>; from: number; points: number }[] = [];
  // After a failed slice the older ones are still awaited but not counted: the file must not
  // say written below a slice that is not.
  let failed = false;
  const settle = async () => {
    const w = writing.shift();
    if (!w) return;
    try {
      await w.write;
    } catch (error) {
      failed = true;
      throw error;
    }
    if (failed) return;
    current.writtenFrom = w.from;
    current.points += w.points;
    writePlan(options.dataDir, current);
    options.progress.set(statusOf(current, 'running'));
  };

  const done = (async () => {
    // Stops at the retention's edge too: the live data may have moved it past the plan's start.
    const floor = () => Math.max(current.start, Math.ceil(writableFrom() / step) * step);
    /** Generates the block of at most `most` steps just before `to` into `block`. */
    const blockBefore = (to: number, most: number, block: Float64Array) => {
      const steps = Math.min(most, Math.ceil((to - floor()) / step));
      const from = to - steps * step;
      const ready = generate(from, steps, block).then(() => ({ from, steps, block }));
      // Awaited when its turn comes (or at the end); a rejection meanwhile is not an unhandled one.
      ready.catch(() => {});
      return ready;
    };
    let ahead =
      current.writtenFrom > floor()
        ? blockBefore(
            current.writtenFrom,
            Math.min(stepsPerBlock, FIRST_BLOCK_SLICES * stepsPerSlice),
            buffers[0] as Float64Array,
          )
        : undefined;
    try {
      for (let other = 1; ahead && !stopped; other = 1 - other) {
        const { from, steps, block } = await ahead;
        // The next (older) block is generated into the other buffer while this one's slices are
        // written; this buffer is free once its slices are built (each holds its own arrays).
        ahead =
          !stopped && from > floor()
            ? blockBefore(from, stepsPerBlock, buffers[other] as Float64Array)
            : undefined;
        for (let i1 = steps; i1 > 0 && !stopped; i1 -= stepsPerSlice) {
          const i0 = Math.max(0, i1 - stepsPerSlice);
          const batches = slice(block, from, i0, i1);
          // One group commit for the slice's batches: durable before the progress file says so.
          const write = Promise.all(batches.map((batch) => store.writeBatch(batch))).then(() => {});
          // Awaited in order by settle(); a rejection meanwhile is not an unhandled one.
          write.catch(() => {});
          writing.push({
            write,
            from: from + i0 * step,
            points: batches.reduce((n, b) => n + b.ts.length, 0),
          });
          while (writing.length >= IN_FLIGHT) await settle();
          await turn();
        }
      }
    } finally {
      // What was handed to the store is awaited, so a stop leaves the file true of it; after a
      // failure only awaited, the first error being the one reported. A block generated ahead
      // is abandoned.
      halted = true;
      if (failed) await Promise.allSettled(writing.map((w) => w.write));
      else while (writing.length > 0) await settle();
      await ahead;
    }
    if (stopped) return;
    current.writtenFrom = current.start;
    writePlan(options.dataDir, current);
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
