import { expect, test } from '@playwright/test';
import { ADMIN } from './accounts.ts';
import { apiLogin, post } from './api.ts';
import { buttonName, expectPath, finalScreenshot, login, toast, uniqueSuffix } from './helpers.ts';

// Issue 12, tariffs: a tariff made in the console's editor, a chosen day's band strip, then the
// bill of the demo plant's region for this month from the backfilled history, exported to xlsx.
const suffix = uniqueSuffix();
const name = `E2E分时电价-${suffix}`;

test('a tariff made in the editor previews its day and prices the plant bill', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');

  await page.goto('/#/analysis/tariff');
  await page.getByRole('button', { name: /新建方案/ }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('名称').fill(name);
  await dialog.getByRole('tab', { name: '首个版本' }).click();
  // The blank version is one flat band all day: split it at 08:00 into valley and flat.
  await dialog.getByLabel('平', { exact: true }).fill('0.6');
  await dialog.getByLabel('谷', { exact: true }).fill('0.3');
  const rows = dialog.getByRole('tabpanel', { name: '工作日' });
  await rows.getByLabel('结束').first().fill('08:00');
  await rows.getByRole('combobox', { name: '时段' }).first().click();
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
    .filter({ hasText: /^谷$/ })
    .click();
  await rows.getByRole('button', { name: /添加时段/ }).click();
  await rows.getByLabel('结束').nth(1).fill('24:00');
  await expect(rows.getByTestId('band-strip')).toHaveAttribute(
    'aria-label',
    '谷 00:00–08:00, 平 08:00–24:00',
  );
  // A demand charge on sliding windows (the demand meter's slip mode).
  await dialog.getByRole('radio', { name: '按需量' }).check();
  await dialog.getByLabel('需量电价（元/kW·月）').fill('40');
  await dialog.getByRole('radio', { name: '滑差窗口（每分钟滑动）' }).check();
  await finalScreenshot(page, testInfo, 'tariff-editor');
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(toast(page, '创建成功')).toBeVisible();

  await page.getByRole('listitem').filter({ hasText: name }).click();
  await expect(page.getByTestId('band-strip').first()).toBeVisible();
  await finalScreenshot(page, testInfo, 'tariff-screen');

  // The bill of the plant's top region for this month, from the demo's backfilled EP counters.
  const headers = await apiLogin(request);
  const tree = (await (await request.get('/api/regions', { headers })).json()).data as { name: string }[];
  await page.goto('/#/analysis/bill');
  await page.getByRole('combobox', { name: '电价方案' }).click();
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
    .filter({ hasText: name })
    .click();
  await page.getByRole('combobox', { name: '电表或区域' }).click();
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-tree-node-content-wrapper')
    .filter({ hasText: new RegExp(`^${tree[0]?.name}$`) })
    .first()
    .click();
  const total = page.getByRole('row').filter({ hasText: '合计' }).first();
  await expect(total).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: '电度电费 · 谷' })).toBeVisible();
  await expect(page.getByText('逐日分时电量')).toBeVisible();
  // The bill names the window of the maximum demand and how it was windowed.
  await expect(page.getByText(/^最大需量窗口：.*，滑差窗口（每分钟滑动）$/)).toBeVisible();
  await finalScreenshot(page, testInfo, 'bill');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /导出 Excel/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
});

interface TreeNode {
  id: number;
  name: string;
  resourceType: string;
  children: TreeNode[];
}

