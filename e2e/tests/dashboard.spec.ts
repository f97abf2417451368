import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { ADMIN } from './accounts.ts';
import { apiLogin, createDevice, post } from './api.ts';
import { expectPath, finalScreenshot, login, openFromMenu, toast, uniqueSuffix } from './helpers.ts';

// Issue 13, the situation overview end to end: the menu opens /dashboard as a page of its own,
// the admin uploads the plant's layout image, drags a device onto it, and the marker shows the
// device's live state as a test publisher (ThingsBoard-style HTTP telemetry) sends it, without a
// reload; the marker opens the device's realtime screen. Screenshots at 1920×1080 and 3840×2160.
const suffix = uniqueSuffix();
const names = {
  category: `E2E态势类别-${suffix}`,
  model: `E2E态势型号-${suffix}`,
  thing: `E2E态势空压机-${suffix}`,
};
const LAYOUT_IMAGE = new URL('../../docs/screenshots/console.png', import.meta.url);

test('a device placed on the situation map shows its live state and opens its realtime screen', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const headers = await apiLogin(request);
  const { category, thing } = await createDevice(request, headers, {
    category: names.category,
    model: names.model,
    thing: { identifier: `e2e_map_${suffix}`, name: names.thing },
    ability: { identifier: 'P', name: '有功功率', unit: 'kW' },
  });
  // A status metric too: the marker shows running or stopped from it.
  await post(request, headers, `/api/thing/categories/${category.id}/abilities`, {
    identifier: 'status',
    name: '运转状态',
    unit: '',
    dataType: 'enum',
    aggregator: 'last',
    enumOptions: [
      { value: '0', label: '停机' },
      { value: '1', label: '运行' },
    ],
  });
  const token = (await (await request.get(`/api/thing/things/${thing.id}/token`, { headers })).json()).data
    .accessToken as string;
  const publish = async (values: Record<string, number | string>) => {
    const res = await request.post(`/api/v1/${token}/telemetry`, { data: { ts: Date.now(), values } });
    expect(res.status(), await res.text()).toBe(200);
  };
  // A fresh map: this spec shows the empty state and uploads through the console.
  const removed = await request.delete('/api/dashboard/map/image', { headers });
  expect([200, 404]).toContain(removed.status());

  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');

  // The menu entry opens the overview in the same window, as a page of its own: no sidebar.
  await openFromMenu(page, '态势总览');
  await expectPath(page, '/dashboard');
  await expect(page.getByTestId('dashboard-page')).toBeVisible();
  await expect(page.getByTestId('sidebar-menu')).toHaveCount(0);

  // No image yet: it says so and offers the upload to the admin.
  const empty = page.getByTestId('map-empty');
  await expect(empty).toContainText('尚未上传厂区布局图');
  await empty.locator('input[type=file]').setInputFiles({
    name: 'plant.png',
    mimeType: 'image/png',
    buffer: readFileSync(LAYOUT_IMAGE),
  });
  await expect(toast(page, '布局图已上传')).toBeVisible();
  await expect(page.getByTestId('map-box').locator('img')).toBeVisible();

  // Edit: find the device in the palette and drag it onto the middle of the image.
  await page.getByTestId('map-edit').click();
  const search = page.getByTestId('palette-search').locator('input');
  await search.fill(names.thing);
  await search.press('Enter');
  const item = page.getByTestId(`palette-thing-${thing.id}`);
  const box = page.getByTestId('map-box');
  const area = await box.boundingBox();
  if (!area) throw new Error('the map has no box');
  await item.dragTo(box, { targetPosition: { x: area.width * 0.4, y: area.height * 0.5 } });
  const marker = page.getByTestId(`marker-thing-${thing.id}`);
  await expect(marker).toBeVisible();
  await expect(marker).toHaveAttribute('data-presence', 'never');
  const placed = (await (await request.get('/api/dashboard/map', { headers })).json()).data.placements.find(
    (p: { resourceId: number; resourceType: string }) =>
      p.resourceType === 'thing' && p.resourceId === thing.id,
  );
  expect(placed.x).toBeCloseTo(0.4, 1);
  expect(placed.y).toBeCloseTo(0.5, 1);
  await page.getByTestId('map-edit').click();

  // Live: the device speaks, the marker turns online and running with its power, no reload.
  await publish({ status: '1', P: 42 });
  await expect(marker).toHaveAttribute('data-presence', 'online');
  await expect(marker).toHaveAttribute('data-running', 'true');
  await expect(marker).toContainText('42.0 kW');
  await publish({ status: '0', P: 0 });
  await expect(marker).toHaveAttribute('data-running', 'false');
  await expect(marker).toContainText('停机');
  await publish({ status: '1', P: 55.5 });
  await expect(marker).toContainText('55.5 kW');

  // Wall screenshots: kiosk mode (no controls) at 1080p and at 4K.
  await page.getByTestId('dashboard-kiosk').click();
  await expect(page.getByTestId('dashboard-page')).toHaveAttribute('data-kiosk', 'true');
  await expect(page.getByTestId('dashboard-kiosk')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('dashboard-1920x1080.png') });
  await page.setViewportSize({ width: 3840, height: 2160 });
  await expect(marker).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('dashboard-3840x2160.png') });
  // The marker sits at the same fraction of the image at both sizes.
  const image = await box.boundingBox();
  const dot = await marker.locator('span').first().boundingBox();
  if (!image || !dot) throw new Error('no boxes');
  expect((dot.x + dot.width / 2 - image.x) / image.width).toBeCloseTo(placed.x, 2);

  // A click opens the device's realtime screen.
  await page.setViewportSize({ width: 1920, height: 1080 });
  await marker.click();
  await expectPath(page, `/energy_monitor/realtime?resourceType=thing&resourceId=${thing.id}`);
  await finalScreenshot(page, testInfo);
});
