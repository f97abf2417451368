import { expect, type Page, test } from '@playwright/test';
import { ADMIN, EDITOR } from './accounts.ts';
import {
  buttonName,
  expectPath,
  finalScreenshot,
  login,
  openDropdown,
  openFromMenu,
  pickOption,
  toast,
  uniqueSuffix,
} from './helpers.ts';

// Issue: "an admin creates a category with abilities, a model, a thing, binds it to a new region
// node; an editor cannot reach any of it." The demo plant is present (the simulator runs for the
// monitoring spec): every name here is unique, and nothing counts the rows of a whole table.
test.describe.configure({ mode: 'serial' });

const suffix = uniqueSuffix();
const names = {
  category: `E2E电表-${suffix}`,
  model: `E2E型号-${suffix}`,
  thingId: `e2e-meter-${suffix}`,
  thing: `E2E配电柜-${suffix}`,
  region: `E2E车间-${suffix}`,
};

const ADMIN_ONLY_PATHS = [
  '/device_management/category',
  '/device_management/model',
  '/device_management/nodes',
  '/device_management/video',
  '/sys_management/user',
  '/sys_management/group',
  '/sys_management/role',
  '/sys_management/route',
  '/sys_config',
];

/** The table row (of the visible tables) that contains `text`. */
const rowWith = (page: Page, text: string) => page.locator('.ant-table-row').filter({ hasText: text });

/**
 * Opens a device management page from the menu and waits until it shows (its search box), so a
 * click on 新增 does not land on the previous page while the next one loads.
 */
async function openCrudPage(page: Page, menu: string[], path: string, searchPlaceholder: string) {
  await openFromMenu(page, ...menu);
  await expectPath(page, path);
  await expect(page.getByTestId('crud-search').getByPlaceholder(searchPlaceholder)).toBeVisible();
}

async function searchTable(page: Page, text: string) {
  const search = page.getByTestId('crud-search').locator('input');
  await search.fill(text);
  await search.press('Enter');
  await expect(rowWith(page, text)).toHaveCount(1);
}

async function addAbility(
  page: Page,
  ability: { identifier: string; name: string; unit: string; cumulative?: boolean; aggregator?: string },
) {
  const drawer = page.getByRole('dialog', { name: `类别能力：${names.category}` });
  await drawer.getByRole('button', { name: '新增能力' }).click();
  const dialog = page.getByRole('dialog', { name: '新增能力' });
  await dialog.getByLabel('标识符').fill(ability.identifier);
  await dialog.getByLabel('名称').fill(ability.name);
  await pickOption(page, dialog.getByLabel('单位'), ability.unit, ability.unit.split(' ')[0]);
  if (ability.aggregator) await pickOption(page, dialog.getByLabel('聚合方式'), ability.aggregator);
  if (ability.cumulative) await dialog.getByRole('switch').click();
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(dialog).toBeHidden();
  const cell = page.getByRole('cell', { name: ability.identifier, exact: true });
  await expect(drawer.locator('.ant-table-row').filter({ has: cell })).toHaveCount(1);
}

