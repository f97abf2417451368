import { expect, test } from '@playwright/test';
import { ADMIN } from './accounts.ts';
import { expectPath, finalScreenshot, login } from './helpers.ts';

// A browser far from the plant (UTC+14, where no plant of ours is): the console must still show
// the plant's day, with the server's buckets and their labels, and compare on the plant calendar.
const BROWSER_ZONE = 'Pacific/Kiritimati';
test.use({ timezoneId: BROWSER_ZONE });

/** `HH:mm` and `YYYY-MM-DD` of an instant in a zone. */
function wall(ms: number, timeZone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return { time: `${parts.hour}:${parts.minute}`, date: `${parts.year}-${parts.month}-${parts.day}` };
}

interface Point {
  key: number;
  at?: number;
}

test("periods, labels and year-on-year are the plant's, not the browser's", async ({ page }, testInfo) => {
  const me = page.waitForResponse((r) => r.url().includes('/api/auth/me') && r.ok());
  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');
  const plantZone = ((await (await me).json()) as { data: { timeZone: string } }).data.timeZone;
  expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(BROWSER_ZONE);
  expect(plantZone).not.toBe(BROWSER_ZONE);

  // The day's power chart, opened large, compared with yesterday.
  const card = page.getByTestId('home-card-P');
  await expect(card.locator('canvas')).toBeVisible({ timeout: 20_000 });
  await card.getByRole('button', { name: /kW/ }).click();
  await expectPath(page, '/home/chartdetail\\?.*');
  const answered = page.waitForResponse(
    (r) => r.url().includes('/api/query/data') && Boolean(r.request().postDataJSON()?.compare),
  );
  await page.goto(`${page.url()}&yoy=yesterday`);
  const response = await answered;
  const body = response.request().postDataJSON() as { startTime: number; endTime: number };
  const answer = (
    (await response.json()) as {
      data: {
        result: Point[];
        bucket: { groupByTime: string; groupByInterval: number };
        compare: { startTime: number; result: Point[] };
      };
    }
  ).data;

  // The plant's today, whatever the browser's clock says.
  const today = wall(Date.now(), plantZone).date;
  expect(wall(body.startTime, plantZone)).toEqual({ time: '00:00', date: today });
  expect(wall(body.endTime, plantZone).time).toBe('00:00');
  expect(answer.bucket).toEqual({ groupByTime: 'hour', groupByInterval: 1 });
  expect(answer.result[0]?.key).toBe(body.startTime);
  // Yesterday, computed by the server, keyed on today's buckets.
  expect(wall(answer.compare.startTime, plantZone).time).toBe('00:00');
  const keys = new Set(answer.result.map((p) => p.key));
  expect(answer.compare.result.length).toBeGreaterThan(0);
  for (const p of answer.compare.result) {
    expect(keys.has(p.key)).toBe(true);
    expect(p.key - (p.at ?? 0)).toBe(24 * 3600_000);
  }

  // What the user reads: the first bucket is the plant's midnight, labelled 00:00 (the
  // browser's clock would name it by its own hour).
  expect(wall(body.startTime, BROWSER_ZONE).time).not.toBe('00:00');
  const chart = page.getByRole('img', { name: /kW/ });
  await chart.focus();
  await page.keyboard.press('ArrowRight');
  const tooltip = page.locator('.kw-chart-tooltip');
  await expect(tooltip).toBeVisible();
  await expect(tooltip).toContainText(/^00:00/);
  // Today and yesterday (the server's comparison) on the one axis.
  await expect(chart).toHaveAttribute('aria-label', /2 条曲线/);
  await finalScreenshot(page, testInfo);
});
