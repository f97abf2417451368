import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../../test/helpers.ts';
import { type Plant, seedPlant } from '../../../ingest/testing.ts';
import type { BucketQuery } from '../../../telemetry/index.ts';
import { type Api, apiAs } from '../../things/testing.ts';
import { createTariffService } from '../bills/service.ts';
import { counterPoints, EXAMPLE_DAY, exampleTariff, exampleVersion, quarterSeasons } from './testing.ts';

const MIN = 60_000;
const Q = 15 * MIN;
/** Local midnight of a date in Asia/Shanghai (UTC+8, no DST). */
const midnight = (date: string) => Date.parse(`${date}T00:00:00+08:00`);
const OCT = midnight('2026-10-01');

describe.each(dialects())('tariffs API on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let en: Api;
  let plant: Plant;
  let region: number;
  const m1 = () => plant.things[0]!;
  const m2 = () => plant.things[1]!;
  const ok = async (res: Promise<{ status: number; body: { data: unknown } }>) => {
    const r = await res;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the body holds
    return r.body.data as any;
  };

  beforeAll(async () => {
    // The test clock stands at 2026-11-22 16:00 in the plant's zone.
    t = await buildTestApp(dialect, { env: { PLANT_TIMEZONE: 'Asia/Shanghai' } });
    const token = (await login(t.app)).token;
    api = apiAs(() => t.app, token);
    en = apiAs(() => t.app, token, { 'accept-language': 'en' });
    plant = await seedPlant(api, 2);
    await ok(
      api.post(`/api/thing/categories/${plant.categoryId}/abilities`, {
        identifier: 'EQ',
        name: '无功电能',
        unit: 'kvarh',
        cumulative: true,
      }),
    );
    region = (await ok(api.post('/api/regions', { name: '总配电室' }))).id;
    await ok(api.post(`/api/regions/${region}/bindings`, { thingIds: [m1().id, m2().id] }));

    // The worked example (docs/tariffs.md): meter 1 draws 100 kW all October (25 kWh a quarter
    // hour), 250 kW in the quarter hour from 14:00 on the 14th; 48 000 kvarh in the month. Its
    // readings are interval-ending as a meter stamps them: the one at 00:00 on the 1st opens the
    // month and the one stamped 14:15 closes 14:00–14:15 (docs/telemetry-store.md).
    const spike = (midnight('2026-10-14') + 14 * 60 * MIN - OCT) / Q;
    const quarters = 31 * 96;
    await t.app.telemetry.write([
      ...counterPoints(m1().id, 'EP', OCT, Q, quarters, (k) => (k === spike ? 62.5 : 25)),
      // The reactive register read twice: the reading ending the gap, at 00:00 on 1 November,
      // closes October's last quarter hour and brings the month's 48 000 kvarh with it.
      ...counterPoints(m1().id, 'EQ', OCT, quarters * Q, 1, () => 48_000),
    ]);
    // Meter 2 on the 14th and 15th: 10 kWh a quarter hour in the valley, 20 flat, 30 peak, 40 tip.
    const perBand: Record<string, number> = { valley: 10, flat: 20, peak: 30, tip: 40 };
    const bandAt = (minute: number) =>
      EXAMPLE_DAY.find((s) => minute >= toMinute(s.from) && minute < toMinute(s.to))?.band as string;
    await t.app.telemetry.write(
      counterPoints(
        m2().id,
        'EP',
        midnight('2026-10-14'),
        Q,
        2 * 96,
        (k) => perBand[bandAt((k % 96) * 15)] as number,
      ),
    );
  });
  afterAll(async () => {
    await t.close();
  });

  const toMinute = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3));

  it('reproduces the worked example of docs/tariffs.md number by number', async () => {
    const tariff = (await ok(api.post('/api/tariffs', exampleTariff()))).tariff;
    const bill = await ok(
      api.post('/api/tariffs/bill', {
        tariffId: tariff.id,
        resourceType: 'thing',
        resourceId: m1().id,
        month: '2026-10',
      }),
    );
    const lines = Object.fromEntries(bill.energy.map((l: { band: string }) => [l.band, l]));
    expect(lines.tip).toEqual({ band: 'tip', energy: 6200, price: 1.2, cost: 7440 });
    expect(lines.peak).toEqual({ band: 'peak', energy: 15537.5, price: 1, cost: 15537.5 });
    expect(lines.flat).toEqual({ band: 'flat', energy: 21700, price: 0.6, cost: 13020 });
    expect(lines.valley).toEqual({ band: 'valley', energy: 31000, price: 0.3, cost: 9300 });
    expect(bill.energyKwh).toBe(74437.5);
    expect(bill.energyCost).toBe(45297.5);
    expect(bill.demand).toEqual({
      kind: 'demand',
      quantity: 250,
      window: 'fixed',
      at: midnight('2026-10-14') + 14 * 60 * MIN,
      end: midnight('2026-10-14') + 14 * 60 * MIN + Q,
      price: 40,
      cost: 10000,
    });
    expect(bill.powerFactor).toEqual({
      target: 0.9,
      activeKwh: 74437.5,
      reactiveKvarh: 48000,
      cosPhi: 0.84,
      percent: 3,
      base: 55297.5,
      cost: 1658.93,
      note: null,
    });
    expect(bill.total).toBe(56956.43);
    expect(bill.versions).toEqual([{ id: tariff.versions[0].id, validFrom: '2026-01-01' }]);
  });

  it("bills a region's coincident demand: its meters summed quarter hour by quarter hour", async () => {
    const tariff = (await ok(api.post('/api/tariffs', { ...exampleTariff(), name: '区域需量' }))).tariff;
    const bill = await ok(
      api.post('/api/tariffs/bill', {
        tariffId: tariff.id,
        resourceType: 'region',
        resourceId: region,
        month: '2026-10',
      }),
    );
    // 14:00 on the 14th: meter 1's 62.5 kWh plus meter 2's 30 (peak) = 92.5 kWh → 370 kW, not the
    // 250 + 160 kW of each meter's own maximum.
    expect(bill.demand).toMatchObject({
      kind: 'demand',
      quantity: 370,
      at: midnight('2026-10-14') + 14 * 60 * MIN,
    });
    expect(bill.energyKwh).toBe(74437.5 + 2 * 1880);
    expect(bill.powerFactor.reactiveKvarh).toBe(48000);
  });

  it("reads a region's demand page by page as in one read: a page may end inside a meter's readings or between meters", async () => {
    const tariff = (await ok(api.post('/api/tariffs', { ...exampleTariff(), name: '分页需量' }))).tariff;
    const reads: number[] = [];
    const store = {
      buckets: t.app.telemetry.buckets.bind(t.app.telemetry),
      bucketColumns: t.app.telemetry.bucketColumns.bind(t.app.telemetry),
      pointColumns: async (...args: Parameters<typeof t.app.telemetry.pointColumns>) => {
        const page = await t.app.telemetry.pointColumns(...args);
        reads.push(page.ts.length);
        return page;
      },
    };
    const deps = {
      db: t.app.db.db,
      catalog: t.app.services.catalog,
      store,
      calendar: t.app.services.calendar,
      now: Date.now,
    };
    const input = {
      tariffId: tariff.id,
      resourceType: 'region' as const,
      resourceId: region,
      month: '2026-10',
    };
    const whole = await createTariffService(deps).bill(input);
    expect(reads).toHaveLength(1);
    reads.length = 0;
    // Meter 1's 31 × 96 + 1 readings of October, then meter 2's 193 of the 14th and 15th.
    const paged = await createTariffService({ ...deps, pointsPerRead: 100 }).bill(input);
    expect(reads).toHaveLength(Math.floor((31 * 96 + 1 + 193) / 100) + 1);
    expect(paged).toEqual(whole);
    expect(paged.demand).toMatchObject({ quantity: 370, at: midnight('2026-10-14') + 14 * 60 * MIN });
  });

  it('bills a capacity charge, and says when there is no reactive counter', async () => {
    const input = exampleTariff();
    input.name = '容量电价';
    input.version = exampleVersion('2026-01-01', {
      demand: { kind: 'capacity', pricePerKva: 25, capacityKva: 400 },
    });
    const tariff = (await ok(api.post('/api/tariffs', input))).tariff;
    const bill = await ok(
      api.post('/api/tariffs/bill', {
        tariffId: tariff.id,
        resourceType: 'thing',
        resourceId: m1().id,
        month: '2026-10',
        reactiveMetric: 'P',
      }),
    );
    expect(bill.demand).toMatchObject({ kind: 'capacity', quantity: 400, price: 25, cost: 10000, at: null });
    expect(bill.powerFactor).toMatchObject({ note: 'noReactive', percent: 0, cost: 0, cosPhi: null });
    expect(bill.total).toBe(55297.5);
  });

  it('splits energy and cost at band edges, per hour of a day, for a meter and a region', async () => {
    const tariff = (await ok(api.post('/api/tariffs', { ...exampleTariff(), name: '分时' }))).tariff;
    const res = await ok(
      api.post('/api/statistics/range/TPFC', {
        tariffId: tariff.id,
        targets: [
          { resourceType: 'thing', resourceId: m2().id },
          { resourceType: 'region', resourceId: region },
        ],
        period: 'day',
        startTime: midnight('2026-10-15') + 5 * 60 * MIN,
      }),
    );
    expect(res.start).toBe(midnight('2026-10-15'));
    expect(res.rows.map((r: { name: string }) => r.name)).toEqual(['电表2', '总配电室']);
    const meter = res.rows[0];
    expect(meter.buckets).toHaveLength(24);
    const hour = (h: number) => meter.buckets[h];
    expect(hour(7).label).toBe('07:00');
    // 07:00 is all valley, 08:00 all flat: no quarter hour straddles the 08:00 edge.
    expect(hour(7).energy).toEqual({ tip: 0, peak: 0, flat: 0, valley: 40, deepValley: 0 });
    expect(hour(8).energy).toEqual({ tip: 0, peak: 0, flat: 80, valley: 0, deepValley: 0 });
    expect(hour(10).cost).toEqual({ tip: 192, peak: 0, flat: 0, valley: 0, deepValley: 0 });
    expect(meter.total.energy).toEqual({ tip: 320, peak: 600, flat: 560, valley: 400, deepValley: 0 });
    expect(meter.total.cost).toEqual({ tip: 384, peak: 600, flat: 336, valley: 120, deepValley: 0 });
    expect(meter.total.totalCost).toBe(1440);
    // The region adds meter 1's 100 kW: 24 h × 100 kWh more.
    expect(res.rows[1].total.totalEnergy).toBe(1880 + 2400);

    const split = await ok(
      api.post('/api/statistics/range/TPFC', {
        tariffId: tariff.id,
        targets: [{ resourceType: 'region', resourceId: region }],
        byThing: true,
        period: 'day',
        startTime: midnight('2026-10-15'),
      }),
    );
    expect(split.rows.map((r: { name: string }) => r.name)).toEqual(['电表1', '电表2']);
  });

  it('prices a quarter-hour tariff from hour rows and minute rows only where an edge cuts the hour: the same bill and TPFC as minute rows throughout', async () => {
    // QUARTER_DAY's edges at :15 and :45 cut hours 7, 10, 11, 14 and 21; meter 1's spike
    // (14:00–14:15 on the 14th) falls in a cut hour, on the peak side of the 14:15 edge.
    const seasons = quarterSeasons();
    const capacity = { kind: 'capacity' as const, pricePerKva: 25, capacityKva: 400 };
    const created = await Promise.all(
      [capacity, undefined].map(async (demand, i) => {
        const input = exampleTariff();
        input.name = `一刻钟${i}`;
        input.version = exampleVersion('2026-01-01', demand ? { seasons, demand } : { seasons });
        return (await ok(api.post('/api/tariffs', input))).tariff;
      }),
    );
    const { db } = t.app.db;
    /** Buckets finer than an hour the service asks of the store (series × buckets). */
    let fineBuckets = 0;
    const store = {
      buckets: (q: BucketQuery) => t.app.telemetry.buckets(q),
      pointColumns: t.app.telemetry.pointColumns.bind(t.app.telemetry),
      bucketColumns: (q: BucketQuery) => {
        if ('widthMs' in q.bucket && q.bucket.widthMs < 60 * MIN)
          fineBuckets +=
            q.series.length *
            (q.hours
              ? (q.hours.length * 60 * MIN) / q.bucket.widthMs
              : Math.ceil((q.end - q.start) / q.bucket.widthMs));
        return t.app.telemetry.bucketColumns(q);
      },
    };
    const deps = {
      db,
      catalog: t.app.services.catalog,
      store,
      calendar: t.app.services.calendar,
      now: Date.now,
    };
    const split = createTariffService(deps);
    const whole = createTariffService({ ...deps, wholeSlots: true });
    const target = { resourceType: 'region' as const, resourceId: region };
    for (const tariff of created) {
      const bill = { tariffId: tariff.id, ...target, month: '2026-10' };
      const tpfc = {
        tariffId: tariff.id,
        targets: [target],
        byThing: true,
        period: 'month' as const,
        startTime: OCT,
      };
      fineBuckets = 0;
      const [splitBill, splitTpfc] = [await split.bill(bill), await split.tpfc(tpfc)];
      const splitFine = fineBuckets;
      fineBuckets = 0;
      expect(await whole.bill(bill)).toEqual(splitBill);
      expect(await whole.tpfc(tpfc)).toEqual(splitTpfc);
      // The bill's coverage reads its first and last hour with a reading by minutes: 2 meters × 2 × 60.
      const coverage = 2 * 2 * 60;
      // Minute rows throughout: 2 meters × 31 days × 96 quarter hours, for the TPFC and the bill.
      expect(fineBuckets).toBe(2 * 2 * 31 * 96 + coverage);
      // Split: 5 cut hours a day for the TPFC and the bill (the bill's demand reads raw points).
      expect(splitFine).toBe(2 * 2 * 31 * 5 * 4 + coverage);
    }
    const bill = await split.bill({ tariffId: created[0].id, ...target, month: '2026-10' });
    const lines = Object.fromEntries(bill.energy.map((l) => [l.band, l.energy]));
    // Peak 11:45–14:15. Meter 1: 2.5 h × 100 kW × 31 days, and its spike's extra 37.5 kWh. Meter 2
    // (14th, 15th): the 11:45 quarter at 40 kWh (tip of its own shape), then 9 quarters at 30. The
    // spike's reading is stamped 14:15 and closes 14:00–14:15, so all of it is peak.
    // Flat 07:15–10:45 and 14:15–21:45: meter 1's 11 h × 100 kW × 31 days; meter 2's 3 valley,
    // 8 flat, 3 tip, 11 peak and 19 flat quarters of its own shape each day.
    expect(lines.peak).toBe(2.5 * 100 * 31 + 37.5 + 2 * (40 + 9 * 30));
    expect(lines.flat).toBe(11 * 100 * 31 + 2 * (3 * 10 + 8 * 20 + 3 * 40 + 11 * 30 + 19 * 20));
    expect(bill.energyKwh).toBe(74437.5 + 2 * 1880);
    expect(bill.demand).toMatchObject({ kind: 'capacity', cost: 10000 });
  });

  it('prices each day by its version: a change from the 15th, made retroactively and said so', async () => {
    const tariff = (await ok(api.post('/api/tariffs', { ...exampleTariff(), name: '调价' }))).tariff;
    const doubled = exampleVersion('2026-10-15', { prices: { tip: 2.4, peak: 2, flat: 1.2, valley: 0.6 } });
    // The 15th has passed: without `retroactive` the past's cost stays as it was.
    const refused = await en.post(`/api/tariffs/${tariff.id}/versions`, doubled);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain('2026-10-15 to 2026-11-22');
    const zh = await api.post(`/api/tariffs/${tariff.id}/versions`, doubled);
    expect(zh.body.message).toContain('追溯');

    const written = await ok(
      api.post(`/api/tariffs/${tariff.id}/versions`, { ...doubled, retroactive: true }),
    );
    expect(written.recomputed).toEqual({ from: '2026-10-15', to: '2026-11-22' });
    expect(written.tariff.versions.map((v: { validFrom: string }) => v.validFrom)).toEqual([
      '2026-01-01',
      '2026-10-15',
    ]);
    const month = await ok(
      api.post('/api/statistics/range/TPFC', {
        tariffId: tariff.id,
        targets: [{ resourceType: 'thing', resourceId: m2().id }],
        period: 'month',
        startTime: midnight('2026-10-20'),
      }),
    );
    const days = month.rows[0].buckets;
    expect(days).toHaveLength(31);
    expect(days[13].label).toBe('10-14');
    expect(days[13].totalCost).toBe(1440);
    expect(days[14].totalCost).toBe(2880);
    expect(month.rows[0].total.totalCost).toBe(4320);
    expect(month.versions.map((v: { validFrom: string }) => v.validFrom)).toEqual([
      '2026-01-01',
      '2026-10-15',
    ]);

    // A version in the future needs no confirmation; the same date twice is a conflict.
    const future = exampleVersion('2027-01-01');
    expect((await api.post(`/api/tariffs/${tariff.id}/versions`, future)).status).toBe(200);
    expect((await api.post(`/api/tariffs/${tariff.id}/versions`, future)).status).toBe(409);
  });

  it('validates bands and seasons with messages, protects started versions and the last one', async () => {
    const bad = exampleTariff();
    bad.version = exampleVersion('2026-01-01', {
      seasons: [
        {
          name: '全年',
          from: '01-01',
          to: '12-31',
          workday: [
            { band: 'valley', from: '00:00', to: '08:00' },
            { band: 'peak', from: '07:00', to: '24:00' },
          ],
          weekend: EXAMPLE_DAY,
          holiday: EXAMPLE_DAY,
        },
      ],
    });
    const overlap = await en.post('/api/tariffs', bad);
    expect(overlap.status).toBe(422);
    expect(overlap.body.message).toContain('overlap at 07:00');
    const es = await apiAs(() => t.app, (await login(t.app)).token, { 'accept-language': 'es' }).post(
      '/api/tariffs',
      bad,
    );
    expect(es.body.message).toContain('se solapan');

    const tariff = (await ok(api.post('/api/tariffs', { ...exampleTariff(), name: '保护' }))).tariff;
    const only = tariff.versions[0];
    expect((await api.del(`/api/tariffs/${tariff.id}/versions/${only.id}?retroactive=true`)).status).toBe(
      422,
    );
    const changed = { ...exampleVersion('2026-01-01'), prices: { tip: 9, peak: 9, flat: 9, valley: 9 } };
    expect((await api.put(`/api/tariffs/${tariff.id}/versions/${only.id}`, changed)).status).toBe(422);
    const fixed = await ok(
      api.put(`/api/tariffs/${tariff.id}/versions/${only.id}`, { ...changed, retroactive: true }),
    );
    expect(fixed.recomputed).toEqual({ from: '2026-01-01', to: '2026-11-22' });

    // A past holiday changes a past day's type: retroactive; a future one does not need it.
    const fields = { name: '保护', holidays: ['2026-10-01'], workdays: [], weekendDays: [6, 7] };
    expect((await api.put(`/api/tariffs/${tariff.id}`, fields)).status).toBe(422);
    expect(
      (await ok(api.put(`/api/tariffs/${tariff.id}`, { ...fields, retroactive: true }))).recomputed,
    ).toEqual({
      from: '2026-10-01',
      to: '2026-11-22',
    });
    const future = await ok(
      api.put(`/api/tariffs/${tariff.id}`, { ...fields, holidays: ['2026-10-01', '2027-01-01'] }),
    );
    expect(future.recomputed).toBeNull();
    expect(future.tariff.holidays).toEqual(['2026-10-01', '2027-01-01']);

    expect((await api.get(`/api/tariffs/${tariff.id}`)).status).toBe(200);
    expect((await api.del(`/api/tariffs/${tariff.id}`)).status).toBe(200);
    expect((await api.get(`/api/tariffs/${tariff.id}`)).status).toBe(404);
    const notCounter = await api.post('/api/tariffs/bill', {
      tariffId: (await ok(api.get('/api/tariffs')))[0].id,
      resourceType: 'thing',
      resourceId: plant.pump.id,
      month: '2026-10',
    });
    expect(notCounter.status).toBe(422);
  });
});
