import type { FastifyInstance } from 'fastify';

export interface ShutdownOptions {
  /** Stops everything in order (server.ts: the demo's devices, then `app.close()`). */
  close: () => Promise<void>;
  /** Told first, before anything closes (readiness turns to `draining`). */
  onSignal?: (signal: NodeJS.Signals) => void;
  /** SHUTDOWN_TIMEOUT: a drain still running then ends the process with 1. */
  timeoutMs: number;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  exit?: (code: number) => void;
}

/**
 * Graceful shutdown on SIGTERM and SIGINT: readiness says `draining`, then `close` stops taking
 * connections, lets requests under way finish, ends live streams, stops MQTT, waits for ingest
 * calls under way and flushes the store (app.ts orders the close hooks); exit 0 once done, 1 on
 * failure or after `timeoutMs`. A second signal exits at once with 1.
 */
export function shutdownOnSignals(options: ShutdownOptions): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) {
      options.log.error({ signal }, 'second signal: exiting without waiting for the shutdown');
      exit(1);
      return;
    }
    started = true;
    options.log.info({ signal, timeoutMs: options.timeoutMs }, 'shutting down');
    options.onSignal?.(signal);
    const timer = setTimeout(() => {
      options.log.error({ timeoutMs: options.timeoutMs }, 'shutdown took too long (SHUTDOWN_TIMEOUT)');
      exit(1);
    }, options.timeoutMs);
    timer.unref();
    options.close().then(
      () => {
        clearTimeout(timer);
        options.log.info({}, 'shut down cleanly');
        exit(0);
      },
      (error: unknown) => {
        clearTimeout(timer);
        options.log.error({ err: error }, 'did not shut down cleanly');
        exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, onSignal);
}

/**
 * While the server closes, a keep-alive connection is closed as soon as its request is answered:
 * Node closes only the connections idle at the moment of `close()`, and one that was busy then would
 * hold the shutdown for Fastify's keep-alive timeout (72 s). Requests under way still finish.
 */
export function closeIdleWhileClosing(app: FastifyInstance): void {
  let timer: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    timer = setInterval(() => app.server.closeIdleConnections(), 100);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
