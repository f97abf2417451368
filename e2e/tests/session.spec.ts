import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { ADMIN, EDITOR } from './accounts.ts';
import { apiToken } from './api.ts';
import { buttonName, expectPath, login, toast, uniqueSuffix } from './helpers.ts';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * The stored access token re-signed with the server's own key (the suite's DATA_DIR/secret.key)
 * with `exp` in the past: what the browser holds after a pause longer than ACCESS_TOKEN_TTL. The
 * server really refuses it as expired; only `exp` and `iat` differ from the token it issued.
 */
async function expireStoredAccessToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  if (!token) throw new Error('no access token stored');
  const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());
  const now = Math.floor(Date.now() / 1000);
  const secret = readFileSync(join(process.env.E2E_DATA_DIR ?? '', 'secret.key'), 'utf8').trim();
  const unsigned = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ ...claims, iat: now - 3600, exp: now - 60 })}`;
  const signature = createHmac('sha256', secret).update(unsigned).digest('base64url');
  const expired = `${unsigned}.${signature}`;
  await page.evaluate((value) => localStorage.setItem('token', value), expired);
  return expired;
}

/** A second session of the same user, logged in the way the console does (docs/auth.md). */
test('a reload after the access token expired keeps the session (the refresh token is valid)', async ({
  page,
  request,
}) => {
  await page.goto('/#/login');
  await login(page, EDITOR);
  await expectPath(page, '/home');
  const expired = await expireStoredAccessToken(page);
  // The server agrees the token is expired: this is not a console-only clock trick.
  const refused = await request.get('/api/auth/me', { headers: { 'x-Authorization': `Bearer ${expired}` } });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).code).toBe('TOKEN_EXPIRED');

  await page.reload();
  await expectPath(page, '/home');
  await expect(page.getByTestId('user-menu')).toContainText('编辑员');
  const stored = await page.evaluate(() => localStorage.getItem('token'));
  expect(stored).not.toBe(expired);
  // Still logged in after another reload, with the refreshed token.
  await page.reload();
  await expect(page.getByTestId('user-menu')).toContainText('编辑员');
  await expectPath(page, '/home');
});

test('an editor changes their own password from the user menu', async ({ page, request }) => {
  // A fresh editor, so the suite's accounts keep their passwords.
  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');
  const adminToken = await page.evaluate(() => localStorage.getItem('token'));
  const username = `pw${uniqueSuffix()}`;
  const created = await request.post('/api/users', {
    headers: { 'x-Authorization': `Bearer ${adminToken}` },
    data: { username, password: 'Before123', name: '改密编辑', userLevel: 2 },
  });
  expect(created.status(), await created.text()).toBe(200);
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: '退出登录' }).click();
  await expectPath(page, '/login?redirect=%2F');

  await login(page, { username, password: 'Before123' });
  await expectPath(page, '/home');
  const elsewhere = await apiToken(request, { username, password: 'Before123' });

  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: '修改密码' }).click();
  const dialog = page.getByRole('dialog', { name: '修改密码' });
  await dialog.getByLabel('当前密码').fill('Wrong1234');
  await dialog.getByLabel('新密码', { exact: true }).fill('After1234');
  await dialog.getByLabel('确认新密码').fill('After1234');
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(dialog.getByText('当前密码不正确')).toBeVisible();

  await dialog.getByLabel('当前密码').fill('Before123');
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(toast(page, '密码已修改')).toBeVisible();
  await expect(dialog).toBeHidden();
  // This session goes on; the other one ended at once.
  await page.reload();
  await expectPath(page, '/home');
  const ended = await request.get('/api/auth/me', { headers: { 'x-Authorization': `Bearer ${elsewhere}` } });
  expect(ended.status()).toBe(401);

  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: '退出登录' }).click();
  await login(page, { username, password: 'After1234' });
  await expectPath(page, '/home');
});

// The OK button of a dialog whose call answers within a few frames: antd animates its loading icon
// in and out and removes it only when the CSS transition ends; an answer that arrives while the
// icon is still coming in cancels that transition, no transitionend follows, and the icon stayed
// (invisible, but named: the button read "loading 确 定" with the call long settled). The answers
// here come from the browser itself after 0-80 ms, the window where that happened.
test('a dialog button is named as before once a quick call has failed', async ({ page }) => {
  await page.goto('/#/login');
  await login(page, EDITOR);
  await expectPath(page, '/home');
  let delay = 0;
  await page.route('**/api/auth/password', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, delay));
    await route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({ code: 'VALIDATION', message: '当前密码不正确' }),
    });
  });
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: '修改密码' }).click();
  const dialog = page.getByRole('dialog', { name: '修改密码' });
  await dialog.getByLabel('当前密码').fill('Wrong1234');
  await dialog.getByLabel('新密码', { exact: true }).fill('After1234');
  await dialog.getByLabel('确认新密码').fill('After1234');
  const ok = dialog.locator('.ant-modal-footer .ant-btn-primary');
  for (const ms of [0, 20, 40, 50, 50, 50, 60, 60, 80, 80]) {
    delay = ms;
    await ok.click();
    await expect(dialog.getByText('当前密码不正确')).toBeVisible();
    await expect(ok, `answer after ${ms} ms`).not.toHaveClass(/ant-btn-loading/);
    await expect(ok, `answer after ${ms} ms`).toHaveAccessibleName(buttonName('确定'), { timeout: 2_000 });
  }
});