// Issue 21: a region's own tariff chosen on the tariff screen prices its bill (which says so);
// the bill says how much of the month has readings and shows days without as —; holidays are
// picked on a calendar; overlapping bands are explained, naming them.
test("a region's tariff prices its bill, which says so and how much of the month has data", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(150_000);
  const headers = await apiLogin(request);
  const regionName = `E2E区域电价-${suffix}`;
  const flat = {
    name: '全年',
    from: '01-01',
    to: '12-31',
    workday: [{ band: 'flat', from: '00:00', to: '24:00' }],
    weekend: [{ band: 'flat', from: '00:00', to: '24:00' }],
    holiday: [{ band: 'flat', from: '00:00', to: '24:00' }],
  };
  const created = await post<{ tariff: { id: number } }>(request, headers, '/api/tariffs', {
    name: regionName,
    holidays: [],
    workdays: [],
    weekendDays: [6, 7],
    version: {
      validFrom: '2020-01-01',
      prices: { flat: 0.8 },
      seasons: [flat],
      demand: { kind: 'none' },
      powerFactorTarget: null,
    },
  });
  const tree = (await (await request.get('/api/regions', { headers })).json()).data as TreeNode[];
  const workshop = tree[0]?.children.find((n) => n.resourceType !== 'thing') as TreeNode;
  const below = workshop.children.find((n) => n.resourceType !== 'thing') ?? workshop;
  const me = (await (await request.get('/api/auth/me', { headers })).json()).data as { timeZone: string };
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: me.timeZone }).format(Date.now());

  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');
  await page.goto('/#/analysis/tariff');
  await page.getByRole('listitem').filter({ hasText: regionName }).click();

  // Holidays picked on the calendar: two days of this month.
  await page
    .getByRole('button', { name: /编\s*辑$/ })
    .first()
    .click();
  const edit = page.getByRole('dialog');
  await edit.locator('.ant-picker-multiple').first().click();
  const month = today.slice(0, 7);
  for (const day of ['01', '02'])
    await page
      .locator(`.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) td[title="${month}-${day}"]`)
      .click();
  await page.keyboard.press('Tab');
  await expect(page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)')).toHaveCount(0);
  await edit.getByRole('button', { name: buttonName('确定') }).click();
  await page
    .getByRole('button', { name: buttonName('确定') })
    .last()
    .click();
  await expect(page.getByText(`${month}-01, ${month}-02`)).toBeVisible();

  // The tariff made the workshop's own.
  const regions = page.getByRole('combobox', { name: '适用区域' });
  await regions.click();
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-tree-node-content-wrapper')
    .filter({ hasText: new RegExp(`^${workshop.name}$`) })
    .first()
    .click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: /保存区域/ }).click();
  await expect(toast(page, `已更新“${regionName}”的适用区域`)).toBeVisible();
  await finalScreenshot(page, testInfo, 'tariff-regions');

  // Overlapping bands in the version editor are explained, naming both bands and the overlap.
  await page.getByRole('button', { name: /新版本/ }).click();
  const version = page.getByRole('dialog');
  const rows = version.getByRole('tabpanel', { name: '工作日' });
  await rows.getByRole('button', { name: /添加时段/ }).click();
  await rows.getByLabel('开始').nth(1).fill('10:00');
  await rows.getByLabel('结束').nth(1).fill('12:00');
  await expect(version.getByTestId('span-problem-0-workday')).toHaveText(
    /^平 00:00–24:00 与 平 10:00–12:00 在 10:00–12:00 重叠/,
  );
  await finalScreenshot(page, testInfo, 'tariff-overlap');
  await version.getByRole('button', { name: buttonName('取消') }).click();

  // The bill of a region under the workshop, priced without choosing a tariff.
  await page.goto('/#/analysis/bill');
  await page.getByRole('combobox', { name: '电表或区域' }).click();
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-tree-node-content-wrapper')
    .filter({ hasText: new RegExp(`^${below.name}$`) })
    .first()
    .click();
  await expect(page.getByTestId('bill-priced-by')).toHaveText(
    `计价电价：${regionName}（区域“${workshop.name}”的电价）`,
  );
  await expect(page.getByTestId('bill-coverage')).toContainText(
    /本月数据覆盖 [\d.]+%：首条读数 \d{4}-\d{2}-\d{2} \d{2}:\d{2}/,
  );
  // The days after today have no readings: — in the daily table, not 0.00.
  const lastDay = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)), 0)).getUTCDate();
  if (Number(today.slice(8)) < lastDay) {
    const last = page.getByRole('row').filter({ hasText: new RegExp(`^${month.slice(5)}-${lastDay}`) });
    await expect(last.getByText('—').first()).toBeVisible();
    await expect(last.getByText('0.00')).toHaveCount(0);
  }
  await finalScreenshot(page, testInfo, 'bill-region');

  const cleared = await request.put(`/api/tariffs/${created.tariff.id}/regions`, {
    headers,
    data: { regionIds: [] },
  });
  expect(cleared.status()).toBe(200);
});
