import { METRICS, type Plant, sample } from './harness.ts';

/**
 * Sends steps [from, to) of every thing of the plant through the line-protocol write, one request
 * per thing, as a running plant does (the server keeps them in memory). Step `i` is at
 * `start + i * intervalMs`; `counter` carries the energy counters from step to step.
 */
export async function writeSteps(
  base: string,
  plant: Plant,
  {
    from,
    to,
    start,
    intervalMs,
    counter,
  }: {
    from: number;
    to: number;
    start: number;
    intervalMs: number;
    counter: Float64Array;
  },
): Promise<void> {
  const row = new Float64Array(METRICS.length);
  const bodies = plant.things.map(() => [] as string[]);
  for (let i = from; i < to; i++) {
    const ts = start + i * intervalMs;
    for (let t = 0; t < plant.things.length; t++) {
      sample(t, i, ts, intervalMs, counter, row);
      bodies[t]?.push(`meter ${METRICS.map((m, a) => `${m}=${row[a]}`).join(',')} ${ts}`);
    }
  }
  await Promise.all(
    plant.things.map(async (thing, t) => {
      const res = await fetch(`${base}/api/v2/write?precision=ms`, {
        method: 'POST',
        headers: { authorization: `Token ${thing.token}`, 'content-type': 'text/plain' },
        body: bodies[t]?.join('\n'),
      });
      if (res.status !== 204) throw new Error(`line-protocol write: ${res.status} ${await res.text()}`);
    }),
  );
}
