import type { PlantGenerator, SimThingSpec } from '../simulator/index.ts';
import type { Point, TelemetryStore } from '../telemetry/index.ts';

export interface BackfillOptions {
  store: Pick<TelemetryStore, 'write'>;
  things: readonly (SimThingSpec & { id: number })[];
  generator: PlantGenerator;
  /** [start, end) in ms; samples fall on multiples of `stepMs`, like the live ticks. */
  start: number;
  end: number;
  stepMs: number;
  /** Points per store.write (default 100,000). */
  batchPoints?: number;
  /** Writes allowed in flight while the next batch is generated (default 2). */
  inFlight?: number;
  /** Called after each batch is durable. */
  onProgress?: (progress: { points: number; ts: number }) => void;
}

export interface BackfillResult {
  points: number;
  /** Samples skipped because the thing was silent (simulated gaps). */
  silentSamples: number;
  ms: number;
}

/**
 * Generates the history of `things` over [start, end) with the live generator and writes it
 * straight to the store in large batches, time-major (all things at one instant, then the next),
 * generating the next batch while the store commits the previous one.
 */
export async function backfill(options: BackfillOptions): Promise<BackfillResult> {
  const { store, generator, stepMs } = options;
  if (!(stepMs >= 1000) || !Number.isInteger(stepMs))
    throw new RangeError('step must be a whole number of ms ≥ 1000');
  const batchPoints = options.batchPoints ?? 100_000;
  const maxInFlight = options.inFlight ?? 2;
  const began = performance.now();
  const models = options.things.map((t) => {
    const model = generator.model(t);
    // Indexes into the sample of the metrics written (those the thing's category declares).
    const kept = model.metrics.flatMap((metric, i) =>
      t.declared && !t.declared.includes(metric) ? [] : [i],
    );
    return { id: t.id, model, kept };
  });
  const width = Math.max(1, ...models.map((m) => m.model.metrics.length));
  const out = new Float64Array(width);
  const pending: Promise<void>[] = [];
  let written = 0;
  let silentSamples = 0;
  let batch: Point[] = [];

  const flush = async (ts: number) => {
    if (batch.length === 0) return;
    const points = batch;
    batch = [];
    const write = store.write(points).then(() => {
      written += points.length;
      options.onProgress?.({ points: written, ts });
    });
    // A failed write fails the run; attach a handler now so it is not reported as unhandled meanwhile.
    write.catch(() => {});
    pending.push(write);
    while (pending.length >= maxInFlight) await pending.shift();
  };

  const first = Math.ceil(options.start / stepMs) * stepMs;
  for (let ts = first; ts < options.end; ts += stepMs) {
    for (const { id, model, kept } of models) {
      if (!generator.sample(model, ts, out)) {
        silentSamples++;
        continue;
      }
      for (const i of kept) {
        batch.push({ thingId: id, metric: model.metrics[i] as string, ts, value: out[i] as number });
      }
    }
    if (batch.length >= batchPoints) await flush(ts);
  }
  await flush(options.end);
  while (pending.length > 0) await pending.shift();
  return { points: written, silentSamples, ms: performance.now() - began };
}
