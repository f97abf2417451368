import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from './accounts.ts';
import { apiLogin, createDevice, post } from './api.ts';
import { buttonName, expectPath, finalScreenshot, login, toast, uniqueSuffix } from './helpers.ts';

// Issue 12, EnPI and baselines (docs/enpi.md). In the console: an EnPI of the demo plant's
// 一号车间 (its meters' energy per piece of its line counters), by day over the backfilled day:
// the chart shows it, the model card says why two days make no baseline. Then a meter with four
// weeks of daily readings sent through the device API: its EnPI's baseline is fitted, and the
// model card, the EnPI chart and the CUSUM chart show it.
const suffix = uniqueSuffix();
const DAY = 86_400_000;

/** Picks a tree option (a region or a thing) in an antd TreeSelect. */
async function pickTree(page: Page, label: string, title: string) {
  await page.getByRole('dialog').getByRole('combobox', { name: label }).click();
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-tree-node-content-wrapper')
    .filter({ hasText: new RegExp(`^${title}$`) })
    .first()
    .click();
}

test('an EnPI on the demo plant, and a baseline fitted on four weeks of a meter', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const headers = await apiLogin(request);
  const me = (await (await request.get('/api/auth/me', { headers })).json()).data as { timeZone: string };
  const dateIn = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: me.timeZone }).format(ms);
  const now = Date.now();
  const today = dateIn(now);
  const yesterday = dateIn(now - DAY);

  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');

  // 1. The demo plant, defined in the console.
  await page.goto('/#/analysis/enpi');
  await expect(page.getByText('尚未定义 EnPI').or(page.getByRole('row')).first()).toBeVisible();
  await page.getByTestId('enpi-create').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('名称').fill(`E2E一号车间单件电耗-${suffix}`);
  await pickTree(page, '能耗来源', '一号车间');
  await dialog.getByText('产量计数器', { exact: true }).click();
  await pickTree(page, '产量计数对象', '一号车间');
  // Metrics are picked from the chosen source's abilities, by the names and units charts use.
  await expect(dialog.getByTestId('enpi-energy-metric')).toContainText(/有功电能 \(kWh\)/);
  await dialog.getByRole('combobox', { name: '产量指标（累计量）' }).click();
  const metricOptions = page.locator(
    '.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option',
  );
  await expect(metricOptions.filter({ hasText: /^产出速率 \(件\/h\)$/ })).toBeVisible();
  await metricOptions.filter({ hasText: /^产量 \(件\)$/ }).click();
  await dialog.getByLabel('产量单位').fill('件');
  await dialog.getByRole('combobox', { name: '统计周期' }).click();
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
    .filter({ hasText: /^日$/ })
    .click();
  const baseline = dialog.locator('.ant-picker-range input');
  await baseline.first().click();
  await baseline.first().fill(yesterday);
  await baseline.first().press('Enter');
  await baseline.nth(1).fill(today);
  await baseline.nth(1).press('Enter');
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(toast(page, '创建成功')).toBeVisible();

  const chart = page.getByTestId('enpi-chart');
  await expect(chart.locator('canvas')).toBeVisible();
  await expect(page.getByTestId('enpi-baseline-chart').locator('canvas')).toBeVisible();
  const periods = page.getByTestId('enpi-periods');
  await expect(periods.getByRole('row').filter({ hasText: today })).toBeVisible();
  const model = page.getByTestId('enpi-model');
  await expect(model.getByText('无法建立基准模型')).toBeVisible();
  await expect(model.getByText(/回归至少需要 4 个/)).toBeVisible();
  await finalScreenshot(page, testInfo, 'enpi-demo-plant');

  // 2. A meter with 28 days of daily readings (energy ≈ 2 000 kWh + 3 kWh per piece), sent as a
  //    device would; its EnPI has a baseline over the first three weeks.
  const { category, thing } = await createDevice(request, headers, {
    category: `E2E能效类别-${suffix}`,
    model: `E2E能效型号-${suffix}`,
    thing: { identifier: `e2e_enpi_${suffix}`, name: `E2E能效电表-${suffix}` },
    ability: { identifier: 'EP', name: '有功电能', unit: 'kWh', cumulative: true },
  });
  await post(request, headers, `/api/thing/categories/${category.id}/abilities`, {
    identifier: 'PCS',
    name: '产量',
    unit: '件',
    dataType: 'number',
    cumulative: true,
  });
  const token = (await (await request.get(`/api/thing/things/${thing.id}/token`, { headers })).json()).data
    .accessToken as string;
  let energy = 10_000;
  let pieces = 1_000;
  const readings = [{ ts: now - 29 * DAY, values: { EP: energy, PCS: pieces } }];
  for (let k = 28; k >= 1; k--) {
    const made = 800 + Math.round(300 * Math.sin(k)) - (k % 7 < 2 ? 450 : 0);
    pieces += made;
    energy += 2000 + 3 * made + ((k * 37) % 11) * 10 - 50;
    readings.push({ ts: now - k * DAY, values: { EP: energy, PCS: pieces } });
  }
  const sent = await request.post(`/api/v1/${token}/telemetry`, { data: readings });
  expect(sent.status(), await sent.text()).toBe(200);
  const name = `E2E电表单件电耗-${suffix}`;
  await post(request, headers, '/api/enpi', {
    name,
    energy: { resourceType: 'thing', resourceId: thing.id, metricIdentifier: 'EP' },
    output: {
      kind: 'metric',
      source: { resourceType: 'thing', resourceId: thing.id, metricIdentifier: 'PCS' },
    },
    outputUnit: '件',
    temperature: null,
    period: 'day',
    baselineStart: dateIn(now - 28 * DAY),
    baselineEnd: dateIn(now - 8 * DAY),
    variables: ['output'],
  });

  await page.reload();
  await page.getByRole('row').filter({ hasText: name }).click();
  await expect(model.getByTestId('enpi-adequate')).toHaveText('模型适用');
  await expect(model.getByText(/^E = .+ × 产量$/)).toBeVisible();
  await expect(model.getByText('R²', { exact: true })).toBeVisible();
  await expect(chart.locator('canvas')).toBeVisible();
  await expect(page.getByTestId('enpi-baseline-chart').locator('canvas')).toBeVisible();
  await expect(periods.getByRole('row').filter({ hasText: dateIn(now - 3 * DAY) })).toBeVisible();
  await finalScreenshot(page, testInfo, 'enpi-baseline');
});