test('an admin creates a category with abilities, a model and a thing, and binds it to a new region', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');

  // Category.
  await openCrudPage(page, ['设备管理', '设备类别'], '/device_management/category', '按类别名称搜索');
  await page.getByTestId('crud-create').click();
  let dialog = page.getByRole('dialog', { name: '新增' });
  await dialog.getByLabel('类别名称').fill(names.category);
  await dialog.getByLabel('描述').fill('E2E: 由端到端测试创建');
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(toast(page, '创建成功')).toBeVisible();
  await expect(dialog).toBeHidden();
  await searchTable(page, names.category);

  // Its abilities: an instantaneous power value and an energy counter.
  await rowWith(page, names.category).getByRole('button', { name: '能力' }).click();
  const drawer = page.getByRole('dialog', { name: `类别能力：${names.category}` });
  await expect(drawer).toBeVisible();
  await addAbility(page, { identifier: 'P', name: '有功功率', unit: 'kW · kilowatt' });
  await addAbility(page, {
    identifier: 'EP',
    name: '有功电能',
    unit: 'kWh · kilowatt-hour',
    cumulative: true,
    aggregator: '求和',
  });
  const power = drawer.locator('.ant-table-row').filter({ hasText: '有功功率' });
  await expect(power).toContainText('kW');
  await expect(power).toContainText('数值');
  await expect(power).toContainText('平均值');
  await expect(power).toContainText('否');
  const energy = drawer.locator('.ant-table-row').filter({ hasText: '有功电能' });
  await expect(energy).toContainText('kWh');
  await expect(energy).toContainText('求和');
  await expect(energy.locator('.ant-tag')).toHaveText('是');
  await drawer.getByRole('button', { name: '关闭' }).click();
  await expect(drawer).toBeHidden();
  // The ability count column (类别名称, 描述, 能力数, …) follows.
  await expect(rowWith(page, names.category).locator('td').nth(2)).toHaveText('2');

  // A model of that category.
  await openCrudPage(page, ['设备型号'], '/device_management/model', '按型号名称搜索');
  await page.getByTestId('crud-create').click();
  dialog = page.getByRole('dialog', { name: '新增' });
  await pickOption(page, dialog.getByLabel('设备类别'), names.category, names.category);
  await dialog.getByLabel('型号名称').fill(names.model);
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(toast(page, '创建成功')).toBeVisible();
  await expect(dialog).toBeHidden();
  await searchTable(page, names.model);
  await expect(rowWith(page, names.model)).toContainText(names.category);

  // A thing of that model, with an attribute.
  await openCrudPage(page, ['设备节点'], '/device_management/nodes', '按设备名称搜索');
  await page.getByTestId('crud-create').click();
  dialog = page.getByRole('dialog', { name: '新增' });
  await dialog.getByLabel('标识符').fill(names.thingId);
  await dialog.getByLabel('设备名称').fill(names.thing);
  await pickOption(page, dialog.getByLabel('设备型号'), names.model, names.model);
  await dialog.getByRole('button', { name: '添加属性' }).click();
  await dialog.getByPlaceholder('属性标识符').fill('ratedPower');
  await dialog.getByPlaceholder('属性名称').fill('额定功率');
  await dialog.getByPlaceholder('属性值').fill('75 kW');
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(toast(page, '创建成功')).toBeVisible();
  await expect(dialog).toBeHidden();
  await searchTable(page, names.thingId);
  const thingRow = rowWith(page, names.thingId);
  await expect(thingRow).toContainText(names.thing);
  await expect(thingRow).toContainText(names.model);
  await expect(thingRow).toContainText(names.category);
  // The attribute was stored: the edit dialog shows it again.
  await thingRow.getByRole('button', { name: '编辑' }).click();
  dialog = page.getByRole('dialog', { name: '编辑' });
  await expect(dialog.getByPlaceholder('属性名称')).toHaveValue('额定功率');
  await expect(dialog.getByPlaceholder('属性值')).toHaveValue('75 kW');
  await dialog.getByRole('button', { name: buttonName('取消') }).click();
  await expect(dialog).toBeHidden();

  // A new root region, with the thing bound to it.
  await openFromMenu(page, '区域管理');
  await expectPath(page, '/region');
  await page.getByTestId('region-add-root').click();
  dialog = page.getByRole('dialog', { name: '新增区域' });
  await dialog.getByLabel('区域名称').fill(names.region);
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(toast(page, '创建成功')).toBeVisible();
  await expect(dialog).toBeHidden();
  const tree = page.getByTestId('region-tree');
  await tree.getByText(names.region, { exact: true }).click();
  await expect(page).toHaveURL(/#\/region\?region=\d+$/);
  await expect(page.getByText(`“${names.region}”绑定的设备`)).toBeVisible();
  await expect(page.getByText('该区域还没有绑定设备')).toBeVisible();

  await page.getByTestId('bind-things').click();
  dialog = page.getByRole('dialog', { name: `为“${names.region}”绑定设备` });
  const pickerSearch = dialog.getByTestId('picker-search').locator('input');
  await pickerSearch.fill(names.thing);
  await pickerSearch.press('Enter');
  const pickRow = dialog.locator('.ant-table-row').filter({ hasText: names.thingId });
  await expect(dialog.locator('.ant-table-row')).toHaveCount(1);
  await pickRow.getByRole('checkbox').check();
  await expect(dialog.getByText('已选择 1 台设备')).toBeVisible();
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(toast(page, '添加成功')).toBeVisible();
  await expect(dialog).toBeHidden();

  const bound = rowWith(page, names.thingId);
  await expect(bound).toHaveCount(1);
  await expect(bound).toContainText(names.thing);
  await expect(bound).toContainText(names.category);
  await expect(bound).toContainText(names.model);
  await expect(bound.getByRole('button', { name: '解绑' })).toBeVisible();
  await finalScreenshot(page, testInfo);
});

