import type { FastifyInstance } from 'fastify';

/** A signal repeated within this is the same request (ms). */
const REPEAT_MS = 2_000;

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
 * failure or after `timeoutMs`. A second signal (2 s or more after the first) exits at once with 1.
 */
export function shutdownOnSignals(options: ShutdownOptions): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let startedAt: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (startedAt !== undefined) {
      // One Ctrl-C reaches the whole process group and `npm start` forwards it too: a repeat
      // within a moment is the same request, a later one means "stop now".
      if (Date.now() - startedAt < REPEAT_MS) return;
      options.log.error({ signal }, 'second signal: exiting without waiting for the shutdown');
      exit(1);
      return;
    }
    startedAt = Date.now();
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
  /** Stops listening (tests). */
  return () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.off(signal, onSignal);
  };
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
