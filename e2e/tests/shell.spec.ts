import { expect, test } from '@playwright/test';
import { ADMIN, EDITOR } from './accounts.ts';
import { chooseLanguage, expectPath, finalScreenshot, login, openFromMenu, tabs } from './helpers.ts';

test('admin logs in, works with tabs, switches languages and logs out', async ({ page }, testInfo) => {
  await page.goto('/');
  await expect(page).toHaveURL(/#\/login\?redirect=/);
  await login(page, ADMIN);
  await expectPath(page, '/home');
  await expect(page.getByTestId('breadcrumb')).toContainText('首页');

  // Each screen is opened once the last one shows: a screen still loading when the next is clicked
  // never becomes current (the navigation to it is superseded), so it gets no tab.
  await openFromMenu(page, '能源监控', '实时监控');
  await expectPath(page, '/energy_monitor/realtime');
  await expect(tabs(page).filter({ hasText: '实时监控' })).toBeVisible();
  await openFromMenu(page, '告警中心', '告警规则');
  await expectPath(page, '/alarm_center/alarm_rule');
  await expect(tabs(page).filter({ hasText: '告警规则' })).toBeVisible();
  await openFromMenu(page, '区域管理');
  await expectPath(page, '/region');
  await expect(tabs(page)).toHaveCount(4);

  await tabs(page).filter({ hasText: '告警规则' }).click({ button: 'right' });
  await page.getByRole('menuitem', { name: '关闭其他' }).click();
  await expect(tabs(page)).toHaveCount(1);
  await expect(tabs(page)).toHaveText('告警规则');
  await expectPath(page, '/alarm_center/alarm_rule');

  await chooseLanguage(page, 'English');
  await expect(page.getByText('Switch Language Success')).toBeVisible();
  await expect(tabs(page)).toHaveText('Alarm rules');
  await expect(page.getByTestId('sidebar-menu')).toContainText('Energy monitoring');

  await chooseLanguage(page, 'Español');
  await expect(tabs(page)).toHaveText('Reglas de alarma');

  await chooseLanguage(page, '中文');
  await expect(tabs(page)).toHaveText('告警规则');

  await page.reload();
  await expect(tabs(page).first()).toBeVisible();
  await expect(page.getByTestId('sidebar-menu')).toContainText('能源监控');

  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: '退出登录' }).click();
  await expect(page).toHaveURL(/#\/login/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await page.goto('/#/home');
  await expect(page).toHaveURL(/#\/login\?redirect=%2Fhome/);
  await finalScreenshot(page, testInfo);
});

test('an editor sees no admin menus and gets the 401 page on admin routes', async ({ page }, testInfo) => {
  await page.goto('/#/login');
  await login(page, EDITOR);
  await expectPath(page, '/home');
  const menu = page.getByTestId('sidebar-menu');
  await expect(menu).toContainText('能源监控');
  await expect(menu).not.toContainText('设备管理');
  await expect(menu).not.toContainText('系统管理');
  await expect(menu).not.toContainText('系统设置');

  await page.goto('/#/sys_management/user');
  await expect(page).toHaveURL(/#\/401\?noGoBack=true/);
  await expect(page.getByText('抱歉，您没有权限访问此页面。')).toBeVisible();
  await expect(page.getByRole('button', { name: '返回', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: '返回首页' })).toBeVisible();
  await finalScreenshot(page, testInfo);
});

test('a deep link opened while logged out returns there after login', async ({ page }, testInfo) => {
  await page.goto('/#/energy_monitor/history');
  await expect(page).toHaveURL(/#\/login\?redirect=%2Fenergy_monitor%2Fhistory/);
  await login(page, ADMIN);
  await expectPath(page, '/energy_monitor/history');
  // The history screen, showing the first root region (the demo plant's) until one is chosen.
  await expect(page.getByTestId('history-range')).toBeVisible();
  await expect(page.getByTestId('not-built')).toHaveCount(0);
  await finalScreenshot(page, testInfo);
});

test('wrong password is refused with the server message and nothing is stored', async ({
  page,
}, testInfo) => {
  await page.goto('/#/login');
  await login(page, { username: ADMIN.username, password: 'wrongPass99' });
  await expect(page.locator('.ant-message')).toBeVisible();
  await expect(page).toHaveURL(/#\/login/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await finalScreenshot(page, testInfo);
});

test('an unknown path shows the 404 page', async ({ page }, testInfo) => {
  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');
  await page.goto('/#/no/such/page');
  await expectPath(page, '/404');
  await expect(page.getByText('抱歉，您访问的页面不存在。')).toBeVisible();
  await finalScreenshot(page, testInfo);
});
