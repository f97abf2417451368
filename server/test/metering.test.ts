/**
 * The worked examples of docs/metering.md, number by number through the API (statistics, TPFC,
 * the bill's energy lines), on both dialects: a reading stamped on an edge closes the interval
 * that ends there.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { type Plant, seedPlant } from '../src/ingest/testing.ts';
import { exampleTariff } from '../src/modules/energy/tariffs/testing.ts';
import { type Api, apiAs } from '../src/modules/things/testing.ts';
import { ADMIN_PASSWORD, buildTestApp, dialects, login, type TestApp } from './helpers.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
/** Local midnight of a date in Asia/Shanghai (UTC+8, no DST). */
const midnight = (date: string) => Date.parse(`${date}T00:00:00+08:00`);

/** Readings every `step` from `from` to `to` inclusive, the register rising by `energy(t)` in the step ending at t. */
function readings(
  thingId: number,
  from: number,
  to: number,
  step: number,
  start: number,
  energy: (stepStart: number) => number,
  skip: (t: number) => boolean = () => false,
) {
  const out: { thingId: number; metric: string; ts: number; value: number }[] = [];
  let value = start;
  for (let t = from; t <= to; t += step) {
    if (t > from) value += energy(t - step);
    if (!skip(t)) out.push({ thingId, metric: 'EP', ts: t, value });
  }
  return out;
}

/** Hour of the day (0–23) in Asia/Shanghai. */
const hourOf = (t: number) => new Date(t + 8 * HOUR).getUTCHours();

