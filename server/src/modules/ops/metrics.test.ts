import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';

// prom-client reads perf_hooks through require(): the spy goes on that same module object.
const perfHooks = createRequire(import.meta.url)('node:perf_hooks') as typeof import('node:perf_hooks');

describe('createMetrics', () => {
  afterEach(() => vi.restoreAllMocks());

  it('starts one event-loop-lag histogram per process, however many apps are built', async () => {
    const spy = vi.spyOn(perfHooks, 'monitorEventLoopDelay');
    vi.resetModules();
    const { createMetrics } = await import('./metrics.ts');
    const first = createMetrics();
    const second = createMetrics();
    expect(spy).toHaveBeenCalledTimes(1);
    // Each app's scrape still has the process's metrics and only its own counters.
    first.ingestAccepted('mqtt', 3);
    const a = (await first.scrape()).text;
    const b = (await second.scrape()).text;
    for (const text of [a, b]) expect(text).toContain('nodejs_eventloop_lag_p99_seconds');
    expect(a).toContain('kilowatch_ingest_points_total{path="mqtt"} 3');
    expect(b).not.toContain('kilowatch_ingest_points_total{path="mqtt"}');
  });
});
