import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { ADMIN } from './accounts.ts';
import {
  buttonName,
  expectPath,
  finalScreenshot,
  login,
  openDropdown,
  pickOption,
  uniqueSuffix,
} from './helpers.ts';

// Issue 12 "Reports (KPI)": build a report with two components on /analysis/kpi, see the
// comparison the server computes, and export the report as xlsx, read back cell by cell. The demo
// plant's backfilled day (start-server.mjs) gives today and yesterday data.

const CATEGORY = '电力仪表';

/** Fills the add-component dialog: a title, a chart type, the first meter and one metric. */
async function addComponent(page: Page, title: string, chartType: string, metric: string) {
  await page.getByRole('button', { name: '添加组件' }).first().click();
  const dialog = page.getByRole('dialog').filter({ hasText: '添加组件' });
  await dialog.getByLabel('标题').fill(title);
  await pickOption(page, dialog.getByLabel('图表类型'), chartType);
  await pickOption(page, dialog.getByLabel('设备类型'), CATEGORY);
  await dialog.getByRole('combobox', { name: /^\*?\s*设备$/ }).click();
  await openDropdown(page).locator('.ant-select-item-option').first().click();
  await pickOption(page, dialog.getByRole('combobox', { name: '指标' }), metric);
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('[data-testid^="kpi-component-"]').filter({ hasText: title })).toBeVisible();
}

