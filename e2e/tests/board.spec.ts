import { expect, test } from '@playwright/test';
import { ADMIN } from './accounts.ts';
import { apiLogin, post } from './api.ts';
import { buttonName, expectPath, login, pickOption, pickTreeOption, uniqueSuffix } from './helpers.ts';

// Issue 13 "Workshop data board": build a two-page board (one page through the page and
// component dialogs, one over the API with device tiles), give one page more weight in the list,
// play it and watch it rotate on a short interval, pausing under the pointer.

interface RegionNode {
  id: number;
  name: string;
  resourceType: string;
  children: RegionNode[];
}

function findRegion(nodes: RegionNode[], name: string): RegionNode | undefined {
  for (const node of nodes) {
    if (node.name === name) return node;
    const found = findRegion(node.children ?? [], name);
    if (found) return found;
  }
  return undefined;
}

test('a two-page board rotates by weight on a short interval and pauses under the pointer', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(150_000);
  const suffix = uniqueSuffix();
  const headers = await apiLogin(request);
  const tree = (await (await request.get('/api/regions', { headers })).json()).data as RegionNode[];
  const air = findRegion(tree, '空压站');
  expect(air, 'the demo plant has 空压站').toBeTruthy();

  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');
  await page.goto('/#/workshopBoard');
  await expect(page.getByTestId('board-no-pages')).toContainText('还没有看板页面');

  // Page 1 through the dialogs: a region, 5 s on screen, then a line chart of the region's power.
  await page.getByRole('button', { name: '新建页面' }).first().click();
  let dialog = page.getByRole('dialog').filter({ hasText: '新建页面' });
  await dialog.getByLabel('页面名称').fill(`一号车间 ${suffix}`);
  await pickTreeOption(page, dialog, '区域', '一号车间');
  await dialog.getByLabel('停留时间').fill('5');
  await dialog.getByRole('button', { name: buttonName('保存') }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('board-editor-title')).toHaveText(`一号车间 ${suffix}`);
  await expect(page.getByTestId('board-no-components')).toContainText('该页面还没有组件');

  await page.getByRole('button', { name: '添加组件' }).click();
  dialog = page.getByRole('dialog').filter({ hasText: '添加组件' });
  await dialog.getByLabel('标题').fill('车间功率');
  await pickOption(page, dialog.getByLabel('设备类型'), '电力仪表');
  await pickOption(page, dialog.getByRole('combobox', { name: '指标' }), '有功功率 (kW)');
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('[data-testid^="kpi-component-"]').filter({ hasText: '车间功率' })).toBeVisible();

  // Page 2 over the API: the compressors' station, its devices now.
  const second = await post<{ id: number }>(request, headers, '/api/board/pages', {
    name: `空压站 ${suffix}`,
    regionId: air!.id,
    interval: 5,
  });
  await post(request, headers, `/api/board/pages/${second.id}/components`, {
    title: '空压机',
    chartType: 'devices',
    params: {},
    metrics: [],
    layout: { x: 0, y: 0, w: 12, h: 8 },
  });
  await page.reload();
  const rows = page.locator('.ant-table-tbody tr');
  await expect(rows).toHaveCount(2);

  // Weight 2 for page 2 (PATCH …/weight): it moves first and takes two thirds of the rotation.
  const weight = page.getByRole('spinbutton', { name: `“空压站 ${suffix}”的权重` });
  await weight.fill('2');
  await weight.blur();
  await expect(rows.first()).toContainText(`空压站 ${suffix}`);
  await expect(rows.first()).toContainText('67%');
  await expect(rows.nth(1)).toContainText('33%');
  await page.screenshot({ path: testInfo.outputPath('board-editor.png'), fullPage: true });

  // Play: the whole window, page 2 first, then page 1 after 5 s, then page 2 again.
  // The device tiles take their values now from the live hub's stream.
  const live = page.waitForRequest((r) => r.url().includes('/api/query/live?'));
  await page.getByRole('button', { name: /轮播/ }).click();
  expect((await live).url()).toContain('thingIds=');
  const board = page.getByTestId('board-carousel');
  await expect(board).toBeVisible();
  // Keep the pointer on the header: over a page it would pause the rotation.
  await page.mouse.move(5, 5);
  const firstId = await board.getAttribute('data-page');
  expect(Number(firstId)).toBe(second.id);
  await expect(page.getByTestId('board-tv-title')).toHaveText(`空压站 ${suffix}`);
  await expect(page.locator('[data-testid^="board-tile-"]').first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('board-tv-page-2.png') });
  await expect(page.getByTestId('board-tv-title')).toHaveText(`一号车间 ${suffix}`, { timeout: 9_000 });
  await expect(page.locator('[data-testid^="kpi-component-"]').filter({ hasText: '车间功率' })).toBeVisible();
  await expect(page.locator('canvas').first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('board-tv-page-1.png') });
  await expect(page.getByTestId('board-tv-title')).toHaveText(`空压站 ${suffix}`, { timeout: 9_000 });

  // Under the pointer it stays put; away from the page it goes on.
  await page.mouse.move(700, 500);
  await page.mouse.move(720, 520);
  await expect(page.getByTestId('board-paused')).toBeVisible();
  const position = page.getByTestId('board-tv-position');
  const held = await position.textContent();
  await page.waitForTimeout(7_000);
  await expect(position).toHaveText(held ?? '');
  await page.mouse.move(5, 5);
  await expect(page.getByTestId('board-paused')).toBeHidden();
  await expect(position).not.toHaveText(held ?? '', { timeout: 9_000 });

  await page.keyboard.press('Escape');
  await expect(board).toBeHidden();
  await expect(page.locator('.ant-table-tbody tr')).toHaveCount(2);
});
