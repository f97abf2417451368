import { expect, type Page } from '@playwright/test';

export async function login(page: Page, account: { username: string; password: string }) {
  await page.getByPlaceholder('用户名').fill(account.username);
  await page.getByPlaceholder('密码').fill(account.password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

export async function openFromMenu(page: Page, ...labels: string[]) {
  const menu = page.getByTestId('sidebar-menu');
  for (const label of labels) await menu.getByText(label, { exact: true }).click();
}

export const tabs = (page: Page) => page.getByTestId('tab-strip').getByTestId('tab');

export async function expectPath(page: Page, path: string) {
  await expect(page).toHaveURL(new RegExp(`#${path.replace(/[?]/g, '\\?')}$`));
}
