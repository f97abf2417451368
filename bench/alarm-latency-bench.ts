/**
 * From a point published over MQTT to its alarm in history (issue 11 target: ≤ 100 ms median over
 * 1,000 alarms). The app runs in this process with its own MQTT broker; a threshold rule (T > 50,
 * no delays) watches `--things` things through one monitor each. Each thing, as a device with its
 * own client, publishes a point above the limit, then one below it, and the operator's
 * acknowledgement closes the returned alarm (untimed), so every raise is a new alarm in history.
 *
 * "In history" is the engine's `onWritten` hook (runner.ts), called once the transaction that wrote
 * the alarm has committed; the bench listens there by wrapping the notifier's hook, which it still
 * calls. Baseline, in the same run and for the same points: the broker's PUBACK, sent once ingest
 * has written the point to the telemetry store.
 *
 *   npx tsx bench/alarm-latency-bench.ts [--things 100] [--alarms 1000] [--runs 5] [--concurrency 1]
 *     [--port 19230] [--mqtt-port 19231]                  # PG_URL=postgres://… for PostgreSQL
 *   npm run bench:alarm-latency -w bench
 */
import mqtt, { type MqttClient } from 'mqtt';
import {
  Api,
  createPlant,
  fmt,
  log,
  machine,
  median,
  numArg,
  quantile,
  sleep,
  startInProcess,
} from './harness.ts';

const THINGS = numArg('things', 100);
const ALARMS = numArg('alarms', 1000);
const RUNS = numArg('runs', 5);
const CONCURRENCY = Math.min(numArg('concurrency', 1), THINGS);
const WARMUP = numArg('warmup', 50);
const PORT = numArg('port', 19230);
const MQTT_PORT = numArg('mqtt-port', 19231);
const LIMIT = 50;

interface Written {
  type: 'raise' | 'return';
  alarmId: number;
  quiet: boolean;
  at: number;
}

