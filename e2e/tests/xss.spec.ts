import { expect, type Page, type Request, test } from '@playwright/test';
import { ADMIN } from './accounts.ts';
import { apiLogin, createDevice, post } from './api.ts';
import { expectPath, finalScreenshot, holdStill, login, uniqueSuffix } from './helpers.ts';

// Issue 20, "stored XSS through chart tooltips": every user-writable name a chart or its tooltip
// shows is written over the API as an <img onerror> payload, then every screen with a chart is
// opened and every chart hovered from edge to edge. A payload that runs calls `xss(tag)` (set up
// before the page's own scripts); one that is parsed as HTML adds an <img src=x> to the page,
// which a MutationObserver records even before its onerror fires.

const suffix = uniqueSuffix();
/** A payload naming its field: at most 32 characters with a 4-character tag (units are 32). */
const evil = (tag: string) => `<img src=x onerror=xss('${tag}')>`;

declare global {
  interface Window {
    xss: (tag: string) => void;
    __xssRan: string[];
    __xssImages: string[];
    __xssShown: number;
    __xssAlarmShown: number;
  }
}

/** Per page: waits until the API calls it made have been answered (`followApiCalls`). */
const answeredOn = new WeakMap<Page, () => Promise<void>>();

/**
 * Follows the page's API calls (not its live streams), so that a screen is hovered once the data
 * it asked for has arrived rather than after a fixed pause: no call open, and none answered in the
 * last 300 ms (an answer drawn may ask for more).
 */
function followApiCalls(page: Page) {
  const open = new Set<Request>();
  let lastAnswer = Date.now();
  const isCall = (r: Request) =>
    r.resourceType() !== 'eventsource' && new URL(r.url()).pathname.startsWith('/api/');
  page.on('request', (r) => {
    if (isCall(r)) open.add(r);
  });
  const answered = (r: Request) => {
    if (open.delete(r)) lastAnswer = Date.now();
  };
  page.on('requestfinished', answered);
  page.on('requestfailed', answered);
  answeredOn.set(page, () =>
    expect
      .poll(() => open.size === 0 && Date.now() - lastAnswer >= 300, {
        timeout: 20_000,
        intervals: [100],
        message: 'the API calls of the screen are answered',
      })
      .toBe(true),
  );
}

