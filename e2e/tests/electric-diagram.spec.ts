import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from './accounts.ts';
import {
  expectPath,
  finalScreenshot,
  login,
  openDropdown,
  pickOption,
  toast,
  uniqueSuffix,
} from './helpers.ts';

// Issue 13, electrical single-line diagram: the demo substation shows live values, then a small
// diagram drawn in the editor (incoming line, busbar, two feeders), bound to the demo plant's
// transformer and two cabinet meters, shows their live values and the busbar's branch loss.
const name = `E2E一次图-${uniqueSuffix()}`;

/** The symbol drawn with this label (its <g data-cell-id>). */
const symbol = (page: Page, label: string) =>
  page.locator('[data-testid="diagram-canvas"] g[data-cell-id]').filter({
    // X6 writes spaces as no-break spaces.
    has: page.locator('text', { hasText: new RegExp(`^${label.replaceAll(' ', '\\s')}$`) }),
  });
/** The live values drawn beside a symbol. */
const values = (page: Page, label: string) => symbol(page, label).locator('text').nth(1);

async function bind(page: Page, device: string, search: string, shown: string[], power: string) {
  const panel = page.getByTestId('diagram-properties');
  await pickOption(page, panel.getByTestId('diagram-device').getByRole('combobox'), device, search);
  // A multiple select stays open after a choice: pick each, then close it.
  await panel.getByTestId('diagram-shown').getByRole('combobox').click();
  for (const metric of shown) {
    await openDropdown(page).locator('.ant-select-item-option').filter({ hasText: metric }).click();
  }
  await page.keyboard.press('Escape');
  await expect(panel.getByTestId('diagram-shown')).toContainText(shown[0]!);
  await pickOption(page, panel.getByTestId('diagram-power').getByRole('combobox'), power);
}

async function label(page: Page, text: string) {
  const input = page.getByTestId('diagram-label');
  await input.fill(text);
}