const running = await startInProcess({ port: PORT, mqttPort: MQTT_PORT, pgUrl: process.env.PG_URL });
const { app } = running;
const clients: MqttClient[] = [];
try {
  log(machine());
  const api = new Api(running.base);
  await api.login();
  const plant = await createPlant(api, THINGS);
  const rule = await api.call<{ id: number }>('POST', '/api/alarm/rules', {
    name: '温度过高 (bench)',
    templateId: null,
    categoryId: plant.categoryId,
    ability: 'T',
    condition: { kind: 'threshold', op: '>', value: LIMIT },
    onDelay: 0,
    offDelay: 0,
    deadband: 0,
    severity: 'major',
    message: '{thing} 温度 {value}{unit}',
  });
  await api.call('POST', `/api/alarm/rules/${rule.id}/state`, { action: 'enable' });
  await api.call('POST', '/api/alarm/monitors/batch', {
    appliedType: 'rule',
    appliedId: rule.id,
    targets: plant.things.map((t) => ({ type: 'thing', id: t.id })),
  });
  const runner = app.services.alarmRunner;
  for (let i = 0; runner.size() !== THINGS; i++) {
    if (i > 100) throw new Error(`the engine watches ${runner.size()} things, not ${THINGS}`);
    await sleep(50);
  }

  // A point's ts is unique across things, so the written transition (dated at the point: no delays)
  // finds its waiter.
  const waiting = new Map<number, (w: Written) => void>();
  const notifier = app.services.alarmNotify.notifier;
  const hook = notifier.alarmWritten.bind(notifier);
  notifier.alarmWritten = (t) => {
    const w = t as Written;
    waiting.get(w.at)?.(w);
    waiting.delete(w.at);
    hook(t);
  };

  for (const [t, thing] of plant.things.entries()) {
    clients[t] = await mqtt.connectAsync(`mqtt://127.0.0.1:${MQTT_PORT}`, {
      username: thing.token,
      password: 'x',
      clientId: `bench-alarm-${t}`,
      protocolVersion: 4,
      reconnectPeriod: 0,
    });
  }
  log(
    `${THINGS} things watched by rule T > ${LIMIT} (one monitor each), ${process.env.PG_URL ? 'PostgreSQL' : 'SQLite'}; ` +
      `${RUNS} runs of ${fmt(ALARMS)} alarms, ${CONCURRENCY} device(s) at a time, ${WARMUP} warm-up alarms first`,
  );

  let clock = Date.now();
  const nextTs = () => {
    clock = Math.max(clock + 1, Date.now());
    return clock;
  };
  /** Publishes one point; answers the PUBACK's and the history write's delays, ms. */
  const publish = async (t: number, value: number): Promise<{ ack: number; written: number; w: Written }> => {
    const ts = nextTs();
    const client = clients[t] as MqttClient;
    const t0 = performance.now();
    const written = new Promise<{ at: number; w: Written }>((resolve) =>
      waiting.set(ts, (w) => resolve({ at: performance.now(), w })),
    );
    await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts, values: { T: value } }), {
      qos: 1,
    });
    const ack = performance.now() - t0;
    const timeout = setTimeout(() => {
      throw new Error(`no alarm written within 10 s for the point ${ts} of thing ${t}`);
    }, 10_000);
    const done = await written;
    clearTimeout(timeout);
    return { ack, written: done.at - t0, w: done.w };
  };

  const actor = { id: null, username: 'bench' };
  /** `count` alarms raised and returned, `CONCURRENCY` devices at a time, each on its own things. */
  const cycle = async (count: number) => {
    const raise: number[] = [];
    const back: number[] = [];
    const acks: number[] = [];
    let left = count;
    const device = async (d: number) => {
      for (let k = 0; left > 0; k++) {
        left--;
        const t = (d + k * CONCURRENCY) % THINGS;
        const up = await publish(t, LIMIT + 10 + (k % 20));
        if (up.w.type !== 'raise') throw new Error(`expected a raise, got ${up.w.type}`);
        const down = await publish(t, LIMIT - 20);
        if (down.w.type !== 'return') throw new Error(`expected a return, got ${down.w.type}`);
        raise.push(up.written);
        back.push(down.written);
        acks.push(up.ack, down.ack);
        // Acknowledging a returned alarm closes it: the next raise on this thing is a new alarm.
        await app.services.alarms.act(up.w.alarmId, { action: 'acknowledge' }, actor);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, (_, d) => device(d)));
    return { raise, back, acks };
  };

  await cycle(WARMUP);
  const results: { raise: number[]; back: number[]; acks: number[] }[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const r = await cycle(ALARMS);
    results.push(r);
    log(
      `run ${run}: point → alarm in history median ${fmt(median(r.raise), 2)} ms, p99 ${fmt(quantile(r.raise, 0.99), 2)} ms; ` +
        `return in history median ${fmt(median(r.back), 2)} ms, p99 ${fmt(quantile(r.back, 0.99), 2)} ms; ` +
        `baseline PUBACK (point in the store) median ${fmt(median(r.acks), 2)} ms, p99 ${fmt(quantile(r.acks, 0.99), 2)} ms`,
    );
  }
  const of = (pick: (r: (typeof results)[number]) => number) => fmt(median(results.map(pick)), 2);
  log(
    `\nmedians of ${RUNS} runs × ${fmt(ALARMS)} alarms: raise in history median ${of((r) => median(r.raise))} ms, ` +
      `p99 ${of((r) => quantile(r.raise, 0.99))} ms (target ≤ 100 ms median); ` +
      `return median ${of((r) => median(r.back))} ms, p99 ${of((r) => quantile(r.back, 0.99))} ms; ` +
      `baseline PUBACK median ${of((r) => median(r.acks))} ms, p99 ${of((r) => quantile(r.acks, 0.99))} ms`,
  );
  const history = await api.call<{ size: number }>('GET', '/api/alarm/history?page=1&pageSize=1');
  log(`alarms in history: ${fmt(history.size)} (${fmt(WARMUP + RUNS * ALARMS)} expected)`);
} finally {
  await Promise.all(clients.map((c) => c.endAsync()));
  await running.stop();
}
process.exit(0);
