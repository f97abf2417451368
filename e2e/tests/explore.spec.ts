import { expect, type Locator, type Page, test } from '@playwright/test';
import { ADMIN } from './accounts.ts';
import {
  buttonName,
  expectPath,
  finalScreenshot,
  login,
  openDropdown,
  openFromMenu,
  toast,
  uniqueSuffix,
} from './helpers.ts';

// Issue 21, "Explore": "compressor room: pressure, power and temperature, last 8 h" as three
// stacked panels of the demo plant's compressors, zoomed by a drag, read with one crosshair,
// saved as a view, opened again from the list and deleted (docs/explore.md).

const COMPRESSORS = ['1#空压机', '2#空压机', '3#空压机'];

/** Adds series to panel `n`: the three compressors and one metric, through the picker. */
async function addCompressorSeries(page: Page, n: number, metric: string) {
  const panel = page.getByTestId(`explore-panel-${n}`);
  await panel
    .getByRole('button', { name: /添加曲线/ })
    .first()
    .click();
  const dialog = page.getByRole('dialog').filter({ hasText: `向面板 ${n} 添加曲线` });
  const resources = dialog.getByTestId('explore-resources');
  // One search, then its three matches one after another (the search stays after a pick).
  await resources.locator('input').fill('空压机');
  for (const name of COMPRESSORS) {
    const chosen = resources.locator('.ant-select-selection-item').filter({ hasText: name });
    await expect(async () => {
      await page
        .locator(
          '.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-tree-node-content-wrapper',
        )
        .filter({ hasText: new RegExp(`^${name}$`) })
        .click({ timeout: 3_000 });
      await expect(chosen).toHaveCount(1, { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
  }
  // The picks' dropdown closes when the select loses focus (a click on the title can land on the
  // dropdown itself when it covers the title).
  await resources.locator('input').blur();
  await expect(openDropdown(page)).toHaveCount(0);
  const metrics = dialog.getByTestId('explore-metrics');
  // The options arrive with the chosen devices' abilities and may re-render under a click.
  await expect(async () => {
    if (!(await openDropdown(page).count())) await metrics.click();
    await openDropdown(page)
      .locator('.ant-select-item-option')
      .filter({ hasText: metric })
      .click({ timeout: 3_000 });
    await expect(metrics).toContainText(metric.replace(/ \(.*\)$/, ''), { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await metrics.locator('input').blur();
  await expect(openDropdown(page)).toHaveCount(0);
  await dialog.getByRole('button', { name: buttonName('添加') }).click();
  await expect(dialog).toBeHidden();
  await expect(panel.getByTestId('explore-series').locator('.ant-tag')).toHaveCount(3);
}

const canvasOf = (panel: Locator) => panel.locator('canvas').first();

test('Explore: three panels of the compressor room over 8 h, drag-zoom, crosshair, saved view', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');
  await openFromMenu(page, '能源监控', '数据探索');
  await expect(page).toHaveURL(/#\/energy_monitor\/explore/);
  await expect(page.getByTestId('explore-empty')).toBeVisible();

  await page.locator('.ant-segmented-item').filter({ hasText: '最近 8 小时' }).click();
  await expect(page).toHaveURL(/range=8h/);
  for (let n = 1; n <= 3; n++) await page.getByTestId('explore-add-panel').click();
  await addCompressorSeries(page, 1, '排气压力 (MPa)');
  await addCompressorSeries(page, 2, '有功功率 (kW)');
  await addCompressorSeries(page, 3, '电机温度 (℃)');
  for (let n = 1; n <= 3; n++) await expect(canvasOf(page.getByTestId(`explore-panel-${n}`))).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('panels.png'), fullPage: true });

  // The crosshair: hovering the first panel shows the tooltip of the same instant on all three.
  const first = canvasOf(page.getByTestId('explore-panel-1'));
  const box = (await first.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.6);
  const tips = page.locator('.kw-chart-tooltip:visible');
  await expect(tips).toHaveCount(3);
  const times = (await tips.allInnerTexts()).map((text) => text.split('\n')[0]);
  expect(new Set(times).size, times.join(' | ')).toBe(1);
  await expect(tips.nth(0)).toContainText('1#空压机 · 排气压力');
  await expect(tips.nth(0)).toContainText('MPa');
  await expect(tips.nth(1)).toContainText('2#空压机 · 有功功率');
  await expect(tips.nth(2)).toContainText('℃');
  await page.screenshot({ path: testInfo.outputPath('crosshair.png'), fullPage: true });

  // Drag-to-zoom on the second panel narrows every panel to the dragged span (about 2 of the 8 h).
  const second = (await canvasOf(page.getByTestId('explore-panel-2')).boundingBox())!;
  const y = second.y + second.height * 0.6;
  await page.mouse.move(second.x + second.width * 0.4, y);
  await page.mouse.down();
  await page.mouse.move(second.x + second.width * 0.5, y, { steps: 5 });
  await page.mouse.move(second.x + second.width * 0.65, y, { steps: 5 });
  await page.mouse.up();
  await expect(page).toHaveURL(/from=\d+&to=\d+/);
  const zoomed = new URL(page.url().replace('#/', '')).searchParams;
  const span = Number(zoomed.get('to')) - Number(zoomed.get('from'));
  expect(span).toBeGreaterThan(1.2 * 3600_000);
  expect(span).toBeLessThan(3 * 3600_000);
  await expect(page.getByTestId('explore-panel-1').getByText('loading')).toHaveCount(0);
  await page.waitForTimeout(1000);
  await page.screenshot({ path: testInfo.outputPath('zoomed.png'), fullPage: true });
  await page.getByRole('button', { name: /缩放后退/ }).click();
  await expect(page).toHaveURL(/range=8h/);

  // Saved as a view of one's own, named; the address names the view too (a shareable link).
  const name = `空压站 ${uniqueSuffix()}`;
  await page.getByRole('button', { name: /另存为/ }).click();
  const naming = page.getByRole('dialog').filter({ hasText: '保存视图' });
  await naming.getByTestId('explore-view-name').fill(name);
  await naming.getByRole('button', { name: buttonName('保存') }).click();
  await expect(toast(page, '视图已保存')).toBeVisible();
  await expect(page).toHaveURL(/view=\d+/);
  const saved = page.url();

  // Opened again from the list on a fresh page: the same three panels over the last 8 h.
  await page.goto('/#/energy_monitor/explore');
  await expect(page.getByTestId('explore-empty')).toBeVisible();
  await page.getByTestId('explore-views').click();
  await openDropdown(page).locator('.ant-select-item-option').filter({ hasText: name }).click();
  await expect(page).toHaveURL(saved);
  await expect(page.locator('[data-testid^="explore-panel-"]')).toHaveCount(3);
  await expect(page.getByTestId('explore-panel-3').getByTestId('explore-series')).toContainText(
    '3#空压机 · 电机温度',
  );
  await expect(page.locator('.ant-segmented-item-selected')).toHaveText('最近 8 小时');
  // The link itself opens the view after a reload.
  await page.reload();
  await expect(page.getByTestId('explore-views')).toContainText(name, { timeout: 30_000 });
  await finalScreenshot(page, testInfo);

  // Deleted after a confirmation: the list no longer has it, the panels stay on screen unsaved.
  await page.getByTestId('explore-view-rename').click();
  const renaming = page.getByRole('dialog').filter({ hasText: '重命名视图' });
  await renaming.getByTestId('explore-view-name').fill(`${name} 改`);
  await renaming.getByRole('button', { name: buttonName('重命名') }).click();
  await expect(toast(page, '视图已重命名')).toBeVisible();
  await expect(page.getByTestId('explore-views')).toContainText(`${name} 改`);

  await page.getByTestId('explore-view-delete').click();
  await page
    .locator('.ant-popconfirm')
    .getByRole('button', { name: buttonName('删除') })
    .click();
  await expect(toast(page, '视图已删除')).toBeVisible();
  await expect(page).not.toHaveURL(/view=/);
  await page.getByTestId('explore-views').click();
  await expect(openDropdown(page).locator('.ant-select-item-option').filter({ hasText: name })).toHaveCount(
    0,
  );
  expect(errors).toEqual([]);
});