describe.each(dialects())('the worked examples of docs/metering.md on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let plant: Plant;
  let tariffId: number;
  const ok = async (res: Promise<{ status: number; body: { data: unknown } }>) => {
    const r = await res;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the body holds
    return r.body.data as any;
  };
  const thing = (k: number) => (plant.things[k] as { id: number }).id;
  const statistics = (k: number, body: Record<string, unknown>) =>
    ok(
      api.post('/api/statistics/range', {
        resourceType: 'thing',
        resourceIds: [thing(k)],
        metricIdentifier: 'EP',
        ...body,
      }),
    );

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { PLANT_TIMEZONE: 'Asia/Shanghai' } });
    api = apiAs(() => t.app, (await login(t.app)).token);
    plant = await seedPlant(api, 4);
    tariffId = (await ok(api.post('/api/tariffs', exampleTariff()))).tariff.id;

    // 1. A day of 1-minute readings, 14 October: 1 kWh a minute 00–08, 2 to 10, 3 to 12, 2 to 17,
    //    1.5 to 22, 0.5 to 24; the register reads 10 000 at 00:00.
    const perMinute = (s: number) => {
      const h = hourOf(s);
      return h < 8 ? 1 : h < 10 ? 2 : h < 12 ? 3 : h < 17 ? 2 : h < 22 ? 1.5 : 0.5;
    };
    // 2. October of 15-minute readings: 10 kWh a quarter hour in the valley, 20 flat, 40 tip, 30 peak.
    const perQuarter = (s: number) => {
      const h = hourOf(s);
      return h < 8 || h >= 22 ? 10 : h < 10 || h >= 17 ? 20 : h < 12 ? 40 : 30;
    };
    // 3. 10-minute readings on 20 October, 5 kWh each; the meter is replaced at 11:55: the old one
    //    last read 5 355 at 11:50, the new one counts from 0 and reads 2.5 at 12:00.
    const replaced = readings(
      thing(2),
      midnight('2026-10-20'),
      midnight('2026-10-20') + 11 * HOUR + 50 * MIN,
      10 * MIN,
      5000,
      () => 5,
    );
    replaced.push(
      ...readings(
        thing(2),
        midnight('2026-10-20') + 12 * HOUR,
        midnight('2026-10-21'),
        10 * MIN,
        2.5,
        () => 5,
      ),
    );
    // 4. 15-minute readings of 20 kWh on 21 and 22 October, none after 22:30 on the 21st until 01:30.
    const gapFrom = midnight('2026-10-21') + 22 * HOUR + 30 * MIN;
    const gapTo = midnight('2026-10-22') + HOUR + 30 * MIN;
    await t.app.telemetry.write([
      ...readings(thing(0), midnight('2026-10-14'), midnight('2026-10-15'), MIN, 10_000, perMinute),
      ...readings(thing(1), midnight('2026-10-01'), midnight('2026-11-01'), 15 * MIN, 0, perQuarter),
      ...replaced,
      ...readings(
        thing(3),
        midnight('2026-10-21'),
        midnight('2026-10-23'),
        15 * MIN,
        800,
        () => 20,
        (x) => x > gapFrom && x < gapTo,
      ),
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('1. a day of 1-minute readings: hours, the day and its tariff bands', async () => {
    const day = await statistics(0, { period: 'day', startTime: midnight('2026-10-14') });
    const hours = [
      ...Array(8).fill(60),
      120,
      120,
      180,
      180,
      ...Array(5).fill(120),
      ...Array(5).fill(90),
      30,
      30,
    ];
    expect(day.series[0].values).toEqual(hours);
    expect(day.series[0].total).toBe(2190);
    const tpfc = await ok(
      api.post('/api/statistics/range/TPFC', {
        tariffId,
        targets: [{ resourceType: 'thing', resourceId: thing(0) }],
        period: 'day',
        startTime: midnight('2026-10-14'),
      }),
    );
    expect(tpfc.rows[0].total).toMatchObject({
      energy: { tip: 360, peak: 600, flat: 690, valley: 540 },
      cost: { tip: 432, peak: 600, flat: 414, valley: 162 },
      totalEnergy: 2190,
      totalCost: 1608,
    });
  });

  it('2. a month of 15-minute readings: days, the bill energy lines and the TPFC', async () => {
    const month = await statistics(1, { period: 'month', startTime: midnight('2026-10-01') });
    expect(month.series[0].values).toEqual(Array(31).fill(1880));
    expect(month.series[0].total).toBe(58_280);
    const bill = await ok(
      api.post('/api/tariffs/bill', {
        tariffId,
        resourceType: 'thing',
        resourceId: thing(1),
        month: '2026-10',
      }),
    );
    expect(Object.fromEntries(bill.energy.map((l: { band: string }) => [l.band, l]))).toEqual({
      tip: { band: 'tip', energy: 9920, price: 1.2, cost: 11_904 },
      peak: { band: 'peak', energy: 18_600, price: 1, cost: 18_600 },
      flat: { band: 'flat', energy: 17_360, price: 0.6, cost: 10_416 },
      valley: { band: 'valley', energy: 12_400, price: 0.3, cost: 3720 },
    });
    expect(bill.energyKwh).toBe(58_280);
    expect(bill.energyCost).toBe(44_640);
    const tpfc = await ok(
      api.post('/api/statistics/range/TPFC', {
        tariffId,
        targets: [{ resourceType: 'thing', resourceId: thing(1) }],
        period: 'month',
        startTime: midnight('2026-10-01'),
      }),
    );
    expect(tpfc.rows[0].buckets[13]).toMatchObject({
      label: '10-14',
      energy: { tip: 320, peak: 600, flat: 560, valley: 400 },
      totalEnergy: 1880,
    });
    expect(tpfc.rows[0].total.totalCost).toBe(44_640);
  });

  it('3. a meter replaced mid-day: the new meter counts from 0, nothing negative', async () => {
    const day = await statistics(2, { period: 'day', startTime: midnight('2026-10-20') });
    expect(day.series[0].values).toEqual([...Array(11).fill(30), 27.5, ...Array(12).fill(30)]);
    expect(day.series[0].total).toBe(717.5);
  });

  it('4. a gap across midnight: the reading that ends it carries its energy', async () => {
    const hours = await statistics(3, {
      period: 'day',
      startTime: midnight('2026-10-21'),
      endTime: midnight('2026-10-23'),
      groupByTime: 'hour',
    });
    const values = hours.series[0].values as (number | null)[];
    expect(values.slice(20, 24)).toEqual([80, 80, 40, null]);
    expect(values.slice(24, 27)).toEqual([null, 280, 80]);
    expect(hours.series[0].total).toBe(192 * 20);
    const days = await statistics(3, {
      period: 'month',
      startTime: midnight('2026-10-21'),
      endTime: midnight('2026-10-23'),
      groupByTime: 'day',
    });
    expect(days.series[0].values).toEqual([1800, 2040]);
  });
});

describe('opening a data folder written before the convention', () => {
  it('logs one line saying which rollups were recomputed, and not again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kw-metering-'));
    try {
      const gz = readFileSync(new URL('../src/telemetry/fixtures/old-convention.duckdb.gz', import.meta.url));
      writeFileSync(join(dataDir, 'telemetry.duckdb'), gunzipSync(gz));
      const start = async () => {
        const lines: string[] = [];
        const logStream = new Writable({
          write(chunk, _encoding, done) {
            lines.push(String(chunk));
            done();
          },
        });
        const config = loadConfig({
          DATA_DIR: dataDir,
          LOG_LEVEL: 'info',
          ADMIN_PASSWORD,
          MQTT_PORT: '0',
          WEB_DIST: join(dataDir, 'no-web-build'),
          PLANT_TIMEZONE: 'Europe/Berlin',
        });
        const app = await buildApp(config, { now: () => Date.parse('2026-03-31T12:00:00Z'), logStream });
        await app.close();
        return lines.filter((l) => l.includes('interval-ending counters')).map((l) => JSON.parse(l));
      };
      const first = await start();
      expect(first).toHaveLength(1);
      expect(first[0].rowsWithEdgeReading).toMatchObject({
        hour: expect.any(Number),
        day: expect.any(Number),
      });
      expect(first[0].rowsWithEdgeReading.minute).toBeGreaterThan(4000);
      expect(await start()).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