test('a report with two components shows a comparison and exports it as xlsx', async ({ page }, testInfo) => {
  // On a loaded machine the steps to the publication took past 120 s (each export is read back).
  test.setTimeout(180_000);
  const suffix = uniqueSuffix();
  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');
  await page.goto('/#/analysis/kpi');

  // A top-level folder, a report in it: the report opens on the no-data state (spec §4).
  await page.getByRole('button', { name: '新建文件夹' }).click();
  let dialog = page.getByRole('dialog').filter({ hasText: '新建文件夹' });
  await dialog.getByLabel('名称').fill(`能耗 ${suffix}`);
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(page.locator('.ant-tree').getByText(`能耗 ${suffix}`)).toBeVisible();
  await page.getByRole('button', { name: '新建报表' }).click();
  dialog = page.getByRole('dialog').filter({ hasText: '新建报表' });
  await dialog.getByLabel('名称').fill(`日报 ${suffix}`);
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(page.getByTestId('kpi-report-title')).toHaveText(`日报 ${suffix}`);
  await expect(page.getByTestId('kpi-no-data')).toContainText('暂无数据：该报表还没有组件');
  await expect(page).toHaveURL(/analysis\/kpi\?report=\d+/);
  const reportId = Number(new URL(page.url().replace('#/', '')).searchParams.get('report'));

  await addComponent(page, '功率日对比', '折线图', '有功功率 (kW)');
  await addComponent(page, '电量', '柱状图', '正向有功电能 (kWh)');
  const cards = page.locator('[data-testid^="kpi-component-"]');
  await expect(cards).toHaveCount(2);

  // Yesterday on the line chart: the server's comparison is drawn beside today's series.
  const power = cards.filter({ hasText: '功率日对比' });
  await pickOption(page, power.getByRole('combobox', { name: '对比' }), '昨日');
  await expect(power.getByRole('img', { name: /有功功率, 有功功率 \(昨日\)/ })).toBeVisible();
  await expect(power.locator('canvas').first()).toBeVisible();
  // Last week on the bars.
  const energy = cards.filter({ hasText: '电量' });
  await pickOption(page, energy.getByRole('combobox', { name: '对比' }), '上周');
  await expect(energy.getByRole('img', { name: /正向有功电能, 正向有功电能 \(上周\)/ })).toBeVisible();

  // Drag the energy card by its handle onto the power card's place: it takes the first place,
  // the power card moves down, and the places are saved when the mouse is released.
  const before = { power: (await power.boundingBox())!, energy: (await energy.boundingBox())! };
  expect(before.energy.x).toBeGreaterThan(before.power.x);
  const handle = (await energy.getByLabel('拖动').boundingBox())!;
  const saved = page.waitForResponse(
    (r) => r.request().method() === 'PUT' && r.url().endsWith(`/api/reports/${reportId}/components`),
  );
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(before.power.x + 20, before.power.y + 20, { steps: 15 });
  await page.mouse.up();
  expect((await saved).status()).toBe(200);

  // The comparison and the places are kept with the report: a reload shows them again.
  await page.reload();
  const again = page.locator('[data-testid^="kpi-component-"]');
  await expect(
    again.filter({ hasText: '功率日对比' }).getByRole('img', { name: /有功功率 \(昨日\)/ }),
  ).toBeVisible();
  const after = {
    power: (await again.filter({ hasText: '功率日对比' }).boundingBox())!,
    energy: (await again.filter({ hasText: '电量' }).boundingBox())!,
  };
  expect(after.energy.y).toBeLessThan(after.power.y);
  expect(Math.abs(after.energy.x - before.power.x)).toBeLessThan(2);

  // The export: one sheet per component, today's hours with the comparison beside them.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^日报 ${suffix}-\\d{4}-\\d{2}-\\d{2}\\.xlsx$`));
  const book = new ExcelJS.Workbook();
  const body = await readFile((await file.path()) as string);
  await book.xlsx.load(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer);
  // Sheets follow the grid, top to bottom: the energy card was dragged to the first place.
  expect(book.worksheets.map((s) => s.name)).toEqual(['电量', '功率日对比']);
  const sheet = book.getWorksheet('功率日对比')!;
  // Title, period and plant above the table (a blank row between), then the table from row 5.
  expect(sheet.getCell('A1').value).toBe(`日报 ${suffix} · 功率日对比`);
  expect(sheet.getCell('A2').value).toMatch(/^周期：\d{4}-\d{2}-\d{2}（.+）$/);
  expect(sheet.getCell('A3').value).toMatch(/^厂区：.+/);
  expect(sheet.getCell('A5').value).toMatch(/^时间（.+）$/);
  expect(sheet.getCell('B5').value).toBe('有功功率 (kW)');
  expect(sheet.getCell('C5').value).toBe('有功功率 · 昨日 (kW)');
  expect(sheet.getCell('A6').value).toBe('00:00');
  expect(sheet.rowCount).toBeGreaterThanOrEqual(28);
  // The backfill reaches one day back from the server's start: yesterday's hours before it are
  // empty cells (never 0); the others hold numbers rounded to the 2 decimals shown.
  const compared = [];
  for (let row = 6; row <= 29; row++) {
    const cell = sheet.getCell(`C${row}`);
    if (cell.value === null) continue;
    expect(cell.numFmt).toBe('#,##0.00');
    compared.push(cell.value);
  }
  expect(compared.length).toBeGreaterThanOrEqual(20);
  for (const value of compared) {
    expect(typeof value).toBe('number');
    expect(Math.round((value as number) * 100) / 100).toBe(value);
  }
  const bars = book.getWorksheet('电量')!;
  expect(bars.getCell('B5').value).toBe('正向有功电能 (kWh)');
  expect(bars.getCell('C5').value).toBe('正向有功电能 · 上周 (kWh)');

  // Publish: the stable link opens the report read-only in the tree.
  await page.getByRole('button', { name: '发布', exact: false }).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: buttonName('确定') })
    .click();
  await expect(page.locator('.ant-tree').getByText('已发布')).toBeVisible();
  await page.goto(`/#/analysis/kpi?report=${reportId}`);
  await expect(page.getByTestId('kpi-report-title')).toHaveText(`日报 ${suffix}`);
  await expect(page.locator('[data-testid^="kpi-component-"]')).toHaveCount(2);
  await finalScreenshot(page, testInfo);
});
