import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, dialects, login, type TestApp } from '../../../../test/helpers.ts';
import { backfill, type DemoServices, loadPlant, seedPlant } from '../../../demo/index.ts';
import { PlantGenerator } from '../../../simulator/index.ts';
import { exampleTariff } from '../tariffs/testing.ts';

const ZONE = 'Asia/Shanghai';
const OCT = Date.parse('2026-10-01T00:00:00+08:00');
const NOV = Date.parse('2026-11-01T00:00:00+08:00');

/** The demo plant's bill has a power-factor line: its meters count reactive energy (EQ). */
describe.each(dialects())('the demo plant’s bill (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { PLANT_TIMEZONE: ZONE } });
  });
  afterAll(() => t?.close());

  it('adjusts the bill by the power factor of a backfilled demo meter', async () => {
    const { things, regions, metricConfigs, alarms, diagrams, dashboard } = t.app.services;
    const services: DemoServices = {
      things,
      regions,
      saveConfigs: (patch) => metricConfigs.saveConfigs(patch),
      alarms,
      diagrams,
      dashboard,
    };
    await seedPlant(services, { things: 50 });
    const meter = (await loadPlant(things)).find((x) => x.kind === 'meter');
    expect(meter).toBeDefined();
    // A month of the meter's history, every 5 minutes (the counters are closed-form: any step).
    await backfill({
      store: t.app.telemetry,
      things: [meter!],
      generator: new PlantGenerator({ timeZone: ZONE }),
      start: OCT - 5 * 60_000,
      end: NOV + 5 * 60_000,
      stepMs: 5 * 60_000,
    });

    const { token } = await login(t.app);
    const post = async (url: string, payload: object) => {
      const res = await t.app.inject({ method: 'POST', url, headers: bearer(token), payload });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };
    const { tariff } = await post('/api/tariffs', exampleTariff());
    const bill = await post('/api/tariffs/bill', {
      tariffId: tariff.id,
      resourceType: 'thing',
      resourceId: meter!.id,
      month: '2026-10',
    });
    const pf = bill.powerFactor;
    expect(pf.note).toBeNull();
    expect(pf.reactiveKvarh).toBeGreaterThan(0);
    expect(pf.cosPhi).toBeGreaterThanOrEqual(0.85);
    expect(pf.cosPhi).toBeLessThanOrEqual(0.95);
    // Against the 0.90 target of the example tariff, a real adjustment (the 1983 table's step).
    expect(pf.percent).not.toBe(0);
    expect(pf.cost).toBeCloseTo((pf.base * pf.percent) / 100, 2);
    expect(pf.cost).not.toBe(0);
  });
});
