import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createUser, dialects, login, type TestApp } from '../../../test/helpers.ts';
import { type Plant, seedPlant } from '../../ingest/testing.ts';
import { exampleTariff } from '../energy/tariffs/testing.ts';
import { DEFAULT_ERP_CONFIG } from '../system/sysconfigs/erp.ts';
import { type Api, apiAs } from '../things/testing.ts';

/** The first bytes of a PNG of this size: the server reads the signature and IHDR, nothing more. */
function pngHead(width: number, height: number): Buffer {
  const head = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(head, 0);
  head.writeUInt32BE(13, 8);
  head.write('IHDR', 12, 'latin1');
  head.writeUInt32BE(width, 16);
  head.writeUInt32BE(height, 20);
  return head;
}

/** A JPEG with an APP0 segment, then a baseline start-of-frame of this size. */
function jpegHead(width: number, height: number): Buffer {
  const app0 = [0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const sof = [0xff, 0xc0, 0x00, 0x11, 8, height >> 8, height & 255, width >> 8, width & 255, 3];
  return Buffer.from([0xff, 0xd8, ...app0, ...sof, ...Array(9).fill(0)]);
}

function multipart(filename: string, content: Buffer | string, field = 'file') {
  const boundary = '----kilowatch-dashboard-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe.each(dialects())('situation overview API on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  let api: Api;
  let plant: Plant;

  const ok = async (res: Promise<{ status: number; body: { data: unknown } }>) => {
    const r = await res;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the body holds
    return r.body.data as any;
  };
  const upload = async (filename: string, content: Buffer | string, as = token, field = 'file') => {
    const { body, contentType } = multipart(filename, content, field);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/map/image',
      headers: { ...bearer(as), 'content-type': contentType, 'accept-language': 'en' },
      payload: body,
    });
    return { status: res.statusCode, body: res.json() };
  };
  const send = async (thingToken: string, values: Record<string, number | string>, ts = t.clock.now()) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/${thingToken}/telemetry`,
      payload: { ts, values },
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    // The test clock stands at 2026-11-22 16:00 in the plant's zone.
    t = await buildTestApp(dialect, { env: { PLANT_TIMEZONE: 'Asia/Shanghai' } });
    token = (await login(t.app)).token;
    api = apiAs(() => t.app, token);
    plant = await seedPlant(api, 3);
  });
  afterAll(async () => {
    await t.close();
  });

  it('starts empty: no image, no markers, no plant totals', async () => {
    expect(await ok(api.get('/api/dashboard/map'))).toEqual({ image: null, placements: [] });
    expect((await api.get('/api/dashboard/map/image')).status).toBe(404);
    const overview = await ok(api.get('/api/dashboard/overview'));
    expect(overview).toMatchObject({
      region: null,
      power: null,
      energyToday: null,
      costToday: null,
      tariff: null,
      alarms: { critical: 0, major: 0, minor: 0, warning: 0, unacknowledged: 0 },
      devices: { online: 0, offline: 0, never: 4, total: 4 },
    });
  });

  it('refuses a wrong type, an SVG, a file too large, an unreadable or oversized image', async () => {
    const text = await upload('plan.png', 'not an image at all');
    expect(text.status).toBe(415);
    expect(text.body.message).toBe('Only PNG or JPEG images are accepted');
    const svg = await upload(
      'plan.svg',
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    expect(svg.status).toBe(415);
    expect(svg.body.message).toMatch(/SVG/);
    const big = Buffer.concat([pngHead(1920, 1080), Buffer.alloc(10 * 1024 * 1024)]);
    const tooBig = await upload('plan.png', big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe('The image is too large: at most 10 MB');
    expect((await upload('plan.png', pngHead(1920, 1080).subarray(0, 20))).status).toBe(422);
    const huge = await upload('plan.png', pngHead(20_000, 1000));
    expect(huge.status).toBe(422);
    expect(huge.body.message).toBe('The image is 20000×1000: at most 16384 pixels a side');
    // A few bytes declaring 16384 × 16384: every side allowed, the whole far too many pixels.
    const bomb = await upload('plan.png', Buffer.concat([pngHead(16_384, 16_384), Buffer.alloc(32 * 1024)]));
    expect(bomb.status).toBe(422);
    expect(bomb.body.message).toBe(
      'The image is 16384×16384, 268435456 pixels: at most 33177600 pixels in all',
    );
    expect((await upload('plan.png', pngHead(10, 10), token, 'other')).status).toBe(400);
    // Nothing was stored by any of them.
    expect((await ok(api.get('/api/dashboard/map'))).image).toBeNull();
  });

  it('stores a png or jpeg, serves its bytes with a version, and only to holders of /dashboard writes it', async () => {
    const png = Buffer.concat([pngHead(1920, 1080), Buffer.from('rest of the file')]);
    const image = await ok(Promise.resolve(await upload('plan.png', png)));
    expect(image).toMatchObject({
      type: 'image/png',
      width: 1920,
      height: 1080,
      size: png.length,
      updatedBy: 'admin',
    });
    const bytes = await t.app.inject({
      method: 'GET',
      url: '/api/dashboard/map/image',
      headers: bearer(token),
    });
    expect(bytes.statusCode).toBe(200);
    expect(bytes.headers['content-type']).toBe('image/png');
    expect(bytes.rawPayload.equals(png)).toBe(true);
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/dashboard/map/image',
      headers: { ...bearer(token), 'if-none-match': bytes.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);

    const jpeg = await ok(Promise.resolve(await upload('plan.jpg', jpegHead(3840, 2160))));
    expect(jpeg).toMatchObject({ type: 'image/jpeg', width: 3840, height: 2160 });
    expect(jpeg.version).not.toBe(image.version);
    expect((await ok(api.get('/api/dashboard/map'))).image).toEqual(jpeg);

    await createUser(t.app, { username: 'viewer', password: 'Viewer123', userLevel: 2 });
    const viewer = (await login(t.app, 'viewer', 'Viewer123')).token;
    expect((await upload('plan.png', png, viewer)).status).toBe(403);
    const asViewer = apiAs(() => t.app, viewer);
    expect((await asViewer.get('/api/dashboard/map')).status).toBe(200);
    expect(
      (await asViewer.post('/api/dashboard/placements', { resourceType: 'thing', resourceId: 1, x: 0, y: 0 }))
        .status,
    ).toBe(403);
  });

  it('places one marker at once from many requests: every one answers, one marker stays', async () => {
    const thing = plant.things[1]!;
    const region = await ok(api.post('/api/regions', { name: '并发车间' }));
    for (const [resourceType, resourceId] of [
      ['thing', thing.id],
      ['region', region.id],
    ] as const) {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          api.post('/api/dashboard/placements', { resourceType, resourceId, x: i / 12, y: 0.5 }),
        ),
      );
      expect(
        answers.map((a) => a.status),
        JSON.stringify(answers.find((a) => a.status !== 200)?.body),
      ).toEqual(answers.map(() => 200));
      expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
      const map = await ok(api.get('/api/dashboard/map'));
      const markers = map.placements.filter(
        (p: { resourceType: string; resourceId: number }) =>
          p.resourceType === resourceType && p.resourceId === resourceId,
      );
      expect(markers).toHaveLength(1);
      expect((await api.del(`/api/dashboard/placements/${markers[0].id}`)).status).toBe(200);
    }
    // The plant's totals below sum its top regions: this one goes again.
    expect((await api.del(`/api/regions/${region.id}`)).status).toBe(200);
  });

  it('places, moves and removes markers as fractions of the image', async () => {
    const [m1] = plant.things;
    const placed = await ok(
      api.post('/api/dashboard/placements', { resourceType: 'thing', resourceId: m1!.id, x: 0.25, y: 0.75 }),
    );
    expect(placed).toMatchObject({
      resourceType: 'thing',
      resourceId: m1!.id,
      name: m1!.name,
      x: 0.25,
      y: 0.75,
    });
    // Placing it again moves the same marker.
    const again = await ok(
      api.post('/api/dashboard/placements', { resourceType: 'thing', resourceId: m1!.id, x: 0.5, y: 0.5 }),
    );
    expect(again.id).toBe(placed.id);
    const moved = await ok(api.put(`/api/dashboard/placements/${placed.id}`, { x: 0.123456789, y: 1 }));
    expect(moved.x).toBeCloseTo(0.123456789, 9);
    expect((await api.put(`/api/dashboard/placements/${placed.id}`, { x: 1.5, y: 0 })).status).toBe(400);
    expect((await api.put('/api/dashboard/placements/99999', { x: 0, y: 0 })).status).toBe(404);
    expect(
      (await api.post('/api/dashboard/placements', { resourceType: 'thing', resourceId: 99999, x: 0, y: 0 }))
        .status,
    ).toBe(404);
    expect(
      (await api.post('/api/dashboard/placements', { resourceType: 'region', resourceId: 99999, x: 0, y: 0 }))
        .status,
    ).toBe(404);
    expect((await ok(api.get('/api/dashboard/map'))).placements).toHaveLength(1);
    await ok(api.del(`/api/dashboard/placements/${placed.id}`));
    expect((await ok(api.get('/api/dashboard/map'))).placements).toEqual([]);
    expect((await api.del(`/api/dashboard/placements/${placed.id}`)).status).toBe(404);
  });

  it('takes the marker of a deleted device or region off the map', async () => {
    const doomed = await ok(
      api.post('/api/thing/things', { identifier: 'GONE', name: '待删设备', modelId: plant.modelId }),
    );
    const region = await ok(api.post('/api/regions', { name: '待删区域' }));
    await ok(
      api.post('/api/dashboard/placements', { resourceType: 'thing', resourceId: doomed.id, x: 0.1, y: 0.1 }),
    );
    await ok(
      api.post('/api/dashboard/placements', {
        resourceType: 'region',
        resourceId: region.id,
        x: 0.2,
        y: 0.2,
      }),
    );
    expect((await ok(api.get('/api/dashboard/map'))).placements.map((p: { name: string }) => p.name)).toEqual(
      ['待删设备', '待删区域'],
    );
    await ok(api.del(`/api/thing/things/${doomed.id}`));
    await ok(api.del(`/api/regions/${region.id}`));
    expect((await ok(api.get('/api/dashboard/map'))).placements).toEqual([]);
  });

  it("sums the plant's power, today's energy and cost, counts alarms and colours markers by them", async () => {
    const [m1, m2, m3] = plant.things;
    const plantRegion = await ok(api.post('/api/regions', { name: '示范工厂' }));
    const workshop = await ok(api.post('/api/regions', { name: '一车间', parentId: plantRegion.id }));
    await ok(api.post(`/api/regions/${workshop.id}/bindings`, { thingIds: [m1!.id, m2!.id] }));
    // The first tariff there is (the lowest id) is not the plant's.
    const lower = (await ok(api.post('/api/tariffs', { ...exampleTariff(), name: '一般工商业' }))).tariff;
    const tariff = (await ok(api.post('/api/tariffs', exampleTariff()))).tariff;

    // Today (from local midnight): m1 counts 100 → 150 kWh, m2 0 → 30; both draw power now.
    const midnight = Date.parse('2026-11-22T00:00:00+08:00');
    await send(m1!.token, { EP: 100 }, midnight + 60_000);
    await send(m2!.token, { EP: 0 }, midnight + 60_000);
    await send(m1!.token, { EP: 150, P: 40 });
    await send(m2!.token, { EP: 30, P: 2.5 });
    // m3 is outside the plant region: its power is not the plant's.
    await send(m3!.token, { P: 1000 });

    const rule = await ok(
      api.post('/api/alarm/rules', {
        name: '功率过高',
        categoryId: plant.categoryId,
        ability: 'P',
        condition: { kind: 'threshold', op: '>', value: 30 },
        onDelay: 0,
        offDelay: 0,
        deadband: 0,
        severity: 'critical',
        message: '{thing} 功率 {value} kW',
      }),
    );
    await ok(api.post(`/api/alarm/rules/${rule.id}/state`, { action: 'enable' }));
    await ok(
      api.post('/api/alarm/monitors/batch', {
        appliedType: 'rule',
        appliedId: rule.id,
        targets: [{ type: 'thing', id: m1!.id }],
      }),
    );
    await t.app.services.alarmRunner.reload();
    await send(m1!.token, { P: 45 });
    await t.app.services.alarmRunner.flush();

    // The plant prices with the tariff its statistics use (erpConfig's tariffId), not the first one
    // there is: while none is named, there is no cost today.
    const unpriced = await ok(api.get('/api/dashboard/overview'));
    expect(unpriced).toMatchObject({ energyToday: 80, tariff: null, costToday: null });
    expect(lower.id).toBeLessThan(tariff.id);
    await ok(
      api.post('/api/sysconfigs', {
        identifier: 'erpConfig',
        name: 'ERP',
        value: JSON.stringify({ ...DEFAULT_ERP_CONFIG, tariffId: tariff.id }),
      }),
    );

    const overview = await ok(api.get('/api/dashboard/overview'));
    expect(overview.region).toEqual({ id: plantRegion.id, name: '示范工厂' });
    expect(overview.metrics).toEqual({ power: 'P', energy: 'EP' });
    expect(overview.power).toBe(47.5);
    expect(overview.energyToday).toBe(80);
    expect(overview.tariff).toEqual({
      id: tariff.id,
      name: tariff.name,
      source: { kind: 'plant', region: null },
    });
    const tpfc = await ok(
      api.post('/api/statistics/range/TPFC', {
        tariffId: tariff.id,
        targets: [{ resourceType: 'region', resourceId: plantRegion.id }],
        period: 'day',
      }),
    );
    expect(overview.costToday).toBe(tpfc.rows[0].total.totalCost);
    expect(overview.costToday).toBeGreaterThan(0);
    expect(overview.alarms).toEqual({ critical: 1, major: 0, minor: 0, warning: 0, unacknowledged: 1 });
    expect(overview.devices).toMatchObject({ online: 3, never: 1, total: 4 });
    expect((await api.get('/api/dashboard/overview?tariffId=99999')).status).toBe(404);

    await ok(
      api.post('/api/dashboard/placements', { resourceType: 'thing', resourceId: m1!.id, x: 0.3, y: 0.3 }),
    );
    await ok(
      api.post('/api/dashboard/placements', {
        resourceType: 'region',
        resourceId: plantRegion.id,
        x: 0.6,
        y: 0.6,
      }),
    );
    await ok(
      api.post('/api/dashboard/placements', {
        resourceType: 'thing',
        resourceId: plant.pump.id,
        x: 0.9,
        y: 0.9,
      }),
    );
    const map = await ok(api.get('/api/dashboard/map'));
    const byName = Object.fromEntries(map.placements.map((p: { name: string }) => [p.name, p]));
    expect(byName[m1!.name]).toMatchObject({
      presence: 'online',
      online: 1,
      things: 1,
      alarm: { severity: 'critical', unacknowledged: true, count: 1 },
    });
    expect(byName.示范工厂).toMatchObject({
      presence: 'online',
      online: 2,
      things: 2,
      alarm: { severity: 'critical' },
    });
    expect(byName[plant.pump.name]).toMatchObject({ presence: 'never', alarm: null });

    // Acknowledged: still coloured, no longer flashing.
    const active = (await ok(api.get('/api/alarm/history?state=1'))).list[0];
    await ok(api.post(`/api/alarm/history/${active.id}/actions`, { action: 'acknowledge' }));
    const after = await ok(api.get('/api/dashboard/map'));
    expect(after.placements.find((p: { name: string }) => p.name === m1!.name).alarm).toEqual({
      severity: 'critical',
      unacknowledged: false,
      count: 1,
    });
    expect((await ok(api.get('/api/dashboard/overview'))).alarms.unacknowledged).toBe(0);
  });
  it("takes the plant's power and energy from its metric configuration, not from fixed names", async () => {
    const plantRegion = (await ok(api.get('/api/dashboard/overview'))).region;
    // A transformer reports its input as Pin/EPin: the same energy the meters below it count.
    const category = await ok(api.post('/api/thing/categories', { name: '变压器' }));
    await ok(
      api.post(`/api/thing/categories/${category.id}/abilities`, {
        identifier: 'Pin',
        name: '进线有功功率',
        unit: 'kW',
        sort: 0,
      }),
    );
    await ok(
      api.post(`/api/thing/categories/${category.id}/abilities`, {
        identifier: 'EPin',
        name: '进线有功电能',
        unit: 'kWh',
        cumulative: true,
        aggregator: 'last',
        sort: 1,
      }),
    );
    const model = await ok(api.post('/api/thing/models', { categoryId: category.id, name: 'S13' }));
    const tx = await ok(
      api.post('/api/thing/things', { identifier: 'TX1', name: '1#变压器', modelId: model.id }),
    );
    await ok(api.post(`/api/regions/${plantRegion.id}/bindings`, { thingIds: [tx.id] }));
    const txToken = (await ok(api.get(`/api/thing/things/${tx.id}/token`))).accessToken as string;
    const midnight = Date.parse('2026-11-22T00:00:00+08:00');
    await send(txToken, { EPin: 1000 }, midnight + 60_000);
    await send(txToken, { EPin: 1090, Pin: 50 });

    // No config: what most of the plant's things carry (two meters' P/EP over one Pin/EPin), never both.
    const usual = await ok(api.get('/api/dashboard/overview'));
    expect(usual.metrics).toEqual({ power: 'P', energy: 'EP' });
    expect(usual.power).toBe(47.5);
    expect(usual.energyToday).toBe(80);

    // The plant's charts name the transformer's input (a config in another unit is not summed as kW).
    await ok(
      api.patch('/api/query/config', {
        resourceType: 'region',
        resourceId: plantRegion.id,
        configs: [
          { metricIdentifier: 'P', enabled: true, unit: 'MW', function: 'avg' },
          { metricIdentifier: 'Pin', enabled: true, unit: 'kW', function: 'avg' },
          { metricIdentifier: 'EPin', enabled: true, unit: 'kWh', function: 'delta' },
        ],
      }),
    );
    const configured = await ok(api.get('/api/dashboard/overview'));
    expect(configured.metrics).toEqual({ power: 'Pin', energy: 'EPin' });
    expect(configured.power).toBe(50);
    expect(configured.energyToday).toBe(90);
    const tpfc = await ok(
      api.post('/api/statistics/range/TPFC', {
        tariffId: configured.tariff.id,
        targets: [{ resourceType: 'region', resourceId: plantRegion.id }],
        metricIdentifier: 'EPin',
        period: 'day',
      }),
    );
    expect(configured.costToday).toBe(tpfc.rows[0].total.totalCost);
    await ok(
      api.patch('/api/query/config', { resourceType: 'region', resourceId: plantRegion.id, configs: [] }),
    );
  });
});