/** Records payloads that ran or were parsed, in every page before its scripts. */
async function watchForPayloads(page: Page, dialogs: string[]) {
  followApiCalls(page);
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await page.addInitScript(() => {
    window.__xssRan = [];
    window.__xssImages = [];
    window.__xssShown = 0;
    window.__xssAlarmShown = 0;
    window.xss = (tag: string) => window.__xssRan.push(tag);
    new MutationObserver((records) => {
      for (const record of records) {
        // A tooltip (ECharts' HTML beside its canvas) showing a payload as text: the hover reached it.
        const target = record.target instanceof Element ? record.target : record.target.parentElement;
        if (target?.closest('[_echarts_instance_]') && target.textContent?.includes('onerror=xss(')) {
          window.__xssShown += 1;
          // The hostile rule's alarm, listed by the tooltip of a chart that marks it.
          if (target.textContent.includes("onerror=xss('rule')")) window.__xssAlarmShown += 1;
        }
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          for (const img of [node, ...node.querySelectorAll('img')]) {
            if (img.tagName === 'IMG' && img.getAttribute('src') === 'x')
              window.__xssImages.push(img.outerHTML);
          }
        }
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

/** What ran or was parsed on the page so far. */
const payloads = (page: Page) =>
  page.evaluate(() => ({ ran: window.__xssRan ?? [], parsed: window.__xssImages ?? [] }));
/** How many times a chart's tooltip showed a payload (as text, when escaped) on this page. */
const shown = (page: Page) => page.evaluate(() => window.__xssShown ?? 0);

/**
 * Moves the pointer over every chart canvas on screen, on a grid of points, so each tooltip
 * (axis and item), legend and marker is drawn with the hostile names; answers how many charts.
 */
async function hoverCharts(page: Page): Promise<number> {
  const canvases = page.locator('canvas:visible');
  const count = await canvases.count();
  for (let i = 0; i < count; i++) {
    const box = await canvases.nth(i).boundingBox();
    if (!box || box.width < 40 || box.height < 40) continue;
    // Each row from 4 % to 94 % of the width in steps of 6 %: the steps are the same events, one
    // at a time, as a move to each point (Playwright awaits each), but one action, so a trace
    // (kept on failure) snapshots the page once per row rather than at each of its 16 points.
    for (const fy of [0.15, 0.35, 0.5, 0.65, 0.85, 0.97]) {
      const y = box.y + box.height * fy;
      await page.mouse.move(box.x + box.width * 0.04, y);
      await page.mouse.move(box.x + box.width * 0.94, y, { steps: 15 });
    }
    // The last tooltip has time to be drawn.
    await page.waitForTimeout(300);
  }
  await page.mouse.move(1, 1);
  return count;
}

/**
 * Opens a screen, waits for its charts, hovers them all and checks that no payload ran; with
 * `names`, a tooltip must have shown one of the hostile names (as text) on the way.
 */
async function visitAndHover(page: Page, path: string, minCharts: number, dialogs: string[], names = true) {
  // A fresh document per screen (the console routes by the hash): the last screen's charts are
  // gone, and the records start again.
  await page.goto('about:blank');
  await page.goto(`/#${path}`);
  await expect
    .poll(async () => page.locator('canvas:visible').count(), { timeout: 20_000, message: path })
    .toBeGreaterThanOrEqual(minCharts);
  await hoverAndCheck(page, path, minCharts, dialogs, names);
}

/** Hovers every chart on screen and checks that no payload ran (`names`: and that one showed). */
async function hoverAndCheck(
  page: Page,
  label: string,
  minCharts: number,
  dialogs: string[],
  names: boolean,
) {
  // Data arrives after the first frame: the charts draw their series once it is in.
  await answeredOn.get(page)!();
  await holdStill(page);
  // A chart redrawn as its data arrives may be away for a moment: wait for all of them again.
  await expect
    .poll(async () => page.locator('canvas:visible').count(), { timeout: 20_000, message: label })
    .toBeGreaterThanOrEqual(minCharts);
  await hoverCharts(page);
  // Soft: one run names every screen where a payload ran.
  expect.soft(await payloads(page), label).toEqual({ ran: [], parsed: [] });
  expect.soft(dialogs.splice(0), label).toEqual([]);
  if (names) expect.soft(await shown(page), `${label}: a tooltip showed a hostile name`).toBeGreaterThan(0);
}

/**
 * Moves the pointer across every chart on screen, right to left (the hostile alarm is recent),
 * until a tooltip lists the hostile rule's alarm (issue 21: alarms on every chart), and checks it
 * was shown as text and ran nothing.
 */
async function hoverAlarm(page: Page, label: string, dialogs: string[]) {
  const listed = async () => (await page.evaluate(() => window.__xssAlarmShown ?? 0)) > 0;
  const canvases = page.locator('canvas:visible');
  const count = await canvases.count();
  // The hover over the whole screen may have shown it already.
  let found = await listed();
  for (let i = 0; i < count && !found; i++) {
    const box = await canvases.nth(i).boundingBox();
    if (!box || box.width < 40 || box.height < 40) continue;
    // A bucket (or a step of the data) is wider than the step: the tooltip lists its alarms throughout.
    // The last bucket of a line's axis is half as wide (its point sits on the grid's edge), so an
    // alarm of the day's last hour has a few pixels: steps of 4, each checked once the tooltip's
    // frame is drawn (an alarm in the last hour was missed at 8 without the wait).
    for (let x = box.x + box.width - 4; x > box.x + 2 && !found; x -= 4) {
      await page.mouse.move(x, box.y + box.height * 0.5);
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done(null))));
      found = await listed();
    }
  }
  await page.mouse.move(1, 1);
  expect.soft(found, `${label}: a tooltip listed the hostile rule's alarm`).toBe(true);
  expect.soft(await payloads(page), label).toEqual({ ran: [], parsed: [] });
  expect.soft(dialogs.splice(0), label).toEqual([]);
}

test('no name written by a user runs as script in any chart, tooltip or legend', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(900_000);
  const headers = await apiLogin(request);

  // ---- a hostile device: category, model, thing, ability name and unit ----
  const { category, thing } = await createDevice(request, headers, {
    category: `${evil('cat')}${suffix}`,
    model: `${evil('mod')}${suffix}`,
    thing: { identifier: `xss_${suffix}`, name: `${evil('thg')}${suffix}` },
    ability: { identifier: 'temp', name: evil('abl'), unit: evil('unit') },
  });
  // A counter beside it, for the EnPI (which sums consumption).
  await post(request, headers, `/api/thing/categories/${category.id}/abilities`, {
    identifier: 'EP',
    name: evil('epn'),
    unit: 'kWh',
    dataType: 'number',
    cumulative: true,
  });
  const token = (await (await request.get(`/api/thing/things/${thing.id}/token`, { headers })).json()).data
    .accessToken as string;
  // An hour of points, then the one that raises the alarm.
  const now = Date.now();
  const points = Array.from({ length: 12 }, (_, i) => ({
    ts: now - (12 - i) * 5 * 60_000,
    values: { temp: 40 + i, EP: 1000 + 5 * i },
  }));
  expect((await request.post(`/api/v1/${token}/telemetry`, { data: points })).ok()).toBe(true);

  // ---- a hostile region holding it, with a hostile metric config ----
  const region = await post<{ id: number }>(request, headers, '/api/regions', {
    name: `${evil('reg')}${suffix}`,
  });
  await post(request, headers, `/api/regions/${region.id}/bindings`, { thingIds: [thing.id] });
  const saved = await request.patch('/api/query/config', {
    headers,
    data: {
      resourceType: 'region',
      resourceId: region.id,
      configs: [{ metricIdentifier: 'temp', name: evil('cfg'), unit: evil('cfgu'), enabled: true }],
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  // ---- an alarm rule on it that fires: the alarm drawer's chart shows "ability (unit)" ----
  const rule = await post<{ id: number }>(request, headers, '/api/alarm/rules', {
    name: `${evil('rule')}${suffix}`,
    ability: 'temp',
    categoryId: category.id,
    condition: { kind: 'threshold', op: '>', value: 90 },
    onDelay: 0,
    offDelay: 0,
    deadband: 0,
    severity: 'critical',
    message: `${evil('msg')} {thing} {value}{unit}`,
  });
  await post(request, headers, '/api/alarm/monitors/batch', {
    appliedType: 'rule',
    appliedId: rule.id,
    targets: [{ type: 'thing', id: thing.id }],
  });
  await post(request, headers, `/api/alarm/rules/${rule.id}/state`, { action: 'enable' });
  expect((await request.post(`/api/v1/${token}/telemetry`, { data: { temp: 97.5 } })).ok()).toBe(true);

  // ---- a KPI report: a pie and a line of hostile metric names, under hostile titles ----
  const metric = (tag: string) => ({
    categoryId: category.id,
    identifier: 'temp',
    name: evil(tag),
    statistics: 'avg',
    unit: evil(`${tag}u`),
  });
  const report = await post<{ id: number }>(request, headers, '/api/reports/0/children', {
    name: `${evil('rep')}${suffix}`,
    folder: false,
  });
  for (const [chartType, tag] of [
    ['pie', 'kpie'],
    ['line', 'klin'],
    ['bar', 'kbar'],
  ] as const) {
    await post(request, headers, `/api/reports/${report.id}/components`, {
      title: evil(`${tag}t`),
      chartType,
      params: { thingId: thing.id },
      metrics: [metric(tag), metric(`${tag.slice(0, 3)}2`)],
    });
  }

  // ---- a board page of the same ----
  const board = await post<{ id: number }>(request, headers, '/api/board/pages', {
    name: `${evil('page')}${suffix}`,
    regionId: region.id,
    interval: 30,
  });
  for (const [chartType, tag] of [
    ['pie', 'bpie'],
    ['line', 'blin'],
  ] as const) {
    await post(request, headers, `/api/board/pages/${board.id}/components`, {
      title: evil(`${tag}t`),
      chartType,
      params: { regionId: region.id },
      metrics: [metric(tag), metric(`${tag.slice(0, 3)}2`)],
    });
  }

  // ---- an EnPI and a single-line diagram with hostile names and labels ----
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  await post(request, headers, '/api/enpi', {
    name: `${evil('enpi')}${suffix}`,
    energy: { resourceType: 'thing', resourceId: thing.id, metricIdentifier: 'EP' },
    output: { kind: 'entered' },
    outputUnit: evil('ou').slice(0, 16),
    temperature: null,
    period: 'day',
    baselineStart: day(now - 7 * 86_400_000),
    baselineEnd: day(now),
    variables: ['output'],
  });
  const diagram = await post<{ id: number }>(request, headers, '/api/diagrams', {
    name: `${evil('dgm')}${suffix}`,
    graph: {
      nodes: [
        { id: 'in', symbol: 'incoming', x: 200, y: 40, label: evil('din') },
        {
          id: 'bus',
          symbol: 'busbar',
          x: 80,
          y: 200,
          width: 400,
          label: evil('dbus'),
        },
        {
          id: 'feed',
          symbol: 'feeder',
          x: 200,
          y: 300,
          label: evil('dfd'),
          // A power makes it a member of the busbar: the busbar's detail trend charts it.
          binding: { thingId: thing.id, shown: ['temp'], power: 'temp' },
        },
      ],
      edges: [
        { id: 'e1', source: 'in', target: 'bus' },
        { id: 'e2', source: 'bus', target: 'feed' },
      ],
      thresholds: { lossPct: 5, imbalancePct: 2 },
    },
  });

  const dialogs: string[] = [];
  await watchForPayloads(page, dialogs);
  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');

  // The hostile rule's alarm: raised by the last point, it is marked on the device's charts.
  const alarmId = async () =>
    ((await (await request.get('/api/alarm/history', { headers, params: { ruleId: rule.id } })).json()).data
      .list[0]?.id as number | undefined) ?? 0;
  await expect.poll(alarmId, { timeout: 25_000 }).toBeGreaterThan(0);

  await visitAndHover(page, `/analysis/kpi?report=${report.id}`, 3, dialogs);
  await hoverAlarm(page, 'KPI', dialogs);
  // Its own page: other suites leave pages of their own, and the screen opens on the first.
  await visitAndHover(page, `/workshopBoard?page=${board.id}`, 2, dialogs);
  await hoverAlarm(page, 'board', dialogs);
  // The rotation on a wall screen draws the same cards full screen: stepped to the hostile page
  // (other suites' pages come first), then held there by the pointer over it.
  await page.goto('about:blank');
  await page.goto('/#/workshopBoard?play=1');
  const carousel = page.getByTestId('board-carousel');
  await expect(carousel).toBeVisible();
  await expect
    .poll(
      async () => {
        if ((await carousel.getAttribute('data-page')) === String(board.id)) return true;
        await page.keyboard.press('ArrowRight');
        return false;
      },
      { timeout: 60_000, intervals: [500] },
    )
    .toBe(true);
  const content = await page.getByTestId('board-content').boundingBox();
  await page.mouse.move(content!.x + content!.width / 2, content!.y + 40);
  await expect(page.getByTestId('board-paused')).toBeVisible();
  expect(await carousel.getAttribute('data-page')).toBe(String(board.id));
  await hoverAndCheck(page, 'board rotation', 2, dialogs, true);
  await hoverAlarm(page, 'board rotation', dialogs);
  await page.screenshot({ path: testInfo.outputPath('board-rotation.png') });
  await visitAndHover(page, `/energy_monitor/realtime?resourceType=thing&resourceId=${thing.id}`, 1, dialogs);
  await hoverAlarm(page, 'real time', dialogs);
  await visitAndHover(page, `/energy_monitor/history?resourceType=thing&resourceId=${thing.id}`, 1, dialogs);
  await hoverAlarm(page, 'history', dialogs);
  await visitAndHover(
    page,
    `/energy_monitor/realtime?resourceType=region&resourceId=${region.id}`,
    1,
    dialogs,
  );
  await visitAndHover(
    page,
    `/home/chartdetail?resourceType=region&resourceId=${region.id}&metric=temp&period=day`,
    1,
    dialogs,
  );
  await hoverAlarm(page, 'chart detail', dialogs);
  // The plant's own screens: series named by the demo plant and the console, hovered all the same.
  await visitAndHover(page, '/home', 1, dialogs, false);
  await visitAndHover(page, '/dashboard', 1, dialogs, false);

  // The EnPI's charts (its name and output unit are on the screen, the chart labels are the console's).
  await visitAndHover(page, '/analysis/enpi', 0, dialogs, false);
  await page.getByRole('row').filter({ hasText: `onerror=xss('enpi')` }).click();
  await expect(page.getByTestId('enpi-baseline-chart').locator('canvas')).toBeVisible();
  await hoverAndCheck(page, 'EnPI', 2, dialogs, false);

  // The statistics of the hostile region: its name is a series of the bars and the top list.
  await visitAndHover(page, '/analysis/report', 1, dialogs, false);
  await page.getByText('区域', { exact: true }).first().click();
  await page.getByRole('combobox', { name: '选择区域' }).fill(suffix);
  await page.locator('.ant-select-tree-node-content-wrapper').filter({ hasText: suffix }).click();
  await page.keyboard.press('Escape');
  // Beside the plant, which stays chosen.
  await expect(page.getByTestId('statistics-top')).toContainText(`onerror=xss('reg')`, { timeout: 30_000 });
  await page.evaluate(() => {
    window.__xssShown = 0;
  });
  await hoverAndCheck(page, 'statistics of the hostile region', 1, dialogs, true);

  // The diagram's labels are SVG text: shown as typed, never parsed.
  await visitAndHover(page, `/electricDiagram/index?diagram=${diagram.id}`, 0, dialogs, false);
  await expect(page.locator('svg text').filter({ hasText: `onerror=xss('dbus')` }).first()).toBeVisible();
  expect.soft(await payloads(page), 'diagram').toEqual({ ran: [], parsed: [] });
  // The busbar's detail trend: its member's loss over 24 h, with the member's alarms marked.
  await page
    .locator('[data-testid="diagram-canvas"] g[data-cell-id="bus"] rect')
    .nth(1)
    .click({ position: { x: 10, y: 4 } });
  await expect(page.getByTestId('diagram-trend').locator('canvas')).toBeVisible({ timeout: 20_000 });
  await hoverAndCheck(page, 'diagram trend', 1, dialogs, false);
  await hoverAlarm(page, 'diagram trend', dialogs);
  await page.screenshot({ path: testInfo.outputPath('diagram-trend.png') });

  // The rule's backtest: its chart over the hostile device's history.
  await visitAndHover(page, '/alarm_center/alarm_rule', 0, dialogs, false);
  // Other specs' rules come first in the suite: the list is narrowed to this one (it may be on page 2).
  await page.getByTestId('rule-search').locator('input').fill(suffix);
  await page.getByTestId('rule-search').locator('input').press('Enter');
  await page
    .getByRole('row')
    .filter({ hasText: `onerror=xss('rule')>${suffix}` })
    .getByRole('button', { name: '编辑' })
    .click();
  await page.getByText('回测（启用前用历史数据验证）').click();
  await page.getByTestId('backtest-thing').click();
  await page.locator('.ant-select-item-option').filter({ hasText: suffix }).first().click();
  await page.getByTestId('backtest-run').click();
  await expect(page.getByTestId('backtest-summary')).toBeVisible({ timeout: 30_000 });
  await hoverAndCheck(page, 'backtest', 1, dialogs, false);
  await page.keyboard.press('Escape');

  // The alarm's drawer: its chart names the metric "ability (unit)".
  await visitAndHover(page, `/alarm_center/alarm_history?id=${await alarmId()}`, 1, dialogs);
  await visitAndHover(page, '/alarm_center/alarm_history?tab=health', 1, dialogs, false);

  // Explore: a panel of the hostile device's ability and one of the hostile region's, opened by
  // its address; series names "device · ability", units, tags and the alarm's marks.
  await visitAndHover(
    page,
    `/energy_monitor/explore?range=1h&p=t${thing.id}~temp&p=r${region.id}~temp`,
    2,
    dialogs,
  );
  await expect(page.getByTestId('explore-panel-1').getByTestId('explore-series')).toContainText(
    `onerror=xss('abl')`,
  );

  await finalScreenshot(page, testInfo);
});
