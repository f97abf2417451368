import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../../test/helpers.ts';
import { type Plant, seedPlant } from '../../../ingest/testing.ts';
import { type Api, apiAs } from '../../things/testing.ts';
import { demandPeakReadings, exampleTariff, exampleVersion } from '../tariffs/testing.ts';

const MIN = 60_000;
const at = (local: string) => Date.parse(`${local}+08:00`);

/**
 * The worked example "1-minute readings of a demand peak" of docs/tariffs.md, number by number
 * through the bill API: 300 kW over the clock's 10:00–10:15 (not 288 kW at 10:15), and in slip mode
 * the 330 kW of 15:05–15:20 that no clock quarter hour holds whole.
 */
describe.each(dialects())('maximum demand from 1-minute readings on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let plant: Plant;
  const ok = async (res: Promise<{ status: number; body: { data: unknown } }>) => {
    const r = await res;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the body holds
    return r.body.data as any;
  };

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { PLANT_TIMEZONE: 'Asia/Shanghai' } });
    api = apiAs(() => t.app, (await login(t.app)).token);
    plant = await seedPlant(api, 1);
    await t.app.telemetry.write(demandPeakReadings(plant.things[0]!.id, 'EP'));
  });
  afterAll(() => t?.close());

  const bill = async (window: 'fixed' | 'sliding' | undefined, name: string) => {
    const input = exampleTariff();
    input.name = name;
    input.version = exampleVersion('2026-01-01', {
      demand: { kind: 'demand', pricePerKw: 40, ...(window ? { window } : {}) },
    });
    const { tariff } = await ok(api.post('/api/tariffs', input));
    return ok(
      api.post('/api/tariffs/bill', {
        tariffId: tariff.id,
        resourceType: 'thing',
        resourceId: plant.things[0]!.id,
        month: '2026-10',
      }),
    );
  };

  it('fixed windows: 75 kWh in 10:00–10:15 on the 14th, 300 kW, the window named by its start', async () => {
    const { demand } = await bill(undefined, '需量 固定窗');
    expect(demand).toEqual({
      kind: 'demand',
      quantity: 300,
      window: 'fixed',
      at: at('2026-10-14T10:00:00'),
      end: at('2026-10-14T10:15:00'),
      price: 40,
      cost: 12000,
    });
  });

  it('slip mode: 82.5 kWh in 15:05–15:20 on the 20th, 330 kW', async () => {
    const { demand } = await bill('sliding', '需量 滑差');
    expect(demand).toEqual({
      kind: 'demand',
      quantity: 330,
      window: 'sliding',
      at: at('2026-10-20T15:05:00'),
      end: at('2026-10-20T15:20:00'),
      price: 40,
      cost: 13200,
    });
    // The tariff keeps its mode, and a demand charge written without one is stored as fixed.
    const tariffs = await ok(api.get('/api/tariffs'));
    expect(tariffs.map((x: { versions: { demand: unknown }[] }) => x.versions[0]?.demand)).toEqual([
      { kind: 'demand', pricePerKw: 40, window: 'fixed' },
      { kind: 'demand', pricePerKw: 40, window: 'sliding' },
    ]);
  });
});

describe('the example readings', () => {
  it('are 1-minute register readings: 2 kWh a minute, 5 in the first peak, 5.5 in the second', () => {
    const points = demandPeakReadings(1, 'EP');
    const rise = (from: string, to: string) =>
      (points.find((p) => p.ts === at(to))?.value as number) -
      (points.find((p) => p.ts === at(from))?.value as number);
    expect(points.every((p, i) => i === 0 || p.ts - (points[i - 1]?.ts as number) >= MIN)).toBe(true);
    expect(rise('2026-10-14T09:59:00', '2026-10-14T10:00:00')).toBe(2);
    expect(rise('2026-10-14T10:00:00', '2026-10-14T10:15:00')).toBe(75);
    expect(rise('2026-10-20T15:00:00', '2026-10-20T15:15:00')).toBe(65);
    expect(rise('2026-10-20T15:05:00', '2026-10-20T15:20:00')).toBe(82.5);
    // The table of docs/tariffs.md.
    const e = (local: string) => points.find((p) => p.ts === at(local))?.value;
    expect(
      ['09:59', '10:00', '10:01', '10:14', '10:15', '10:16', '11:00'].map((m) => e(`2026-10-14T${m}:00`)),
    ).toEqual([1118, 1120, 1125, 1190, 1195, 1197, 1285]);
    expect(e('2026-10-20T15:00:00')).toBe(1285);
  });
});