test('draws a small diagram, binds meters and shows their live values and the branch loss', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');
  await page.goto('/#/electricDiagram/index');

  // The demo plant's substation, monitored: its transformers' input power beside them.
  await expect(page.locator('[data-testid^="diagram-item-"]').filter({ hasText: '变配电室' })).toBeVisible();
  await expect(values(page, '1#变压器')).toContainText(/Pin\s\d+(\.\d+)?\skW/);
  await expect(values(page, '0.4kV I段母线')).toContainText(/损耗\s-?\d+(\.\d+)?\skW/);
  // Each busbar draws every feeder its transformer supplies, and the simulated transformer takes
  // in what they draw plus its own losses: the branch loss is that loss, a few per cent at most,
  // in the ordinary colour (the demo once read 77–93 %, flagged red).
  for (const bus of ['0.4kV I段母线', '0.4kV II段母线']) {
    await expect(values(page, bus)).toContainText(/损耗\s\d+(\.\d+)?\skW\s·\s\d+\.\d+%/);
    const pct = Number(/·\s(\d+\.\d+)%/.exec((await values(page, bus).textContent()) ?? '')?.[1]);
    expect(pct, bus).toBeGreaterThan(0);
    expect(pct, bus).toBeLessThan(5);
    await expect(values(page, bus)).toHaveAttribute('fill', '#1d39c4');
  }
  // Nor does any feeder's meter flag a three-phase imbalance: nothing is drawn in the flag's red.
  await expect(page.locator('[data-testid="diagram-canvas"] text[fill="#cf1322"]')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('demo.png') });

  // A new diagram opens in the editor.
  await page.getByTestId('diagram-new').click();
  await page.getByTestId('diagram-name').fill(name);
  await page.getByTestId('diagram-name-ok').click();
  await expect(page.getByTestId('diagram-toolbar')).toBeVisible();

  // Drawn top-down: each symbol added with one selected goes below it, wired to it.
  await page.getByTestId('diagram-add-incoming').click();
  await label(page, 'E2E进线');
  await bind(page, '1#变压器 (TR-01)', '1#变压器', ['进线有功功率 (Pin, kW)'], '进线有功功率 (Pin, kW)');
  await page.getByTestId('diagram-add-busbar').click();
  await label(page, 'E2E母线');
  const bus = symbol(page, 'E2E母线');
  // Its left end: wires land in the middle.
  const clickBus = () =>
    bus
      .locator('rect')
      .nth(1)
      .click({ position: { x: 10, y: 4 } });
  await page.getByTestId('diagram-add-feeder').click();
  await label(page, 'E2E出线1');
  await bind(page, '装配线A 1#配电柜 (AL-1-01)', '装配线A 1#', ['有功功率 (P, kW)'], '有功功率 (P, kW)');
  await clickBus();
  await page.getByTestId('diagram-add-feeder').click();
  await label(page, 'E2E出线2');
  await bind(page, '装配线B 1#配电柜 (AL-1-08)', '装配线B 1#', ['有功功率 (P, kW)'], '有功功率 (P, kW)');
  await expect(page.locator('[data-testid="diagram-canvas"] g.x6-edge')).toHaveCount(3);

  // Undo takes the last change back, redo puts it again.
  await page.getByTestId('diagram-add-meter').click();
  await expect(symbol(page, '电表')).toHaveCount(1);
  await page.getByTestId('diagram-undo').click();
  await page.getByTestId('diagram-undo').click();
  await expect(symbol(page, '电表')).toHaveCount(0);

  // Back to monitoring with unsaved changes: the console's own dialog asks (not the browser's);
  // cancelling keeps the editor and its drawing.
  page.on('dialog', (d) => {
    throw new Error(`a browser dialog opened: ${d.message()}`);
  });
  await page.getByTestId('diagram-mode').getByText('监视').click();
  await expect(page.getByText('有未保存的修改，确定放弃吗？')).toBeVisible();
  await page.getByTestId('diagram-discard-cancel').click();
  await expect(page.getByText('有未保存的修改，确定放弃吗？')).toBeHidden();
  await expect(page.getByTestId('diagram-toolbar')).toBeVisible();
  await expect(symbol(page, 'E2E出线2')).toHaveCount(1);

  await page.getByTestId('diagram-save').click();
  await expect(toast(page, '已保存')).toBeVisible();
  await page.getByTestId('diagram-mode').getByText('监视').click();

  // Live: the bound values beside the symbols and the busbar's loss (transformer input minus
  // the two feeders), all three energised from the incoming line.
  await expect(values(page, 'E2E进线')).toContainText(/Pin\s\d+(\.\d+)?\skW/);
  await expect(values(page, 'E2E出线1')).toContainText(/P\s\d+(\.\d+)?\skW/);
  await expect(values(page, 'E2E出线2')).toContainText(/P\s\d+(\.\d+)?\skW/);
  await expect(values(page, 'E2E母线')).toContainText(/损耗\s-?\d+(\.\d+)?\skW\s·\s-?\d+(\.\d+)?%/);
  await expect(bus.locator('rect').nth(1)).toHaveAttribute('fill', '#e8491d');

  // Its trend on click, from the history.
  await clickBus();
  const detail = page.getByTestId('diagram-detail');
  await expect(detail.getByTestId('diagram-loss-detail')).toContainText('E2E出线1');
  await expect(detail.getByTestId('diagram-trend')).toBeVisible();
  await finalScreenshot(page, testInfo);

  // Saved as data: a reload draws it again.
  await page.reload();
  await expect(values(page, 'E2E母线')).toContainText(/损耗/);

  const item = page.locator('[data-testid^="diagram-item-"]').filter({ hasText: name });
  await item.getByRole('button', { name: '删除' }).click();
  await page.getByTestId('confirm-delete-ok').click();
  await expect(item).toHaveCount(0);
});
