import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { parse as parseCsv } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { ADMIN } from './accounts.ts';
import { expectPath, finalScreenshot, login, openFromMenu } from './helpers.ts';

// Issue 9 "Export what is on screen": the history table exports as xlsx and CSV with the same
// cells it shows, its page size can change, and a chart saves as PNG. The demo plant's
// backfilled hour gives the table a few hundred rows (start-server.mjs).

const POWER_METER = '配电柜';

async function openHistoryOfAMeter(page: Page) {
  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');
  await openFromMenu(page, '能源监控', '历史数据');
  await expectPath(page, '/energy_monitor/history');
  const panel = page.locator('.ant-card').filter({ hasText: '区域与设备' });
  await panel.getByPlaceholder('搜索区域或设备').fill(POWER_METER);
  await panel
    .locator('.ant-tree-treenode')
    .filter({ hasText: POWER_METER })
    .first()
    .locator('.ant-tree-node-content-wrapper')
    .click();
  await expect(page).toHaveURL(/resourceType=thing&resourceId=\d+/);
}

/** Picks a format in the export menu of the history view; answers the downloaded file. */
async function exportAs(page: Page, label: string) {
  const view = page.getByTestId('history-view');
  const download = page.waitForEvent('download');
  await view.getByTestId('export-menu').click();
  await page.getByRole('menuitem', { name: label }).click();
  const file = await download;
  const path = await file.path();
  return { name: file.suggestedFilename(), body: await readFile(path) };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** An xlsx date cell as the wall clock it shows (`YYYY-MM-DD HH:mm:ss`). */
const wallClock = (d: Date) =>
  `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

test('the history table exports as xlsx and CSV cell by cell; its page size changes; the chart saves as PNG', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await openHistoryOfAMeter(page);

  // The chart first: PNG bytes of a real image.
  const view = page.getByTestId('history-view');
  await expect(view.getByTestId('echart').locator('canvas')).toBeVisible();
  await expect(view.getByTestId('export-menu')).toBeEnabled({ timeout: 20_000 });
  const png = await exportAs(page, '保存图片 (PNG)');
  expect(png.name).toMatch(/\.png$/);
  expect([...png.body.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(png.body.length).toBeGreaterThan(5_000);

  // The table, 10 rows a page, then 50.
  await page.getByText('数据表', { exact: true }).click();
  const rows = view.locator('.ant-table-row');
  await expect(rows).toHaveCount(10);
  await view.locator('.ant-pagination-options-size-changer').click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByText('50 条/页').click();
  await expect(rows).toHaveCount(50);
  const total = Number(/\d+/.exec(await view.locator('.ant-pagination-total-text').innerText())?.[0]);
  expect(total).toBeGreaterThan(200);
  const headers = (await view.locator('thead th').allInnerTexts()).map((h) => h.trim());
  const firstRows = await Promise.all(
    [0, 1, 49].map(async (i) => (await rows.nth(i).locator('td').allInnerTexts()).map((c) => c.trim())),
  );

  const xlsx = await exportAs(page, '导出 Excel (xlsx)');
  expect(xlsx.name).toMatch(/\.xlsx$/);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(
    xlsx.body.buffer.slice(xlsx.body.byteOffset, xlsx.body.byteOffset + xlsx.body.byteLength) as ArrayBuffer,
  );
  const ws = book.worksheets[0]!;
  // Every row of the table (not only the page), one header row.
  expect(ws.rowCount).toBe(total + 1);
  const header = (ws.getRow(1).values as unknown[]).slice(1) as string[];
  expect(header[0]).toMatch(/^时间 \(.+\)$/);
  // Value columns as the table heads them, unit included: 有功功率 (kW) …
  expect(header.slice(1, headers.length)).toEqual(headers.slice(1));
  expect(header.some((h) => / \(kW\)$/.test(h))).toBe(true);
  // The table lists newest first; the file keeps time order (oldest first), as a sheet of a
  // series is read and charted: the table's row k is the file's k-th from the end.
  const fromEnd = [0, 1, 49].map((k, n) => [total - k, firstRows[n]!] as const);
  for (const [i, shown] of fromEnd) {
    const row = ws.getRow(i + 1);
    expect(wallClock(row.getCell(1).value as Date)).toBe(shown[0]);
    for (let c = 1; c < headers.length; c++) {
      const value = row.getCell(c + 1).value as number | null;
      // The table shows 2 decimals (an incomplete bucket adds *); the file keeps the number.
      expect(value === null ? '-' : value.toFixed(2)).toBe(shown[c]!.replace('*', ''));
    }
  }

  const csv = await exportAs(page, '导出 CSV');
  expect(csv.name).toMatch(/\.csv$/);
  const text = csv.body.toString('utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const table = parseCsv(text.slice(1), { record_delimiter: '\r\n' });
  expect(table).toHaveLength(total + 1);
  expect(table[0]!.slice(0, headers.length)).toEqual(header.slice(0, headers.length));
  for (const [i, shown] of fromEnd) {
    const cells = table[i]!;
    expect(cells[0]).toBe(shown[0]);
    for (let c = 1; c < headers.length; c++) {
      expect(cells[c] === '' ? '-' : Number(cells[c]).toFixed(2)).toBe(shown[c]!.replace('*', ''));
    }
  }
  await finalScreenshot(page, testInfo, 'history-export');
});
