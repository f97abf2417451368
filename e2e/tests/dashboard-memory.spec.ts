import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { ADMIN } from './accounts.ts';
import { apiLogin, post } from './api.ts';
import { expectPath, login } from './helpers.ts';

// The situation overview stays open on a wall for days: its memory must stay flat. This runs the
// page in kiosk mode with demo devices placed on the map (live values every 10 s over the live
// channel, totals and map polled every 10 s, trends every minute) and samples the heap after a
// forced garbage collection, and the DOM's node and listener counts, through the DevTools protocol.
// DASHBOARD_MEMORY_MINUTES sets how long, and runs it at all (playwright.config.ts; docs/dashboard.md has the 1-hour command).
const MINUTES = Number(process.env.DASHBOARD_MEMORY_MINUTES ?? 2);
const SAMPLE_MS = Number(process.env.DASHBOARD_MEMORY_SAMPLE_SECONDS ?? 15) * 1000;
/** The first minute fills caches (queries, the image, the trends) and is not counted. */
const WARMUP_MS = 60_000;
const MARKERS = 20;
const LAYOUT_IMAGE = new URL('../../docs/screenshots/console.png', import.meta.url);

interface Sample {
  atMs: number;
  heapMB: number;
  nodes: number;
  listeners: number;
}

/** Least-squares slope of y over x. */
const slope = (xs: number[], ys: number[]) => {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += ((xs[i] as number) - mx) * ((ys[i] as number) - my);
    den += ((xs[i] as number) - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
};

test('the situation overview keeps its memory flat while it runs', async ({ page, request }, testInfo) => {
  test.setTimeout(WARMUP_MS + MINUTES * 60_000 + 120_000);
  const headers = await apiLogin(request);
  const map = (await (await request.get('/api/dashboard/map', { headers })).json()).data;
  if (!map.image) {
    const res = await request.post('/api/dashboard/map/image', {
      headers,
      multipart: { file: { name: 'plant.png', mimeType: 'image/png', buffer: readFileSync(LAYOUT_IMAGE) } },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  const things = (
    await (await request.get(`/api/thing/things?page=1&pageSize=${MARKERS}`, { headers })).json()
  ).data.list as { id: number }[];
  const placed: number[] = [];
  for (const [i, thing] of things.entries()) {
    const p = await post<{ id: number }>(request, headers, '/api/dashboard/placements', {
      resourceType: 'thing',
      resourceId: thing.id,
      x: 0.1 + 0.8 * ((i % 5) / 4),
      y: 0.15 + 0.7 * (Math.floor(i / 5) / 3),
    });
    placed.push(p.id);
  }

  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');
  await page.goto('/#/dashboard?kiosk=1');
  await expect(page.getByTestId('situation-map').locator('[data-testid^="marker-thing-"]')).toHaveCount(
    MARKERS,
  );

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  const sample = async (atMs: number): Promise<Sample> => {
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = await cdp.send('Runtime.getHeapUsage');
    const dom = await cdp.send('Memory.getDOMCounters');
    return { atMs, heapMB: heap.usedSize / 2 ** 20, nodes: dom.nodes, listeners: dom.jsEventListeners };
  };

  await page.waitForTimeout(WARMUP_MS);
  const start = Date.now();
  const samples: Sample[] = [await sample(0)];
  while (Date.now() - start < MINUTES * 60_000) {
    await page.waitForTimeout(SAMPLE_MS);
    samples.push(await sample(Date.now() - start));
  }
  // The page kept working all along: live values still arrive.
  await expect(page.getByText('实时已连接')).toBeVisible();

  const first = samples[0] as Sample;
  const last = samples.at(-1) as Sample;
  const minutes = samples.map((s) => s.atMs / 60_000);
  const report = {
    minutes: MINUTES,
    markers: MARKERS,
    heapMB: { first: first.heapMB, last: last.heapMB, max: Math.max(...samples.map((s) => s.heapMB)) },
    heapSlopeMBPerHour:
      slope(
        minutes,
        samples.map((s) => s.heapMB),
      ) * 60,
    nodes: { first: first.nodes, last: last.nodes },
    listeners: { first: first.listeners, last: last.listeners },
    samples,
  };
  writeFileSync(testInfo.outputPath('dashboard-memory.json'), JSON.stringify(report, null, 2));
  const summary =
    `dashboard memory over ${MINUTES} min: heap ${first.heapMB.toFixed(2)} → ${last.heapMB.toFixed(2)} MB ` +
    `(max ${report.heapMB.max.toFixed(2)}, slope ${report.heapSlopeMBPerHour.toFixed(2)} MB/h), ` +
    `DOM nodes ${first.nodes} → ${last.nodes}, listeners ${first.listeners} → ${last.listeners}`;
  testInfo.annotations.push({ type: 'memory', description: summary });
  process.stdout.write(`${summary}\n`);

  for (const id of placed) await request.delete(`/api/dashboard/placements/${id}`, { headers });

  // Flat: what a GC leaves grows by less than 2 MB over the run, and the DOM does not grow. The
  // live values keep one entry per series, so a leak would show as steady growth, not noise.
  expect(last.heapMB - first.heapMB).toBeLessThan(2);
  expect(last.nodes).toBeLessThanOrEqual(first.nodes * 1.1 + 50);
  expect(last.listeners).toBeLessThanOrEqual(first.listeners + 20);
});
