import { expect, type Page, test } from '@playwright/test';
import mqtt from 'mqtt';
import { ADMIN } from './accounts.ts';
import {
  buttonName,
  expectPath,
  finalScreenshot,
  login,
  openFromMenu,
  pickOption,
  toast,
  uniqueSuffix,
} from './helpers.ts';

// Issue 9, "Onboarding a device in the console": create a device, copy the mosquitto_pub command
// from its token dialog, publish it as a real MQTT client would, see "received" with the value
// and the device online in the list, and reach its live data although it is bound to no region.

const suffix = uniqueSuffix();
const thingId = `e2e-onboard-${suffix}`;
const thingName = `E2E新电表-${suffix}`;

const rowWith = (page: Page, text: string) => page.locator('.ant-table-row').filter({ hasText: text });

/** The arguments of a mosquitto_pub command as the dialog prints it (single-quoted words). */
function parseMosquittoPub(command: string) {
  const flag = (name: string) => {
    const match = new RegExp(`(?:^|\\s)${name} (?:'([^']*)'|(\\S+))`).exec(command);
    if (!match) throw new Error(`no ${name} in ${command}`);
    return match[1] ?? (match[2] as string);
  };
  return {
    host: flag('-h'),
    port: Number(flag('-p')),
    username: flag('-u'),
    password: flag('-P'),
    qos: Number(flag('-q')) as 0 | 1,
    topic: flag('-t'),
    message: flag('-m'),
  };
}

test('a new device is connected from its token dialog: copy, publish, received, online', async ({
  page,
  context,
}, testInfo) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  test.setTimeout(120_000);
  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');
  await openFromMenu(page, '设备管理', '设备节点');
  await expectPath(page, '/device_management/nodes');
  await expect(page.getByTestId('crud-search').getByPlaceholder('按设备名称搜索')).toBeVisible();

  await page.getByTestId('crud-create').click();
  const form = page.getByRole('dialog', { name: '新增' });
  await form.getByLabel('标识符').fill(thingId);
  await form.getByLabel('设备名称').fill(thingName);
  await pickOption(page, form.getByLabel('设备型号'), 'PM5350', 'PM5350');
  await form.getByRole('button', { name: buttonName('确定') }).click();
  await expect(toast(page, '创建成功')).toBeVisible();
  await expect(form).toBeHidden();

  const search = page.getByTestId('crud-search').locator('input');
  await search.fill(thingId);
  await search.press('Enter');
  const row = rowWith(page, thingId);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('从未上报');

  await row.getByRole('button', { name: /接入令牌/ }).click();
  const dialog = page.getByRole('dialog', { name: `接入令牌：${thingName}` });
  await expect(dialog.getByTestId('connect-broker')).toHaveText(/^mqtt:\/\/127\.0\.0\.1:\d+$/);
  await expect(dialog.getByTestId('first-message')).toContainText('等待第一条消息…');

  // The copy button carries the real token even while the screen masks it.
  const snippet = dialog.getByTestId('snippet-mosquitto');
  await expect(snippet).toContainText('mosquitto_pub');
  await dialog.getByRole('tabpanel').getByRole('button', { name: '复制' }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  await dialog.getByRole('button', { name: /显\s*示/ }).click();
  await expect(snippet).not.toContainText('•');
  const shown = (await snippet.textContent()) ?? '';
  expect(copied).toBe(shown);

  const args = parseMosquittoPub(copied);
  expect(args.topic).toBe('v1/devices/me/telemetry');
  const sent = JSON.parse(args.message) as { values: Record<string, unknown> };
  const [metric, value] = Object.entries(sent.values)[0]!;
  const client = await mqtt.connectAsync(`mqtt://${args.host}:${args.port}`, {
    username: args.username,
    password: args.password,
    protocolVersion: 4,
    reconnectPeriod: 0,
  });
  try {
    await client.publishAsync(args.topic, args.message, { qos: args.qos });
  } finally {
    await client.endAsync();
  }

  const check = dialog.getByTestId('first-message');
  await expect(check).toHaveAttribute('data-state', 'received');
  await expect(check).toContainText('已收到 ✓');
  await expect(check).toContainText(`${metric} = ${String(value)}`);
  await finalScreenshot(page, testInfo, 'received');

  // The ThingsBoard and InfluxDB 1.x snippets work as printed: their words, sent as curl would.
  const word = (command: string, flag: string) => {
    const match = new RegExp(`${flag} '([^']*)'`).exec(command);
    if (!match) throw new Error(`no ${flag} in ${command}`);
    return match[1] as string;
  };
  await dialog.getByRole('tab', { name: 'ThingsBoard 设备接口' }).click();
  const thingsboard = (await dialog.getByTestId('snippet-thingsboard').textContent()) ?? '';
  const viaThingsboard = await fetch(word(thingsboard, 'curl -sS'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: word(thingsboard, '-d'),
  });
  expect(viaThingsboard.status, await viaThingsboard.text()).toBe(200);
  await dialog.getByRole('tab', { name: 'InfluxDB 1.x' }).click();
  const influx = (await dialog.getByTestId('snippet-influx-v1').textContent()) ?? '';
  const viaInflux = await fetch(word(influx, 'curl -sS'), {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(word(influx, '-u')).toString('base64')}` },
    body: word(influx, '--data-binary'),
  });
  expect(viaInflux.status, await viaInflux.text()).toBe(204);

  await dialog
    .locator('.ant-modal-footer')
    .getByRole('button', { name: buttonName('关闭') })
    .click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('在线');

  // Its live data: the real-time screen with the device selected, although it is in no region.
  await row.getByRole('link', { name: /实时数据/ }).click();
  await expect(page).toHaveURL(/#\/energy_monitor\/realtime\?resourceType=thing&resourceId=\d+$/);
  const tree = page.locator('.ant-tree');
  await expect(tree.getByText('未分配区域的设备')).toBeVisible();
  await expect(tree.locator('.ant-tree-node-selected')).toContainText(thingName);
  await finalScreenshot(page, testInfo);
});
