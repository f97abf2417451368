import type { HealthCheck, HealthReady } from '@kilowatch/contract';

/** A check that takes longer than this counts as down: a probe must answer within its timeout. */
const CHECK_TIMEOUT_MS = 2_000;

export interface ReadinessDeps {
  database: { kind: string; ping: () => Promise<void> };
  telemetry: { kind: string; ping: () => Promise<void> };
  /** The MQTT side's status: off, the in-process broker, or the external broker's subscriber. */
  broker: () => { mode: string; connected: boolean };
}

const timed = async (
  name: HealthCheck['name'],
  kind: string,
  ping: () => Promise<void>,
): Promise<HealthCheck> => {
  const start = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ping(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)),
          CHECK_TIMEOUT_MS,
        );
      }),
    ]);
    return { name, kind, state: 'up', ms: Math.round(performance.now() - start) };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { name, kind, state: 'down', detail, ms: Math.round(performance.now() - start) };
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Readiness: the database, the telemetry store and the broker, each asked at once and named with
 * its state. `draining` once a shutdown began, so the load balancer stops sending requests here
 * before the port closes.
 */
export function createReadiness(deps: ReadinessDeps) {
  let draining = false;
  return {
    async check(): Promise<HealthReady> {
      const mqtt = deps.broker();
      const broker: HealthCheck =
        mqtt.mode === 'off'
          ? { name: 'broker', kind: 'off', state: 'off', ms: 0 }
          : mqtt.connected
            ? { name: 'broker', kind: mqtt.mode, state: 'up', ms: 0 }
            : {
                name: 'broker',
                kind: mqtt.mode,
                state: 'down',
                detail: mqtt.mode === 'subscriber' ? 'not connected to MQTT_URL' : 'not listening',
                ms: 0,
              };
      const checks = [
        ...(await Promise.all([
          timed('database', deps.database.kind, deps.database.ping),
          timed('telemetry', deps.telemetry.kind, deps.telemetry.ping),
        ])),
        broker,
      ];
      const status = draining ? 'draining' : checks.some((c) => c.state === 'down') ? 'unready' : 'ready';
      return { status, checks };
    },
    /** A shutdown began: readiness answers 503 `draining` from now on. */
    drain(): void {
      draining = true;
    },
  };
}

export type Readiness = ReturnType<typeof createReadiness>;
