import { expect, type Locator, type Page, test } from '@playwright/test';
import { ADMIN } from './accounts.ts';
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

// Issue 10: "a category created on the devices screen shows at once on the monitoring, home and
// region screens". Each screen has read the category list before the category is created; the
// console then moves between screens client-side (no reload), and each must show the new category
// well inside the minute the old feature caches kept it stale.
const suffix = uniqueSuffix();
const category = `E2E缓存类别-${suffix}`;
const ability = { identifier: `e2e_cache_${suffix}`, name: `E2E缓存功率-${suffix}` };

/** Well below the one-minute staleness the feature caches had, well above one round trip. */
const AT_ONCE = { timeout: 5_000 };

const categoryFilter = (page: Page, label: string) => page.getByRole('combobox', { name: label });

/**
 * Opens a category filter and moves to its last option (categories come in id order, the newest
 * last; the list is virtual, so only the options near the active one are in the page).
 */
async function openCategories(page: Page, filter: Locator): Promise<Locator> {
  await filter.click();
  const dropdown = openDropdown(page);
  await expect(dropdown.locator('.ant-select-item-option').first()).toBeVisible();
  await filter.press('ArrowUp');
  return dropdown;
}

async function closeDropdown(page: Page) {
  await page.keyboard.press('Escape');
  await expect(openDropdown(page)).toHaveCount(0);
}

async function openMonitoring(page: Page) {
  // The submenu stays open after the first visit; a second click on its title would close it.
  const item = page.getByTestId('sidebar-menu').getByText('实时监控', { exact: true });
  if (!(await item.isVisible())) await openFromMenu(page, '能源监控');
  await item.click();
  await expectPath(page, '/energy_monitor/realtime');
}

async function openRegionBindings(page: Page) {
  await openFromMenu(page, '区域管理');
  await expect(page.getByTestId('region-tree').getByText('示范工厂', { exact: true })).toBeVisible();
  await page.getByTestId('region-tree').getByText('示范工厂', { exact: true }).click();
  await expect(page.getByText('“示范工厂”绑定的设备')).toBeVisible();
}

async function openHomeSettings(page: Page): Promise<Locator> {
  await openFromMenu(page, '首页');
  await expectPath(page, '/home');
  await page.getByRole('button', { name: '指标设置' }).click();
  return page.getByRole('dialog', { name: '指标设置' });
}

test('a category created on the devices screen shows at once on the monitoring, home and region screens', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');
  await expect(page.getByText('示范工厂', { exact: true })).toBeVisible({ timeout: 20_000 });

  // Every screen reads the category list (and home the categories' abilities) once.
  const homeRead = page.waitForResponse((r) => /\/api\/thing\/categories\/\d+\/abilities/.test(r.url()));
  let dialog = await openHomeSettings(page);
  await homeRead;
  await expect(dialog.getByRole('cell', { name: ability.name })).toHaveCount(0);
  await dialog.getByRole('button', { name: '关闭' }).click();
  await expect(dialog).toBeHidden();

  await openMonitoring(page);
  await openCategories(page, categoryFilter(page, '设备类别'));
  await closeDropdown(page);

  await openRegionBindings(page);
  await openCategories(page, categoryFilter(page, '设备类别'));
  await closeDropdown(page);

  // The category, with one numeric ability, on the devices screen.
  await openFromMenu(page, '设备管理', '设备类别');
  await expectPath(page, '/device_management/category');
  await page.getByTestId('crud-create').click();
  dialog = page.getByRole('dialog', { name: '新增' });
  await dialog.getByLabel('类别名称').fill(category);
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(toast(page, '创建成功')).toBeVisible();
  await expect(dialog).toBeHidden();
  const search = page.getByTestId('crud-search').locator('input');
  await search.fill(category);
  await search.press('Enter');
  const row = page.locator('.ant-table-row').filter({ hasText: category });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: '能力' }).click();
  const drawer = page.getByRole('dialog', { name: `类别能力：${category}` });
  await drawer.getByRole('button', { name: '新增能力' }).click();
  dialog = page.getByRole('dialog', { name: '新增能力' });
  await dialog.getByLabel('标识符').fill(ability.identifier);
  await dialog.getByLabel('名称').fill(ability.name);
  await pickOption(page, dialog.getByLabel('单位'), 'kW · kilowatt', 'kW');
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(dialog).toBeHidden();
  await expect(drawer.getByRole('cell', { name: ability.identifier, exact: true })).toBeVisible();
  await drawer.getByRole('button', { name: '关闭' }).click();
  await expect(drawer).toBeHidden();

  // Client-side navigation only: the screens show the new category at once.
  await openMonitoring(page);
  let dropdown = await openCategories(page, categoryFilter(page, '设备类别'));
  await expect(dropdown.getByText(category, { exact: true })).toBeVisible(AT_ONCE);
  await closeDropdown(page);

  dialog = await openHomeSettings(page);
  await expect(dialog.getByRole('cell', { name: ability.name, exact: true })).toBeVisible(AT_ONCE);
  await dialog.getByRole('button', { name: '关闭' }).click();
  await expect(dialog).toBeHidden();

  await openRegionBindings(page);
  dropdown = await openCategories(page, categoryFilter(page, '设备类别'));
  await expect(dropdown.getByText(category, { exact: true })).toBeVisible(AT_ONCE);
  await closeDropdown(page);
  await finalScreenshot(page, testInfo);
});
