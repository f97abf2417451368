import type { EnpiInput, EnpiReport } from '@kilowatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../../test/helpers.ts';
import { type Plant, seedPlant } from '../../../ingest/testing.ts';
import { type Client, editorWith } from '../../system/testing.ts';
import { type Api, apiAs } from '../../things/testing.ts';
import { EXAMPLE } from './testing.ts';

/** Local midnight of a date in Asia/Shanghai (UTC+8, no DST). */
const midnight = (date: string) => Date.parse(`${date}T00:00:00+08:00`);
const daysIn = (month: string) =>
  new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)), 0)).getUTCDate();
const MONTHS = [...EXAMPLE.baseline.months, ...EXAMPLE.reporting.months];
const OUTPUT = [...EXAMPLE.baseline.output, ...EXAMPLE.reporting.output];
const HDD = [...EXAMPLE.baseline.hdd, ...EXAMPLE.reporting.hdd];
const ENERGY = [...EXAMPLE.baseline.energy, ...EXAMPLE.reporting.energy];

describe.each(dialects())('EnPI API on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let en: Api;
  let editor: Client;
  let plant: Plant;
  const ok = async (res: Promise<{ status: number; body: { data: unknown } }>) => {
    const r = await res;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the body holds
    return r.body.data as any;
  };
  const meter = () => plant.things[0]!;

  /** The worked example's definition: energy and output of meter 1, HDD from the pump's T. */
  const definition = (overrides: Partial<EnpiInput> = {}): EnpiInput => ({
    name: '一号车间单位产品电耗',
    energy: { resourceType: 'thing', resourceId: meter().id, metricIdentifier: 'EP' },
    output: {
      kind: 'metric',
      source: { resourceType: 'thing', resourceId: meter().id, metricIdentifier: 'PCS' },
    },
    outputUnit: '件',
    temperature: { thingId: plant.pump.id, metricIdentifier: 'T', heatingBase: 18, coolingBase: null },
    period: 'month',
    baselineStart: '2025-01-01',
    baselineEnd: '2025-12-31',
    variables: ['output', 'hdd'],
    ...overrides,
  });

  beforeAll(async () => {
    // The test clock stands at 2026-11-22 16:00 in the plant's zone; raw points are kept long
    // enough for the example's 2025.
    t = await buildTestApp(dialect, {
      env: {
        PLANT_TIMEZONE: 'Asia/Shanghai',
        RETENTION_RAW_DAYS: '800',
        RETENTION_MINUTE_DAYS: '900',
        RETENTION_HOUR_DAYS: '1000',
      },
    });
    const token = (await login(t.app)).token;
    api = apiAs(() => t.app, token);
    en = apiAs(() => t.app, token, { 'accept-language': 'en' });
    editor = (await editorWith(() => t.app, api, 'enpi-reader')).api;
    plant = await seedPlant(api, 2);
    await ok(
      api.post(`/api/thing/categories/${plant.categoryId}/abilities`, {
        identifier: 'PCS',
        name: '产量',
        unit: '件',
        cumulative: true,
      }),
    );

    // Each month's energy and pieces counted by a reading at its last instant, the next month's
    // midnight (a reading closes the interval that ends at it); one mean temperature a day whose
    // degree days below 18 ℃ add up to the month's HDD.
    const points: { thingId: number; metric: string; ts: number; value: number }[] = [
      { thingId: meter().id, metric: 'EP', ts: midnight(`${MONTHS[0]}-01`), value: 0 },
      { thingId: meter().id, metric: 'PCS', ts: midnight(`${MONTHS[0]}-01`), value: 0 },
    ];
    let energy = 0;
    let pieces = 0;
    MONTHS.forEach((month, i) => {
      energy += ENERGY[i] as number;
      pieces += OUTPUT[i] as number;
      const first = midnight(`${month}-01`);
      const next = first + daysIn(month) * 86_400_000;
      points.push({ thingId: meter().id, metric: 'EP', ts: next, value: energy });
      points.push({ thingId: meter().id, metric: 'PCS', ts: next, value: pieces });
      const days = daysIn(month);
      for (let d = 0; d < days; d++) {
        points.push({
          thingId: plant.pump.id,
          metric: 'T',
          ts: first + d * 86_400_000 + 12 * 3_600_000,
          value: 18 - (HDD[i] as number) / days,
        });
      }
    });
    await t.app.telemetry.write(points);
  });
  afterAll(async () => {
    await t.close();
  });

  const report = async (id: number, q = '?to=2026-03-31'): Promise<EnpiReport> =>
    ok(api.get(`/api/enpi/${id}/report${q}`));

  const expectExample = (r: EnpiReport) => {
    expect(r.model).not.toBeNull();
    const m = r.model!;
    expect(m.n).toBe(12);
    expect(m.variables).toEqual(['output', 'hdd']);
    expect(m.intercept).toBeCloseTo(EXAMPLE.model.intercept, 2);
    expect(m.coefficients[0]).toBeCloseTo(EXAMPLE.model.coefficients[0], 6);
    expect(m.coefficients[1]).toBeCloseTo(EXAMPLE.model.coefficients[1], 5);
    expect(m.r2).toBeCloseTo(EXAMPLE.model.r2, 6);
    expect(m.cvrmse).toBeCloseTo(EXAMPLE.model.cvrmse, 6);
    expect(m.adequate).toBe(true);
    expect(m.r2Min).toBe(0.75);
    expect(m.cvrmseMax).toBe(0.15);
    expect(r.periods.map((p) => p.label)).toEqual(MONTHS);
    r.periods.forEach((p, i) => {
      expect(p.energy).toBeCloseTo(ENERGY[i] as number, 6);
      expect(p.output).toBeCloseTo(OUTPUT[i] as number, 6);
      expect(p.hdd).toBeCloseTo(HDD[i] as number, 6);
      expect(p.enpi).toBeCloseTo((ENERGY[i] as number) / (OUTPUT[i] as number), 9);
      expect(p.inBaseline).toBe(i < 12);
    });
    const after = r.periods.slice(12);
    after.forEach((p, i) => {
      expect(p.expected).toBeCloseTo(EXAMPLE.expected[i] as number, 2);
      expect(p.savings).toBeCloseTo(EXAMPLE.savings[i] as number, 2);
      expect(p.cusum).toBeCloseTo(EXAMPLE.cusum[i] as number, 2);
    });
    expect(r.periods[0]?.cusum).toBeNull();
    expect(r.totals.savings).toBeCloseTo(EXAMPLE.cusum[2], 2);
    expect(r.energyUnit).toBe('kWh');
  };

  it('reproduces the worked example with output from a production counter', async () => {
    const enpi = await ok(api.post('/api/enpi', definition()));
    expect(enpi.id).toBeGreaterThan(0);
    expectExample(await report(enpi.id));
    expect((await ok(api.get('/api/enpi'))).map((e: { name: string }) => e.name)).toContain(enpi.name);
    // Everyone reads; writing needs /analysis/enpi.
    expect((await editor.get(`/api/enpi/${enpi.id}/report?to=2026-03-31`)).status).toBe(200);
    expect((await editor.post('/api/enpi', definition({ name: 'x' }))).status).toBe(403);
  });

  it('gives the same numbers from entered outputs, and says why a period has no EnPI', async () => {
    const enpi = await ok(
      api.post('/api/enpi', definition({ name: '手工录入产量', output: { kind: 'entered' } })),
    );
    for (const [i, month] of MONTHS.entries()) {
      await ok(api.put(`/api/enpi/${enpi.id}/outputs/${month}-01`, { value: OUTPUT[i] }));
    }
    expect(await ok(api.get(`/api/enpi/${enpi.id}/outputs`))).toHaveLength(15);
    expectExample(await report(enpi.id));

    // Output 0: no EnPI (never a division by zero), the model still expects energy for it.
    await ok(api.put(`/api/enpi/${enpi.id}/outputs/2026-03-01`, { value: 0 }));
    let r = await report(enpi.id);
    const march = r.periods.find((p) => p.label === '2026-03')!;
    expect(march.enpi).toBeNull();
    expect(march.gap).toBe('zeroOutput');
    expect(march.expected).toBeCloseTo(EXAMPLE.model.intercept + EXAMPLE.model.coefficients[1] * 260, 1);
    // No output entered: noOutput; no energy: noEnergy.
    await ok(api.del(`/api/enpi/${enpi.id}/outputs/2026-03-01`));
    r = await report(enpi.id, '?to=2026-04-30');
    expect(r.periods.find((p) => p.label === '2026-03')?.gap).toBe('noOutput');
    expect(r.periods.find((p) => p.label === '2026-04')?.gap).toBe('noEnergy');

    // An entry must start a period, and a metered EnPI takes none.
    const bad = await en.put(`/api/enpi/${enpi.id}/outputs/2026-03-15`, { value: 1 });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('2026-03-15 does not start a period (that period starts on 2026-03-01)');
    const metered = (await ok(api.get('/api/enpi')))[0];
    expect((await api.put(`/api/enpi/${metered.id}/outputs/2026-03-01`, { value: 1 })).status).toBe(422);
    expect((await api.put(`/api/enpi/${enpi.id}/outputs/2026-03-01`, { value: -1 })).status).toBe(400);
  });

  it('refuses a baseline with too few points, in the caller language, and keeps the EnPI', async () => {
    const enpi = await ok(
      api.post('/api/enpi', definition({ name: '三个月基准', baselineEnd: '2025-03-31' })),
    );
    const r: EnpiReport = await ok(en.get(`/api/enpi/${enpi.id}/report?to=2025-06-30`));
    expect(r.model).toBeNull();
    expect(r.modelError).toEqual({
      code: 'tooFewPoints',
      message: 'The baseline has 3 complete data points; the regression needs at least 5',
    });
    expect(r.periods).toHaveLength(6);
    expect(r.periods[3]?.enpi).toBeCloseTo(145800 / 11000, 9);
    expect(r.periods[3]?.expected).toBeNull();

    // A variable that never varies over the baseline (no cooling degree days in 2025 at 30 ℃).
    const flat = await ok(
      api.post(
        '/api/enpi',
        definition({
          name: '制冷度日',
          temperature: { thingId: plant.pump.id, metricIdentifier: 'T', heatingBase: 18, coolingBase: 30 },
          variables: ['output', 'cdd'],
        }),
      ),
    );
    expect((await report(flat.id)).modelError?.code).toBe('singular');
  });

  it("lists a source's numeric abilities with their names and units for the metric picker", async () => {
    const region = await ok(api.post('/api/regions', { name: '能源车间' }));
    await ok(api.post(`/api/regions/${region.id}/bindings`, { thingIds: plant.things.map((x) => x.id) }));
    const abilities = await ok(api.get(`/api/enpi/abilities?resourceType=region&resourceId=${region.id}`));
    // 运转状态, 合闸 and 固件版本 are not numbers: nothing to sum or regress.
    expect(abilities).toEqual([
      { identifier: 'PCS', name: '产量', unit: '件', cumulative: true, things: 2 },
      { identifier: 'EP', name: '有功电能', unit: 'kWh', cumulative: true, things: 2 },
      { identifier: 'P', name: '有功功率', unit: 'kW', cumulative: false, things: 2 },
    ]);
    const pump = await ok(api.get(`/api/enpi/abilities?resourceType=thing&resourceId=${plant.pump.id}`));
    expect(pump.map((a: { identifier: string }) => a.identifier).sort()).toEqual(['P', 'T']);
    expect((await api.get('/api/enpi/abilities?resourceType=region&resourceId=99999')).status).toBe(404);
  });

  it('validates definitions', async () => {
    const notCounter = await en.post(
      '/api/enpi',
      definition({
        name: 'p',
        energy: { resourceType: 'thing', resourceId: meter().id, metricIdentifier: 'P' },
      }),
    );
    expect(notCounter.status).toBe(422);
    expect(notCounter.body.message).toContain('is not a cumulative counter');
    const noTemp = await api.post('/api/enpi', definition({ name: 'q', temperature: null }));
    expect(noTemp.status).toBe(422);
    const order = await api.post(
      '/api/enpi',
      definition({ name: 'r', baselineStart: '2025-12-31', baselineEnd: '2025-01-01' }),
    );
    expect(order.status).toBe(422);
    const missing = await api.post(
      '/api/enpi',
      definition({
        name: 's',
        energy: { resourceType: 'thing', resourceId: meter().id, metricIdentifier: 'NOPE' },
      }),
    );
    expect(missing.status).toBe(422);
    const first = (await ok(api.get('/api/enpi')))[0];
    const badDate = await en.get(`/api/enpi/${first.id}/report?to=2026-02-30`);
    expect(badDate.status).toBe(422);
    expect(badDate.body.message).toBe('Date 2026-02-30 is not valid (YYYY-MM-DD)');
    expect((await api.get(`/api/enpi/${first.id}/report?from=2026-03-01&to=2026-02-01`)).status).toBe(422);
    const taken = await en.post('/api/enpi', definition());
    expect(taken.status).toBe(409);
    expect((await api.post('/api/enpi', definition({ name: 'v', variables: [] }))).status).toBe(400);

    const region = (await ok(api.post('/api/regions', { name: '一号车间' }))).id;
    await ok(api.post(`/api/regions/${region}/bindings`, { thingIds: [meter().id] }));
    const byRegion = await ok(
      api.post(
        '/api/enpi',
        definition({
          name: '区域',
          energy: { resourceType: 'region', resourceId: region, metricIdentifier: 'EP' },
        }),
      ),
    );
    expect((await report(byRegion.id)).model?.n).toBe(12);

    const changed = await ok(
      api.put(`/api/enpi/${byRegion.id}`, { ...definition({ name: '区域二' }), period: 'week' }),
    );
    expect(changed.period).toBe('week');
    await ok(api.del(`/api/enpi/${byRegion.id}`));
    expect((await api.get(`/api/enpi/${byRegion.id}`)).status).toBe(404);
    expect((await api.del(`/api/enpi/${byRegion.id}`)).status).toBe(404);
  });
});
