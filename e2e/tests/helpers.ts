import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';

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

const LANGUAGE_CODES = { 中文: 'zh', English: 'en', Español: 'es' } as const;

/**
 * Chooses a language from the navbar's switch and waits until the page is in it. A menu opened while
 * the last choice's menu is still closing can take the click on its way out: choose again until the
 * page says it switched.
 */
export async function chooseLanguage(page: Page, name: keyof typeof LANGUAGE_CODES) {
  await expect(async () => {
    const item = page.getByRole('menuitem', { name });
    if (!(await item.isVisible())) await page.getByTestId('language-switch').click();
    await item.click({ timeout: 3_000 });
    await expect(page.locator('html')).toHaveAttribute('lang', LANGUAGE_CODES[name], { timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByRole('menuitem', { name })).toBeHidden();
}

/** A suffix that keeps names of one run apart from the demo plant and from earlier runs. */
export const uniqueSuffix = () =>
  `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

/** The open antd select dropdown (closed ones stay in the DOM, hidden). */
export const openDropdown = (page: Page) =>
  page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');

/** Matches an element whose whole text is `text`. */
const wholeText = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/**
 * Opens an antd Select (the combobox `field`), optionally types `search` into it and clicks the
 * option whose whole text is `option`.
 */
export async function pickOption(page: Page, field: Locator, option: string, search?: string) {
  await field.click();
  if (search !== undefined) await field.fill(search);
  // A searching select re-renders its options when the server's answer arrives, which can swallow
  // a click made just before, and a select whose options arrive late can close its empty dropdown:
  // open it again and click again until the choice closes the dropdown.
  await expect(async () => {
    if (!(await openDropdown(page).count())) await field.click();
    await openDropdown(page)
      .locator('.ant-select-item-option')
      .filter({ hasText: wholeText(option) })
      .click({ timeout: 5_000 });
    await expect(openDropdown(page)).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/**
 * Opens the antd TreeSelect labelled `label` in `scope` (a dialog; or the field itself when it has
 * no label), searches `option` and clicks the node of that name, again until the field shows it:
 * the tree re-renders its nodes when the search's answer arrives, which can swallow a click made
 * just before (the save then said 请选择区域).
 */
export async function pickTreeOption(page: Page, scope: Locator, label: string | Locator, option: string) {
  const field = typeof label === 'string' ? scope.getByLabel(label, { exact: true }) : label;
  await expect(async () => {
    if (!(await openDropdown(page).count())) {
      await field.click();
      await field.fill(option);
    }
    await openDropdown(page)
      .locator('.ant-select-tree-title')
      .filter({ hasText: wholeText(option) })
      .click({ timeout: 5_000 });
    await expect(scope.getByTitle(option, { exact: true })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/** antd puts a space between the two characters of a CJK button label (确 定). */
export const buttonName = (label: string) => new RegExp(`^${[...label].join('\\s*')}$`);

/**
 * A toast (antd message) with `text`; the first one showing, since an earlier identical toast
 * may still be on screen (or fading out) after a quick second action.
 */
export const toast = (page: Page, text: string) =>
  page.locator('.ant-message-notice:not(.ant-message-fade-leave)').filter({ hasText: text }).first();

/**
 * Waits until the screen holds still, instead of a fixed pause before a check or a screenshot: no
 * finite animation or transition running (endless spinners aside) and every chart's canvas as
 * large as its element, for four frames in a row. A chart follows its element's resize one debounce
 * later (size-sensor, 60 ms), so a canvas of the old size means its redraw is still to come. Gives
 * up quietly after `timeout`, as the fixed pause went on whatever the screen was doing.
 */
export async function holdStill(page: Page, timeout = 3_000) {
  await page.evaluate(async (timeout) => {
    const still = () => {
      const moving = document
        .getAnimations()
        .some(
          (a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY,
        );
      if (moving) return false;
      for (const chart of document.querySelectorAll('[_echarts_instance_]')) {
        const canvas = chart.querySelector('canvas')?.getBoundingClientRect();
        const box = chart.getBoundingClientRect();
        if (
          canvas &&
          box.width > 0 &&
          (Math.abs(canvas.width - box.width) > 1 || Math.abs(canvas.height - box.height) > 1)
        )
          return false;
      }
      return true;
    };
    const end = performance.now() + timeout;
    for (let frames = 0; frames < 4 && performance.now() < end; ) {
      await new Promise((frame) => requestAnimationFrame(frame));
      frames = still() ? frames + 1 : 0;
    }
  }, timeout);
}

/** A screenshot of the final screen of a test, kept with its results. */
export async function finalScreenshot(page: Page, testInfo: TestInfo, name = 'final') {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}
