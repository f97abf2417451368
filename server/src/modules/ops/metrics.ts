import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds; from a fast rollup read to a year of a plant's meters. */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** What /metrics reads from other services when it is scraped (set once they exist). */
interface MetricSources {
  /** The alarm runner's `lag()`. */
  alarmLag?: () => { queued: number; seconds: number };
  /** The notifier's `backlog()`. */
  notificationBacklog?: () => Promise<{ pending: number; oldestSeconds: number }>;
  /** The telemetry store's `memory()` (the embedded store only). */
  telemetryMemory?: () => Promise<Record<string, number>>;
}

/**
 * The process's own metrics (CPU, memory, event-loop lag, GC), registered once per process: the
 * event-loop lag is a `monitorEventLoopDelay` histogram that samples every 10 ms and that
 * prom-client never stops, so one per app built would keep waking a process that builds many
 * (a test file) once for every app it ever built.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The server's Prometheus metrics (prom-client), one registry per app so tests that build several
 * apps in one process do not share counters; the process's metrics are shared (`processMetrics`).
 * Push-style instruments are fed by the wrappers in instrument.ts and the request hook; the alarm
 * and outbox gauges are read when scraped.
 */
export function createMetrics() {
  const registry = new Registry();
  const shared = processMetrics();
  const sources: MetricSources = {};

  const ingestPoints = new Counter({
    name: 'kilowatch_ingest_points_total',
    help: 'Values accepted by ingest, by path (mqtt, http JSON, line protocol); rate() is points/s',
    labelNames: ['path'] as const,
    registers: [registry],
  });
  const ingestRejected = new Counter({
    name: 'kilowatch_ingest_rejected_total',
    help: 'Values or messages refused by ingest, by path and reason',
    labelNames: ['path', 'reason'] as const,
    registers: [registry],
  });
  const storeWrite = new Histogram({
    name: 'kilowatch_store_write_seconds',
    help: 'Telemetry store write() until durable (the ingest acknowledgement waits on it)',
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const storePoints = new Counter({
    name: 'kilowatch_store_points_written_total',
    help: 'Points the telemetry store made durable',
    registers: [registry],
  });
  const storeErrors = new Counter({
    name: 'kilowatch_store_write_errors_total',
    help: 'Telemetry store writes that failed (nothing of them was acknowledged)',
    registers: [registry],
  });
  const storeRead = new Histogram({
    name: 'kilowatch_store_read_seconds',
    help: 'Telemetry store reads, by operation',
    labelNames: ['op'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const requests = new Histogram({
    name: 'kilowatch_http_request_duration_seconds',
    help: 'HTTP requests by route template, method and status class (live streams excluded)',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const sse = new Gauge({
    name: 'kilowatch_sse_clients',
    help: 'Open live-value streams (GET /api/query/live)',
    registers: [registry],
  });
  const leader = new Gauge({
    name: 'kilowatch_replica_leader',
    help: 'Replica role: 1 when this replica leads (runs the alarm engine and report schedules), 0 when it follows',
    registers: [registry],
  });
  leader.set(1);
  new Gauge({
    name: 'kilowatch_alarm_engine_lag_seconds',
    help: 'Age of the oldest alarm raise or return judged but not yet written to history (0: caught up)',
    registers: [registry],
    collect() {
      this.set(sources.alarmLag?.().seconds ?? 0);
    },
  });
  new Gauge({
    name: 'kilowatch_alarm_engine_queue',
    help: 'Batches of alarm transitions waiting for their history write',
    registers: [registry],
    collect() {
      this.set(sources.alarmLag?.().queued ?? 0);
    },
  });
  // One outbox query feeds both gauges: the first collect asks, the second takes the same answer.
  let asked: Promise<{ pending: number; oldestSeconds: number }> | undefined;
  const ask = () => {
    asked ??= (sources.notificationBacklog?.() ?? Promise.resolve({ pending: 0, oldestSeconds: 0 })).finally(
      () =>
        setImmediate(() => {
          asked = undefined;
        }),
    );
    return asked;
  };
  new Gauge({
    name: 'kilowatch_telemetry_memory_bytes',
    help: 'Memory the embedded telemetry store holds outside the Node heap, by part (DuckDB tags, rollup_cache)',
    labelNames: ['part'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const [part, bytes] of Object.entries((await sources.telemetryMemory?.()) ?? {}))
        this.set({ part }, bytes);
    },
  });
  new Gauge({
    name: 'kilowatch_notification_backlog',
    help: 'Alarm notifications pending in the outbox (due or backing off after a failure)',
    registers: [registry],
    async collect() {
      this.set((await ask()).pending);
    },
  });
  new Gauge({
    name: 'kilowatch_notification_oldest_pending_seconds',
    help: 'Age of the oldest pending alarm notification (0: none)',
    registers: [registry],
    async collect() {
      this.set((await ask()).oldestSeconds);
    },
  });

  return {
    registry,
    /** Where scrape-time gauges read from; services.ts fills it once the services exist. */
    sources,
    ingestAccepted(path: string, count: number): void {
      if (count > 0) ingestPoints.inc({ path }, count);
    },
    ingestRejected(path: string, reason: string, count: number): void {
      if (count > 0) ingestRejected.inc({ path, reason }, count);
    },
    storeWritten(seconds: number, points: number): void {
      storeWrite.observe(seconds);
      storePoints.inc(points);
    },
    storeWriteFailed(): void {
      storeErrors.inc();
    },
    storeRead(op: string, seconds: number): void {
      storeRead.observe({ op }, seconds);
    },
    request(route: string, method: string, status: number, seconds: number): void {
      requests.observe({ route, method, status: `${Math.floor(status / 100)}xx` }, seconds);
    },
    sseClients(open: number): void {
      sse.set(open);
    },
    /** The replica's role; a single replica leads (the replicas' leases set it once they exist). */
    setLeader(leads: boolean): void {
      leader.set(leads ? 1 : 0);
    },
    /** The exposition text and its content type. */
    async scrape(): Promise<{ text: string; contentType: string }> {
      const both = Registry.merge([shared, registry]);
      return { text: await both.metrics(), contentType: both.contentType };
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
