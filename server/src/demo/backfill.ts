import type { PlantGenerator, SimThingSpec } from '../simulator/index.ts';
import type { PointBatch, TelemetryStore } from '../telemetry/index.ts';

export interface BackfillOptions {
  store: Pick<TelemetryStore, 'writeBatch'>;
  things: readonly (SimThingSpec & { id: number })[];
  generator: PlantGenerator;
  /** [start, end) in ms; samples fall on multiples of `stepMs`, like the live ticks. */
  start: number;
  end: number;
  stepMs: number;
  /** Points per group commit, at most (default 250,000: the store's own commit size). */
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
 * straight to the store, forwards, as one column batch per thing per step range (store.writeBatch,
 * the path ingest's parse workers and the demo history use: no object per value), generating the
 * next range while the store commits the previous one.
 */
export async function backfill(options: BackfillOptions): Promise<BackfillResult> {
  const { store, generator, stepMs } = options;
  if (!(stepMs >= 1000) || !Number.isInteger(stepMs))
    throw new RangeError('step must be a whole number of ms ≥ 1000');
  const batchPoints = options.batchPoints ?? 250_000;
  const maxInFlight = options.inFlight ?? 2;
  const began = performance.now();
  const models = options.things.map((t) => {
    const model = generator.model(t);
    // Indexes into the sample of the metrics written (those the thing's category declares).
    const kept = model.metrics.flatMap((metric, i) =>
      t.declared && !t.declared.includes(metric) ? [] : [i],
    );
    return { id: t.id, model, kept, metrics: kept.map((i) => model.metrics[i] as string) };
  });
  const width = Math.max(1, ...models.map((m) => m.model.metrics.length));
  const perStep = Math.max(
    1,
    models.reduce((n, m) => n + m.kept.length, 0),
  );
  const stepsPerBatch = Math.max(1, Math.floor(batchPoints / perStep));
  const out = new Float64Array(width);
  const pending: Promise<void>[] = [];
  let written = 0;
  let silentSamples = 0;

  /** Steps [from, from + steps × stepMs), time-major as the live ticks are, into a batch per thing. */
  const generate = (from: number, steps: number): PointBatch[] => {
    const batches: PointBatch[] = models.map(({ id, kept, metrics }) => ({
      thingId: id,
      metrics,
      metric: new Uint32Array(steps * kept.length),
      ts: new Float64Array(steps * kept.length),
      values: new Float64Array(steps * kept.length),
    }));
    const filled = new Array<number>(models.length).fill(0);
    for (let s = 0; s < steps; s++) {
      const ts = from + s * stepMs;
      for (let t = 0; t < models.length; t++) {
        const { model, kept } = models[t] as (typeof models)[number];
        if (!generator.sample(model, ts, out)) {
          silentSamples++;
          continue;
        }
        const b = batches[t] as PointBatch;
        let n = filled[t] as number;
        for (let k = 0; k < kept.length; k++) {
          b.metric[n] = k;
          b.ts[n] = ts;
          b.values[n++] = out[kept[k] as number] as number;
        }
        filled[t] = n;
      }
    }
    return batches.flatMap((b, t) => {
      const n = filled[t] as number;
      return n === 0
        ? []
        : [
            {
              ...b,
              metric: b.metric.subarray(0, n),
              ts: b.ts.subarray(0, n),
              values: b.values.subarray(0, n),
            },
          ];
    });
  };

  const first = Math.ceil(options.start / stepMs) * stepMs;
  for (let from = first; from < options.end; from += stepsPerBatch * stepMs) {
    const steps = Math.min(stepsPerBatch, Math.ceil((options.end - from) / stepMs));
    const batches = generate(from, steps);
    const points = batches.reduce((n, b) => n + b.ts.length, 0);
    const ts = Math.min(options.end, from + steps * stepMs);
    // One group commit for the range's batches.
    const write = Promise.all(batches.map((b) => store.writeBatch(b))).then(() => {
      written += points;
      options.onProgress?.({ points: written, ts });
    });
    // A failed write fails the run; attach a handler now so it is not reported as unhandled meanwhile.
    write.catch(() => {});
    pending.push(write);
    while (pending.length >= maxInFlight) await pending.shift();
  }
  while (pending.length > 0) await pending.shift();
  return { points: written, silentSamples, ms: performance.now() - began };
}
