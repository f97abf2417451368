/**
 * How the benchmark plant's devices send: JSON over MQTT (one client per thing, its token as
 * username) and line protocol over HTTP.
 */
import { type BenchThing, METRICS, type Plant, sample } from './harness.ts';

/**
 * One JSON array of ThingsBoard messages `{ts, values:{…10}}` for steps [from, to) of one thing's
 * values (`steps × METRICS.length`, ability order of METRICS), ts = start + step × interval.
 * `values` may hold a window of the steps: `offset` is the step its first row stands for.
 */
export function mqttPayload(
  values: Float64Array,
  from: number,
  to: number,
  start: number,
  intervalMs: number,
  offset = 0,
): Buffer {
  const nm = METRICS.length;
  const parts: string[] = [];
  for (let i = from; i < to; i++) {
    let message = `{"ts":${start + i * intervalMs},"values":{`;
    for (let a = 0; a < nm; a++)
      message += `${a ? ',' : ''}"${METRICS[a]}":${String(values[(i - offset) * nm + a] as number)}`;
    parts.push(`${message}}}`);
  }
  return Buffer.from(`[${parts.join(',')}]`);
}

/**
 * Each thing as a device: its own client (username = its token), QoS 1 to v1/devices/me/telemetry,
 * `inflight` publishes at a time, the payloads `next(t)` hands out for thing t in order, until it
 * has none or `isOver()`. Every PUBACK is pushed to `acks` with the payload's points.
 */
export async function publishMqtt(options: {
  port: number;
  things: readonly BenchThing[];
  inflight: number;
  isOver: () => boolean;
  next: (t: number) => { body: Buffer; points: number } | undefined;
  acks: { at: number; points: number }[];
  clientId?: string;
}): Promise<{ errors: number }> {
  const { default: mqtt } = await import('mqtt');
  let errors = 0;
  await Promise.all(
    options.things.map(async (thing, t) => {
      const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${options.port}`, {
        username: thing.token,
        password: 'x',
        clientId: `${options.clientId ?? 'bench'}-${t}`,
        protocolVersion: 4,
        reconnectPeriod: 0,
      });
      const sendOne = async (): Promise<void> => {
        while (!options.isOver()) {
          const payload = options.next(t);
          if (!payload) return;
          try {
            await client.publishAsync('v1/devices/me/telemetry', payload.body, { qos: 1 });
            options.acks.push({ at: performance.now(), points: payload.points });
          } catch (error) {
            errors++;
            if (errors < 5) console.error(`  publish failed: ${(error as Error).message}`);
            return;
          }
        }
      };
      await Promise.all(Array.from({ length: options.inflight }, sendOne));
      await client.endAsync();
    }),
  );
  return { errors };
}

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
