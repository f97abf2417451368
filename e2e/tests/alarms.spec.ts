import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from './accounts.ts';
import { apiLogin, createDevice, post } from './api.ts';
import { expectPath, finalScreenshot, login, toast, uniqueSuffix } from './helpers.ts';

// Issue 11, end to end: a test publisher (ThingsBoard-style HTTP telemetry) raises an alarm, the
// bell shows it with its badge, the operator acknowledges it with a comment in the history, and
// the bell's count falls. Device, rule and monitor are set up through the API; enabling the rule,
// the bell and the acknowledgement go through the console.
const suffix = uniqueSuffix();
const names = {
  category: `E2E告警类别-${suffix}`,
  model: `E2E告警型号-${suffix}`,
  thing: `E2E空压机-${suffix}`,
  rule: `E2E排气温度过高-${suffix}`,
};

/** The bell's count, from its accessible name ("告警 3 条"). */
async function bellCount(page: Page): Promise<number> {
  const label = (await page.getByTestId('alarm-bell').getAttribute('aria-label')) ?? '';
  return Number(label.match(/\d+/)?.[0] ?? Number.NaN);
}

test('a published point raises an alarm; the bell rings; acknowledging it with a comment lowers the count', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const headers = await apiLogin(request);
  const { category, thing } = await createDevice(request, headers, {
    category: names.category,
    model: names.model,
    thing: { identifier: `e2e_alarm_${suffix}`, name: names.thing },
    ability: { identifier: 'temp', name: '排气温度', unit: '°C' },
  });
  const token = (await (await request.get(`/api/thing/things/${thing.id}/token`, { headers })).json()).data
    .accessToken as string;
  const rule = await post<{ id: number }>(request, headers, '/api/alarm/rules', {
    name: names.rule,
    ability: 'temp',
    categoryId: category.id,
    condition: { kind: 'threshold', op: '>', value: 90 },
    onDelay: 0,
    offDelay: 0,
    deadband: 0,
    severity: 'critical',
    message: '{thing} 排气温度 {value}{unit}',
  });
  await post(request, headers, '/api/alarm/monitors/batch', {
    appliedType: 'rule',
    appliedId: rule.id,
    targets: [{ type: 'thing', id: thing.id }],
  });

  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');

  // The rule is created disabled: the operator enables it on the rules screen.
  await page.goto('/#/alarm_center/alarm_rule');
  await page.getByTestId('rule-search').locator('input').fill(names.rule);
  await page.getByTestId('rule-search').locator('input').press('Enter');
  const row = page.getByRole('row').filter({ hasText: names.rule });
  await row.getByTestId('rule-enabled').click();
  await expect(toast(page, '规则已启用')).toBeVisible();
  await expect(row.getByTestId('rule-enabled')).toHaveAttribute('aria-checked', 'true');
  await finalScreenshot(page, testInfo, 'alarm-rules');

  const before = await bellCount(page);
  const published = await request.post(`/api/v1/${token}/telemetry`, { data: { temp: 97.5 } });
  expect(published.ok()).toBe(true);

  // The bell asks every 10 s: the new alarm shows within one poll or two.
  await expect.poll(() => bellCount(page), { timeout: 25_000 }).toBeGreaterThan(before);
  await expect(page.getByTestId('alarm-bell-badge')).toBeVisible();
  await page.getByTestId('alarm-bell').click();
  const item = page.getByTestId('alarm-bell-item').filter({ hasText: names.rule.slice(0, 20) });
  await expect(item).toContainText('设备');
  await finalScreenshot(page, testInfo, 'alarm-bell');
  await item.click();
  await expect(page).toHaveURL(/#\/alarm_center\/alarm_history\?id=\d+$/);

  const drawer = page.getByTestId('alarm-detail');
  await expect(drawer.getByText('未确认')).toBeVisible();
  await expect(drawer.getByRole('row').filter({ hasText: '告警值' })).toContainText('97.5');
  await expect(drawer.getByRole('row').filter({ hasText: '告警信息' })).toContainText(
    `${names.thing} 排气温度 97.5°C`,
  );
  // The metric around the alarm, through the telemetry query: the published point is on it.
  await expect(drawer.getByTestId('alarm-chart').locator('canvas')).toBeVisible();
  const ringing = await bellCount(page);
  await drawer.getByTestId('alarm-comment').fill('已到现场，降载运行');
  await drawer.getByTestId('alarm-acknowledge').click();
  await expect(toast(page, '告警已确认')).toBeVisible();
  await expect(drawer.getByTestId('alarm-trail')).toContainText('已到现场，降载运行');
  await expect(drawer.getByText('已确认').first()).toBeVisible();
  // The action's invalidation of the alarm queries makes the bell ask at once, not at its next 10 s poll.
  await expect.poll(() => bellCount(page), { timeout: 5_000 }).toBeLessThan(ringing);
  await finalScreenshot(page, testInfo, 'alarm-detail');

  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/#\/alarm_center\/alarm_history$/);
  await expect(page.getByRole('row').filter({ hasText: names.rule }).first()).toContainText('已确认');
  await expect(page.getByTestId('alarm-search')).toBeVisible();
  await finalScreenshot(page, testInfo, 'alarm-history');
});

test('the health tab measures the alarm system (EEMUA 191) and a bad actor opens its history', async ({
  page,
}, testInfo) => {
  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');
  await page.goto('/#/alarm_center/alarm_history?tab=health');
  const health = page.getByTestId('alarm-health');
  await expect(health.getByText('告警系统健康（EEMUA 191）')).toBeVisible();
  await expect(health.getByTestId('health-band')).toBeVisible();
  // The previous test raised an alarm today: the chart and a bad actor show it.
  await expect(health.getByTestId('health-chart').locator('canvas')).toBeVisible();
  const actor = health.getByTestId('health-bad-actors').getByRole('row').filter({ hasText: names.rule });
  await expect(actor).toBeVisible();
  // Annunciations and the distinct alarms they come from, side by side (ISA-18.2 counts every one).
  await expect(health.getByTestId('health-distinct')).toContainText('条不同告警');
  await expect(health.getByTestId('health-chattering-annunciations')).toBeVisible();
  await finalScreenshot(page, testInfo, 'alarm-health');
  await actor.getByTestId('bad-actor-link').click();
  await expect(page).toHaveURL(/#\/alarm_center\/alarm_history\?ruleId=\d+&thingId=\d+/);
  await expect(page.getByTestId('alarm-thing-filter')).toContainText(names.thing);
  await expect(page.getByRole('row').filter({ hasText: names.rule }).first()).toBeVisible();
});