test('an editor sees none of the admin screens and the region tree read-only', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  await page.goto('/#/login');
  await login(page, EDITOR);
  await expectPath(page, '/home');
  const menu = page.getByTestId('sidebar-menu');
  await expect(menu).toContainText('区域管理');
  for (const label of ['设备管理', '系统管理', '系统设置']) await expect(menu).not.toContainText(label);

  for (const path of ADMIN_ONLY_PATHS) {
    await page.goto(`/#${path}`);
    await expect(page, `${path} is refused`).toHaveURL(/#\/401\?noGoBack=true$/);
    await expect(page.getByText('抱歉，您没有权限访问此页面。')).toBeVisible();
  }

  await page.getByRole('button', { name: '返回首页' }).click();
  await expectPath(page, '/home');
  await openFromMenu(page, '区域管理');
  await expectPath(page, '/region');
  const tree = page.getByTestId('region-tree');
  await expect(tree.getByText(names.region, { exact: true })).toBeVisible();
  await expect(tree.getByText('示范工厂', { exact: true })).toBeVisible();
  await expect(page.getByTestId('region-add-root')).toHaveCount(0);
  await expect(page.locator('[data-testid^="region-actions-"]')).toHaveCount(0);
  await expect(page.getByText('拖动区域可调整层级与顺序')).toHaveCount(0);
  await expect(tree.locator('[draggable="true"]')).toHaveCount(0);

  await tree.getByText(names.region, { exact: true }).click();
  await expect(page.getByText(`“${names.region}”绑定的设备`)).toBeVisible();
  const bound = rowWith(page, names.thingId);
  await expect(bound).toContainText(names.thing);
  await expect(page.getByTestId('bind-things')).toHaveCount(0);
  await expect(page.getByRole('button', { name: '解绑' })).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: '操作' })).toHaveCount(0);
  await expect(openDropdown(page)).toHaveCount(0);
  await finalScreenshot(page, testInfo);
});

test("the editor's token is refused (403) when it creates a category", async ({
  page,
  request,
}, testInfo) => {
  await page.goto('/#/login');
  await login(page, EDITOR);
  await expectPath(page, '/home');
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  const headers = { 'x-Authorization': `Bearer ${token}` };

  // The token itself is good: reads are open to every logged-in user.
  const read = await request.get('/api/thing/categories', { headers, params: { name: names.category } });
  expect(read.status()).toBe(200);
  expect((await read.json()).data.list).toHaveLength(1);

  const write = await request.post('/api/thing/categories', {
    headers,
    data: { name: `E2E编辑员类别-${suffix}`, description: '' },
  });
  expect(write.status()).toBe(403);
  expect((await write.json()).code).toBe('FORBIDDEN');
  const after = await request.get('/api/thing/categories', {
    headers,
    params: { name: `E2E编辑员类别-${suffix}` },
  });
  expect((await after.json()).data.total).toBe(0);
  await finalScreenshot(page, testInfo);
});
