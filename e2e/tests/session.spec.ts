import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { EDITOR } from './accounts.ts';
import { expectPath, login } from './helpers.ts';

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
