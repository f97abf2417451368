import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { ADMIN } from './accounts.ts';
import { buttonName, expectPath, finalScreenshot, login, openFromMenu } from './helpers.ts';

// Issue 12 /analysis/report: the demo plant's energy by hour today (period day, range index 2),
// the SUM line, the top list, the running circle of the compressors, and the standard export
// (the type the dialog starts on) read back from the downloaded xlsx, its progress bar finished;
// then the ERP layout as CSV from the same dialog.

test('energy statistics of the plant: chart, top list, running circle, standard xlsx export', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');
  await openFromMenu(page, '统计分析', '能耗报表');
  await expectPath(page, '/analysis/report');
  // The plant (the root region) shows first: today by hour (period day, range index 2).
  await expect(page.getByTestId('statistics-chart').locator('canvas')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('statistics-top').locator('tbody tr')).toHaveCount(1);

  // A filter group not chosen yet: nothing to draw.
  await page.getByText('筛选组', { exact: true }).first().click();
  await expect(page.getByTestId('statistics-empty')).toContainText('请选择统计对象和指标');

  // The plant's four areas side by side.
  await page.getByText('区域', { exact: true }).first().click();
  const picker = page.getByRole('combobox', { name: '选择区域' });
  for (const name of ['一号车间', '二号车间', '动力站', '办公楼']) {
    await picker.fill(name);
    await page
      .locator('.ant-select-tree-node-content-wrapper')
      .filter({ hasText: new RegExp(`^${name}$`) })
      .click();
  }
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('statistics-chart').locator('canvas')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('statistics-total')).toContainText(/总计: [\d,]+\.\d\d kWh/);
  const top = page.getByTestId('statistics-top');
  await expect(top.locator('tbody tr')).toHaveCount(4);
  await expect(top.locator('tbody tr').first()).toContainText(/\d+\.\d\d%/);
  await expect(page.getByTestId('statistics-circle').locator('canvas')).toBeVisible();
  await finalScreenshot(page, testInfo, 'statistics');

  await page
    .getByRole('button', { name: /导\s*出/ })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: '导出统计' });
  await expect(dialog.getByRole('radio', { name: '标准' })).toBeChecked();
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: buttonName('导出') }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^statistics-.+\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await readFile(await file.path())) as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet('能耗统计')!;
  expect(sheet.getCell('A1').value).toBe('名称');
  expect(sheet.getCell('D1').value).toBe('00:00');
  const names = [2, 3, 4, 5].map((r) => sheet.getCell(`A${r}`).value);
  expect(new Set(names)).toEqual(new Set(['一号车间', '二号车间', '动力站', '办公楼']));
  expect(sheet.getCell('A6').value).toBe('总计');
  expect(sheet.getCell('D6').numFmt).toBe('#,##0.00');
  // The file streamed in: the dialog's bar finished and says what was saved.
  const progress = dialog.getByTestId('export-progress');
  await expect(progress).toHaveAttribute('data-state', 'done');
  await expect(progress).toContainText(/已完成，[\d.]+ (KB|MB|B)，已保存/);
  await expect(progress.locator('.ant-progress-status-success')).toBeVisible();

  // The ERP layout as CSV, from the same dialog: one row per meter and hour, priced at the flat
  // price (no tariff in the e2e plant), the basis said in its column.
  await dialog.getByRole('radio', { name: 'ERP' }).check();
  await dialog.getByRole('radio', { name: 'CSV' }).check();
  const erpDownload = page.waitForEvent('download');
  await dialog.getByRole('button', { name: buttonName('导出') }).click();
  const erp = await erpDownload;
  expect(erp.suggestedFilename()).toMatch(/^erp-.+\.csv$/);
  const lines = (await readFile(await erp.path(), 'utf8'))
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(lines[0]).toBe('ERP编码,设备编号,设备名称,期间,用量,单位,单价,金额,币种,计价依据');
  expect(lines.length).toBeGreaterThan(24);
  expect(lines.slice(1).some((line) => line.endsWith(',CNY,统一单价'))).toBe(true);
  await expect(progress).toHaveAttribute('data-state', 'done');
  await dialog.getByRole('button', { name: '关 闭', exact: true }).click();
  await expect(dialog).toBeHidden();
});
