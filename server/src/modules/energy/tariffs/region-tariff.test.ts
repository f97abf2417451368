import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../../test/helpers.ts';
import { type Plant, seedPlant } from '../../../ingest/testing.ts';
import { type Api, apiAs } from '../../things/testing.ts';
import { demandPeakReadings, exampleTariff, exampleVersion } from './testing.ts';

const at = (local: string) => Date.parse(`${local}+08:00`);

/**
 * A region's own tariff (docs/tariffs.md "A region's tariff"): a bill asked without a tariff is
 * priced with the target region's, else its nearest ancestor's, else the plant's, and says which;
 * and the bill's coverage of a month with two days of readings.
 */
describe.each(dialects())("a region's tariff and the bill's coverage on %s", (dialect) => {
  let t: TestApp;
  let api: Api;
  let plant: Plant;
  const regions = { root: 0, hall: 0, line: 0, other: 0 };
  const tariffs = { plant: 0, site: 0, hall: 0 };
  const ok = async (res: Promise<{ status: number; body: { data: unknown } }>) => {
    const r = await res;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the body holds
    return r.body.data as any;
  };
  const newTariff = async (name: string, flat: number) => {
    const input = exampleTariff();
    input.name = name;
    // One price all day, so the energy cost says which tariff priced it.
    input.version = exampleVersion('2026-01-01', {
      prices: { tip: flat, peak: flat, flat, valley: flat },
      demand: { kind: 'none' },
    });
    return (await ok(api.post('/api/tariffs', input))).tariff.id as number;
  };
  const bill = (resourceType: 'thing' | 'region', resourceId: number) =>
    api.post('/api/tariffs/bill', { resourceType, resourceId, month: '2026-10' });

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { PLANT_TIMEZONE: 'Asia/Shanghai' } });
    api = apiAs(() => t.app, (await login(t.app)).token);
    plant = await seedPlant(api, 1);
    regions.root = (await ok(api.post('/api/regions', { name: '全厂' }))).id;
    regions.hall = (await ok(api.post('/api/regions', { name: '一车间', parentId: regions.root }))).id;
    regions.line = (await ok(api.post('/api/regions', { name: '一号线', parentId: regions.hall }))).id;
    regions.other = (await ok(api.post('/api/regions', { name: '二车间', parentId: regions.root }))).id;
    await ok(api.post(`/api/regions/${regions.line}/bindings`, { thingIds: [plant.things[0]!.id] }));
    await t.app.telemetry.write(demandPeakReadings(plant.things[0]!.id, 'EP'));
    tariffs.plant = await newTariff('全厂电价', 1);
    tariffs.site = await newTariff('园区电价', 2);
    tariffs.hall = await newTariff('车间电价', 3);
  });
  afterAll(() => t?.close());

  it('prices with the nearest region that has a tariff, else the plant, and says which', async () => {
    // No tariff anywhere: the bill says what to do instead of guessing.
    const none = await bill('region', regions.line);
    expect(none.status).toBe(422);
    expect(none.body.message).toContain('没有电价');

    await ok(api.put('/api/tariffs/plant', { tariffId: tariffs.plant }));
    const byPlant = await ok(bill('region', regions.line));
    expect(byPlant.tariffId).toBe(tariffs.plant);
    expect(byPlant.tariffSource).toEqual({ kind: 'plant', region: null });
    const kwh = byPlant.energyKwh;
    expect(kwh).toBeGreaterThan(0);
    expect(byPlant.energyCost).toBeCloseTo(kwh * 1, 2);

    expect(await ok(api.put(`/api/tariffs/${tariffs.site}/regions`, { regionIds: [regions.root] }))).toEqual([
      { regionId: regions.root, tariffId: tariffs.site },
    ]);
    const bySite = await ok(bill('region', regions.line));
    expect(bySite.tariffSource).toEqual({ kind: 'region', region: { id: regions.root, name: '全厂' } });
    expect(bySite.energyCost).toBeCloseTo(kwh * 2, 2);

    await ok(api.put(`/api/tariffs/${tariffs.hall}/regions`, { regionIds: [regions.hall] }));
    for (const [type, id] of [
      ['region', regions.hall],
      ['region', regions.line],
      ['thing', plant.things[0]!.id],
    ] as const) {
      const b = await ok(bill(type, id));
      expect(b.tariffName, `${type} ${id}`).toBe('车间电价');
      expect(b.tariffSource).toEqual({ kind: 'region', region: { id: regions.hall, name: '一车间' } });
      expect(b.energyCost).toBeCloseTo(kwh * 3, 2);
    }
    // A sibling keeps the root's; a tariff asked for wins and says so.
    expect((await ok(bill('region', regions.other))).tariffSource.region.id).toBe(regions.root);
    const asked = await ok(
      api.post('/api/tariffs/bill', {
        tariffId: tariffs.plant,
        resourceType: 'region',
        resourceId: regions.hall,
        month: '2026-10',
      }),
    );
    expect(asked.tariffSource).toEqual({ kind: 'asked', region: null });

    // The overview prices the plant (the root region) with the root's own tariff and says so.
    const overview = await ok(api.get('/api/dashboard/overview'));
    expect(overview.tariff).toEqual({
      id: tariffs.site,
      name: '园区电价',
      source: { kind: 'region', region: { id: regions.root, name: '全厂' } },
    });

    // Moving the hall to the site's tariff takes it from the hall's; an empty list clears.
    const moved = await ok(
      api.put(`/api/tariffs/${tariffs.site}/regions`, { regionIds: [regions.root, regions.hall] }),
    );
    expect(moved).toEqual([
      { regionId: regions.root, tariffId: tariffs.site },
      { regionId: regions.hall, tariffId: tariffs.site },
    ]);
    expect(await ok(api.get('/api/tariffs/regions'))).toEqual(moved);
    await ok(api.put(`/api/tariffs/${tariffs.site}/regions`, { regionIds: [] }));
    expect((await ok(bill('region', regions.line))).tariffSource.kind).toBe('plant');

    // Unknown tariff or region: 404; deleting a tariff drops its regions.
    expect((await api.put('/api/tariffs/99999/regions', { regionIds: [] })).status).toBe(404);
    expect((await api.put(`/api/tariffs/${tariffs.hall}/regions`, { regionIds: [99999] })).status).toBe(404);
    await ok(api.put(`/api/tariffs/${tariffs.hall}/regions`, { regionIds: [regions.other] }));
    await ok(api.del(`/api/tariffs/${tariffs.hall}`));
    expect(await ok(api.get('/api/tariffs/regions'))).toEqual([]);
  });

  it('says how much of the month has readings, and which days have none', async () => {
    await ok(api.put('/api/tariffs/plant', { tariffId: tariffs.plant }));
    const { coverage } = await ok(bill('thing', plant.things[0]!.id));
    // Readings 10-14 09:00–11:00 and 10-20 15:00–16:00: hours 09, 10, 11 and 15, 16 of 744.
    expect(coverage.first).toBe(at('2026-10-14T09:00:00'));
    expect(coverage.last).toBe(at('2026-10-20T16:00:00'));
    expect(coverage.percent).toBe(0.7);
    expect(coverage.emptyDays).toHaveLength(29);
    expect(coverage.emptyDays).not.toContain(at('2026-10-14T00:00:00'));
    expect(coverage.emptyDays).not.toContain(at('2026-10-20T00:00:00'));
    expect(coverage.emptyDays).toContain(at('2026-10-15T00:00:00'));
    expect(coverage.emptyDays[0]).toBe(at('2026-10-01T00:00:00'));
  });
});
