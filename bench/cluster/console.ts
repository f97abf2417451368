/**
 * The console part of the cluster test: headless Chromium logs in through the load balancer and
 * keeps a workshop board playing whose device tile shows one meter's live value (the board's tiles
 * take their values from the live stream, GET /api/query/live, Server-Sent Events). It samples the
 * page four times a second while replicas are killed:
 * - the page must stay logged in (never on #/login) and show no error page;
 * - the shown value must change again within `boundMs` after each kill, and never stand still
 *   longer than that;
 * - the stream itself (an EventSource wrapped before the console loads) must deliver values again
 *   within `boundMs` after each kill: when the killed replica held it, that is the reconnection
 *   through the load balancer to a survivor, with a fresh stream ticket.
 * The tiles are also re-read every 10 s (BOARD_CABINETS_REFRESH_MS), which is why the stream is
 * watched on its own: the value alone could hide a stream that never came back.
 */
import { type Browser, chromium, type Page } from 'playwright-core';

export interface ConsoleOptions {
  /** The load balancer's origin. */
  url: string;
  username: string;
  password: string;
  /** The thing whose tile is watched, and the metric its tile shows. */
  thingId: number;
  metric: string;
  boundMs: number;
}

interface StreamEvent {
  t: number;
  kind: 'open' | 'values' | 'error' | 'end';
}

interface Sample {
  t: number;
  hash: string;
  text: string | null;
  errorPage: boolean;
  events: StreamEvent[];
  toasts: string[];
}

/** A stretch without change: how long, and when it began (ms after the board first showed a value). */
interface Gap {
  ms: number;
  from: number;
}

interface KillSeen {
  /** ms after the board first showed a value. */
  at: number;
  /** ms from the kill until the tile showed a value it did not show before. */
  value: number;
  /** ms from the kill until the stream delivered values again. */
  stream: number;
  /** The killed replica held the stream: it failed and was reopened. */
  reconnected: boolean;
}

export interface ConsoleReport {
  samples: number;
  /** The longest time the tile's value stood still. */
  maxValueGap: Gap;
  /** The longest time between two deliveries of the stream. */
  maxStreamGap: Gap;
  kills: KillSeen[];
  /** Streams opened: the first, token renewals and reconnections. */
  opens: number;
  /** Error toasts and uncaught page errors seen: reported, not failed (a request cut by a kill may show one). */
  toasts: string[];
  pageErrors: string[];
  failures: string[];
}

export interface ConsoleWatch {
  /** A replica was killed at `at` (ms since the epoch). */
  killed(at: number): void;
  stop(): Promise<ConsoleReport>;
}

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Runs in the page before the console: every EventSource reports what it sees, every error toast is counted. */
function recordStreams(): void {
  const seen = { events: [] as { t: number; kind: string }[], toasts: [] as string[] };
  (window as unknown as { __kw: typeof seen }).__kw = seen;
  const Native = window.EventSource;
  window.EventSource = class extends Native {
    constructor(url: string | URL, init?: EventSourceInit) {
      super(url, init);
      for (const kind of ['open', 'values', 'error', 'end'])
        this.addEventListener(kind, () => seen.events.push({ t: Date.now(), kind }));
    }
  };
  new MutationObserver((records) => {
    for (const r of records)
      for (const node of r.addedNodes) {
        if (!(node instanceof Element)) continue;
        const toast = node.matches('.ant-message-error') ? node : node.querySelector('.ant-message-error');
        if (toast) seen.toasts.push(toast.textContent ?? '');
      }
  }).observe(document, { childList: true, subtree: true });
}

async function sample(page: Page, selector: string): Promise<Sample> {
  const seen = await page.evaluate((sel) => {
    const kw = (window as unknown as { __kw?: { events: { t: number; kind: string }[]; toasts: string[] } })
      .__kw;
    return {
      hash: location.hash,
      text: document.querySelector(sel)?.textContent ?? null,
      // The route's error boundary, or the tiles' "could not load" alert.
      errorPage: document.querySelector('main > [role="alert"], .ant-alert-error') !== null,
      events: kw ? kw.events.splice(0) : [],
      toasts: kw ? kw.toasts.splice(0) : [],
    };
  }, selector);
  return { t: Date.now(), ...seen, events: seen.events as StreamEvent[] };
}

