import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../test/helpers.ts';
import { type Plant, seedPlant } from '../../ingest/testing.ts';
import { type Api, apiAs } from '../things/testing.ts';

const HOUR = 3_600_000;
/** `YYYY-MM-DD HH:mm` in the plant's zone (Asia/Shanghai, UTC+8). */
const sh = (text: string) => Date.parse(`${text.replace(' ', 'T')}:00+08:00`);

describe.each(dialects())('query comparisons and automatic buckets on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let english: Api;
  let plant: Plant;
  const meter = () => plant.things[0]!;
  const data = async (query: Record<string, unknown>) => {
    const res = await api.post('/api/query/data', {
      resourceType: 'thing',
      resourceId: meter().id,
      metricIdentifier: 'P',
      ...query,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { PLANT_TIMEZONE: 'Asia/Shanghai' } });
    const { token } = await login(t.app);
    api = apiAs(() => t.app, token);
    english = apiAs(() => t.app, token, { 'accept-language': 'en' });
    plant = await seedPlant(api, 1);
    const at = (ts: number, value: number) => ({ thingId: meter().id, metric: 'P', ts, value });
    await t.app.telemetry.write([
      at(sh('2026-10-03 09:10'), 3),
      at(sh('2026-11-03 09:10'), 30),
      at(sh('2026-11-20 09:10'), 5),
      at(sh('2026-11-21 09:10'), 10),
      at(sh('2026-11-21 09:40'), 20),
    ]);
  });
  afterAll(async () => {
    await t.close();
  });

  it('yesterday: the day before on the same hour buckets, keyed on the day shown', async () => {
    const answer = await data({
      period: 'day',
      groupByTime: 'hour',
      startTime: sh('2026-11-21 12:00'),
      compare: { shift: { amount: -24, unit: 'hour' } },
    });
    expect(answer.bucket).toEqual({ groupByTime: 'hour', groupByInterval: 1 });
    expect(answer.result).toHaveLength(24);
    expect(answer.result[9]).toMatchObject({ key: sh('2026-11-21 09:00'), value: 15 });
    expect(answer.compare).toMatchObject({
      startTime: sh('2026-11-20 00:00'),
      endTime: sh('2026-11-21 00:00'),
      shift: { amount: -24 * HOUR, unit: 'ms' },
    });
    expect(answer.compare.result).toHaveLength(24);
    expect(answer.compare.result[9]).toEqual({
      key: sh('2026-11-21 09:00'),
      at: sh('2026-11-20 09:00'),
      value: 5,
      group: '电表1',
      complete: true,
    });
  });

  it('month on month and a chosen base period: days of another month on this month’s axis', async () => {
    const month = {
      period: 'month',
      groupByTime: 'day',
      startTime: sh('2026-11-21 12:00'),
    };
    const mom = await data({ ...month, compare: { shift: { amount: -1, unit: 'month' } } });
    expect(answer3(mom)).toEqual({ key: sh('2026-11-03 00:00'), at: sh('2026-10-03 00:00'), value: 3 });
    // October has 31 days, November 30: October 31 has no counterpart.
    expect(mom.result).toHaveLength(30);
    expect(mom.compare.result).toHaveLength(30);
    const chosen = await data({ ...month, compare: { startTime: sh('2026-10-15 00:00') } });
    expect(chosen.compare.shift).toEqual({ amount: -1, unit: 'month' });
    expect(answer3(chosen)).toEqual(answer3(mom));
    // The base period may also be any range: day buckets move by whole local days.
    const base = await data({
      groupByTime: 'day',
      startTime: sh('2026-11-03 00:00'),
      endTime: sh('2026-11-04 00:00'),
      compare: { startTime: sh('2026-10-03 00:00') },
    });
    expect(base.result).toMatchObject([{ key: sh('2026-11-03 00:00'), value: 30 }]);
    expect(base.compare).toMatchObject({ shift: { amount: -31, unit: 'day' } });
    expect(base.compare.result).toMatchObject([{ key: sh('2026-11-03 00:00'), value: 3 }]);
  });

  it('raw points compare at the same distance from the start', async () => {
    const answer = await data({
      startTime: sh('2026-11-21 09:00'),
      endTime: sh('2026-11-21 10:00'),
      compare: { shift: { amount: -1, unit: 'day' } },
    });
    expect(answer.bucket).toBeUndefined();
    expect(answer.compare.result).toEqual([
      { key: sh('2026-11-21 09:10'), at: sh('2026-11-20 09:10'), value: 5, group: '电表1', complete: true },
    ]);
  });

  it('refuses a comparison with both a shift and a start, in the request’s language', async () => {
    const res = await english.post('/api/query/data', {
      resourceType: 'thing',
      resourceId: meter().id,
      metricIdentifier: 'P',
      compare: { shift: { amount: -1, unit: 'day' }, startTime: sh('2026-11-01 00:00') },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST' });
    expect(res.body.message).toContain('either a shift');
    const empty = await api.post('/api/query/data', {
      resourceType: 'thing',
      resourceId: meter().id,
      metricIdentifier: 'P',
      compare: {},
    });
    expect(empty.status).toBe(400);
  });

  it('refuses a shift beyond the years the calendar reads with a 400, whatever its unit', async () => {
    const cases = [
      [-100_000, 'year', 400],
      [100_000, 'year', 400],
      [-100_000, 'month', 400],
      [100_000, 'month', 400],
      [-100_000, 'week', 400],
      // 1,917 years on: year 3943, still on the calendar.
      [100_000, 'week', 200],
      [-100_000, 'day', 400],
      [-100_000, 'hour', 200],
    ] as const;
    for (const [amount, unit, status] of cases) {
      const res = await english.post('/api/query/data', {
        resourceType: 'thing',
        resourceId: meter().id,
        metricIdentifier: 'P',
        groupByTime: 'day',
        startTime: sh('2026-11-01 00:00'),
        endTime: sh('2026-11-03 00:00'),
        compare: { shift: { amount, unit } },
      });
      expect(res.status, `${amount} ${unit}: ${JSON.stringify(res.body)}`).toBe(status);
      if (status === 400) expect(res.body.message).toContain('outside the years');
    }
    const years = await api.post('/api/query/data', {
      resourceType: 'thing',
      resourceId: meter().id,
      metricIdentifier: 'P',
      groupByTime: 'day',
      startTime: sh('2026-11-01 00:00'),
      endTime: sh('2026-11-03 00:00'),
      compare: { shift: { amount: -100_000, unit: 'year' } },
    });
    expect(years.status).toBe(400);
    expect(years.body.message).toBe('对比期超出可查询的年份（1970–9999 年）：请缩小偏移');
  });

  it('automatic buckets: the server picks the width from the one table and says which', async () => {
    const answer = await data({
      groupByTime: 'auto',
      maxPoints: 2000,
      startTime: sh('2026-11-19 00:00'),
      endTime: sh('2026-11-22 00:00'),
    });
    expect(answer.bucket).toEqual({ groupByTime: 'minute', groupByInterval: 5 });
    expect(answer.result.find((p: { value: number | null }) => p.value !== null)).toMatchObject({
      key: sh('2026-11-20 09:10'),
      value: 5,
    });
  });
});

const answer3 = (answer: { compare: { result: { key: number; at: number; value: number | null }[] } }) => {
  const p = answer.compare.result[2]!;
  return { key: p.key, at: p.at, value: p.value };
};
