import { expect, test } from '@playwright/test';
import { ADMIN } from './accounts.ts';
import { apiLogin } from './api.ts';
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