/** Logs in, opens the board and samples it until stopped. Throws when the console cannot start. */
export async function watchConsole(options: ConsoleOptions): Promise<ConsoleWatch> {
  const browser: Browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(recordStreams);
  const failures: string[] = [];
  const toasts: string[] = [];
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const selector = `[data-testid="board-value-${options.thingId}-${options.metric}"]`;
  try {
    await page.goto(`${options.url}/#/login`);
    await page.getByPlaceholder('用户名').fill(options.username);
    await page.getByPlaceholder('密码').fill(options.password);
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.waitForURL(/#\/home$/, { timeout: 30_000 });
    await page.goto(`${options.url}/#/workshopBoard?play=1`);
    const shown = page.locator(selector).filter({ hasText: /\d/ });
    // A start under load (one run of seven here) showed no value in 30 s; the board is opened once
    // more and the wait said in the output, so a slow start is seen, and a second one fails the test.
    if (
      !(await shown.waitFor({ timeout: 30_000 }).then(
        () => true,
        () => false,
      ))
    ) {
      const tile =
        (await page
          .locator(selector)
          .textContent()
          .catch(() => null)) ?? 'no tile';
      console.info(`console: no value on the board after 30 s (the tile reads "${tile}"); opening it again`);
      await page.reload();
      await shown.waitFor({ timeout: 30_000 });
    }
  } catch (error) {
    await browser.close();
    throw new Error(`console did not start: ${String(error)}`);
  }

  const kills: number[] = [];
  const changes: number[] = [];
  const events: StreamEvent[] = [];
  let samples = 0;
  let last: string | null = null;
  let running = true;
  const fail = (what: string) => {
    if (!failures.includes(what)) failures.push(what);
  };
  const loop = (async () => {
    while (running) {
      const began = Date.now();
      const s = await sample(page, selector).catch((error: unknown) => {
        fail(`console: the page could not be read (${String(error).slice(0, 200)})`);
        return null;
      });
      if (s) {
        samples++;
        if (s.hash.startsWith('#/login')) fail(`console: sent to the login page (${s.hash})`);
        else if (!s.hash.startsWith('#/workshopBoard')) fail(`console: left the board for ${s.hash}`);
        if (s.errorPage) fail('console: an error page was shown');
        if (s.text !== null && s.text !== last) {
          changes.push(s.t);
          last = s.text;
        }
        events.push(...s.events);
        toasts.push(...s.toasts);
      }
      await new Promise((r) => setTimeout(r, Math.max(0, 250 - (Date.now() - began))));
    }
  })();

  const started = Date.now();
  const longestGap = (times: number[], end: number): Gap => {
    let longest: Gap = { ms: Number.POSITIVE_INFINITY, from: 0 };
    const edges = [...times, end];
    for (let i = 1; i < edges.length; i++) {
      const ms = (edges[i] ?? 0) - (edges[i - 1] ?? 0);
      if (i === 1 || ms > longest.ms) longest = { ms, from: (edges[i - 1] ?? 0) - started };
    }
    return longest;
  };
  const firstAfter = (times: number[], at: number) => {
    const t = times.find((x) => x > at);
    return t === undefined ? Number.POSITIVE_INFINITY : t - at;
  };

  return {
    killed: (at) => kills.push(at),
    stop: async () => {
      running = false;
      await loop;
      const end = Date.now();
      await browser.close();
      const times = (kind: StreamEvent['kind']) => events.filter((e) => e.kind === kind).map((e) => e.t);
      const deliveries = times('values');
      const seen = kills.map((at) => {
        // A stream the kill broke counts as back with the first values of a stream opened after
        // the failure, not with what the dead one had in flight.
        const broken = times('error').find((t) => t >= at && t < at + options.boundMs);
        const reopened = broken === undefined ? undefined : times('open').find((t) => t > broken);
        const from = broken === undefined ? at : (reopened ?? Number.POSITIVE_INFINITY);
        const stream = firstAfter(deliveries, from) + (from - at);
        // The tile's value counts once it changed after the stream was back.
        const value = firstAfter(changes, at + stream - 1) + stream - 1;
        return { at: at - started, value, stream, reconnected: broken !== undefined };
      });
      seen.forEach((k, i) => {
        if (k.value > options.boundMs)
          fail(
            `console: kill ${i + 1}: the value changed again after ${k.value} ms (bound ${options.boundMs})`,
          );
        if (k.stream > options.boundMs)
          fail(
            `console: kill ${i + 1}: the stream delivered again after ${k.stream} ms (bound ${options.boundMs})`,
          );
      });
      const report = {
        samples,
        maxValueGap: longestGap(changes, end),
        maxStreamGap: longestGap(deliveries, end),
        kills: seen,
        opens: times('open').length,
        toasts,
        pageErrors,
        failures,
      };
      if (report.maxValueGap.ms > options.boundMs)
        fail(`console: the value stood still for ${report.maxValueGap.ms} ms (bound ${options.boundMs})`);
      if (report.maxStreamGap.ms > options.boundMs)
        fail(`console: the stream was silent for ${report.maxStreamGap.ms} ms (bound ${options.boundMs})`);
      return report;
    },
  };
}
