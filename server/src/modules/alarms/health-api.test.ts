import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../test/helpers.ts';
import { type Api, apiAs } from '../things/testing.ts';
import type { AlarmStatus } from './engine/state.ts';
import * as repo from './repository/index.ts';
import { testStatus } from './testing.ts';

const H = 3_600_000;
/** The day reported on; the test clock stands at 2026-11-22T08:00Z, after it. */
const R0 = Date.parse('2026-11-21T00:00:00Z');
const R1 = R0 + 24 * H;

const status = testStatus;

const things = { X: [1, '空压机1'], Y: [2, '空压机2'], Z: [3, '变压器1'] } as const;
const rules = { A: [11, '排气温度高'], B: [12, '压力低'], C: [13, '过载'] } as const;

describe.each(dialects())('alarm system health (EEMUA 191) on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  const ids: Record<string, number> = {};

  /** One alarm of history, written as the engine writes it. */
  async function alarm(
    rule: keyof typeof rules,
    thing: keyof typeof things,
    alarmAt: number,
    change: Partial<AlarmStatus> & { returnedAt?: number | null } = {},
  ): Promise<number> {
    const { returnedAt = alarmAt + 60_000, ...s } = change;
    return repo.insertHistory(
      t.app.db.db,
      {
        monitorId: 1,
        ruleId: rules[rule][0],
        ruleName: rules[rule][1],
        templateName: '',
        thingId: things[thing][0],
        thingName: things[thing][1],
        resourceType: 'thing',
        resourceId: things[thing][0],
        resourceName: things[thing][1],
        severity: 'major',
        message: '',
        value: '1',
        alarmAt,
        returnedAt,
        status: status(s),
      },
      new Date(alarmAt).toISOString(),
    );
  }

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    api = apiAs(() => t.app, (await login(t.app)).token);
    // A flood: 12 alarms of A on X, 30 s apart, from 10:00.
    for (let i = 0; i < 12; i++) await alarm('A', 'X', R0 + 10 * H + i * 30_000);
    // B on Y three times, the first one chattering: 8 annunciations a minute apart from 02:00, its
    // raise and 7 re-raises grouped into it, as the engine records them.
    ids.chatterer = await alarm('B', 'Y', R0 + 2 * H, { chattering: true, occurrences: 8 });
    for (let i = 1; i < 8; i++)
      await repo.addAnnunciation(t.app.db.db, {
        historyId: ids.chatterer,
        ruleId: rules.B[0],
        thingId: things.Y[0],
        at: R0 + 2 * H + i * 60_000,
        suppressed: false,
      });
    await alarm('B', 'Y', R0 + 4 * H);
    await alarm('B', 'Y', R0 + 6 * H);
    // A on Y three times too: as many alarms as B on Y, fewer occurrences, so it ranks after it.
    for (const h of [3, 5, 7]) await alarm('A', 'Y', R0 + h * H);
    // Suppressed (raised in a maintenance window): counted apart.
    await alarm('C', 'X', R0 + 12 * H, { suppressed: true });
    await alarm('C', 'X', R0 + 13 * H, { suppressed: true });
    // Outside the range: just before it and at its (excluded) end.
    await alarm('A', 'Z', R0 - 1);
    await alarm('A', 'Z', R1);
    // Standing at the range's end: raised over 24 h before it and not ended by then.
    ids.stillActive = await alarm('C', 'Z', R0 - 2 * H, {
      active: true,
      acknowledged: false,
      closed: false,
      returnedAt: null,
    });
    ids.returnedAfter = await alarm('C', 'Z', R0 - 4 * H, { returnedAt: R1 + H });
    // Not standing: returned inside the range, or closed by hand inside it while active.
    await alarm('C', 'Y', R0 - 1 * H, { returnedAt: R0 + H });
    const closed = await alarm('C', 'X', R0 - 3 * H, { returnedAt: null });
    await repo.insertAction(
      t.app.db.db,
      { historyId: closed, action: 'close', userId: null, username: 'admin', comment: '', until: null },
      new Date(R0 + 5 * H).toISOString(),
    );
  });
  afterAll(async () => {
    await t.close();
  });

  const health = async (start: number, end: number) => {
    const res = await api.get(`/api/alarm/health?startTime=${start}&endTime=${end}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };

  it('counts annunciations per 10 minutes, finds the flood, the standing, the chattering and the bad actors', async () => {
    const h = await health(R0, R1);
    // 18 alarms shown; the chattering one annunciated 8 times: 25 annunciations.
    expect(h.total).toBe(25);
    expect(h.alarms).toBe(18);
    expect(h.suppressed).toBe(2);
    expect(h.periods).toHaveLength(144);
    // 02:00–02:10 (the 13th period) holds the chattering alarm's 8; 10:00–10:10 (the 61st) the flood.
    expect(h.periods[12]).toBe(8);
    expect(h.periods[60]).toBe(12);
    expect(h.periods.reduce((a: number, b: number) => a + b, 0)).toBe(25);
    expect(h.max).toBe(12);
    expect(h.average).toBe(0.17);
    expect(h.band).toBe('acceptable');
    expect(h.floodPeriodsPercent).toBe(0.69);
    expect(h.floods).toEqual([
      {
        start: new Date(R0 + 10 * H).toISOString(),
        end: new Date(R0 + 10 * H + 11 * 30_000).toISOString(),
        count: 12,
      },
    ]);
    expect(h.standingAt).toBe(new Date(R1).toISOString());
    expect(h.standingCount).toBe(2);
    expect(h.standing.map((a: { id: number }) => a.id)).toEqual([ids.returnedAfter, ids.stillActive]);
    expect(h.chatteringCount).toBe(1);
    expect(h.chatteringAnnunciations).toBe(8);
    expect(h.chattering).toMatchObject([
      { id: ids.chatterer, ruleName: '压力低', thingName: '空压机2', occurrences: 8, annunciations: 8 },
    ]);
    expect(h.badActors).toEqual([
      {
        ruleId: 11,
        ruleName: '排气温度高',
        thingId: 1,
        thingName: '空压机1',
        count: 12,
        alarms: 12,
        share: 0.48,
      },
      {
        ruleId: 12,
        ruleName: '压力低',
        thingId: 2,
        thingName: '空压机2',
        count: 10,
        alarms: 3,
        share: 0.4,
      },
      {
        ruleId: 11,
        ruleName: '排气温度高',
        thingId: 2,
        thingName: '空压机2',
        count: 3,
        alarms: 3,
        share: 0.12,
      },
    ]);
    // A bad actor's link: the history of that rule on that thing.
    const linked = await api.get('/api/alarm/history?ruleId=11&thingId=2&pageSize=50');
    expect(linked.body.data.size).toBe(3);
  });

  it('judges a range reaching past now at now, averaging over the periods begun', async () => {
    // The clock stands at R1 + 8 h: 48 periods have begun of the day's 144.
    const h = await health(R1, R1 + 24 * H);
    expect(h.total).toBe(1);
    expect(h.periods).toHaveLength(144);
    expect(h.average).toBe(0.02);
    expect(h.standingAt).toBe(new Date(R1 + 8 * H).toISOString());
    // The one returned at R1 + 1 h no longer stands; the one still active does.
    expect(h.standing.map((a: { id: number }) => a.id)).toEqual([ids.stillActive]);
    expect(h.floods).toEqual([]);
    expect(h.badActors).toHaveLength(1);
  });

  it('rates by EEMUA bands and refuses bad ranges in the user’s language', async () => {
    // The flood hour alone: 12 alarms over 6 periods, 2 per 10 minutes on average.
    expect((await health(R0 + 10 * H, R0 + 11 * H)).band).toBe('manageable');
    expect((await health(R0 + 10 * H, R0 + 10 * H + 20 * 60_000)).band).toBe('unacceptable');
    const empty = await health(R0 + 20 * H, R0 + 21 * H);
    expect(empty).toMatchObject({
      total: 0,
      average: 0,
      max: 0,
      band: 'acceptable',
      floods: [],
      badActors: [],
    });

    const backwards = await api.get(`/api/alarm/health?startTime=${R1}&endTime=${R0}`);
    expect(backwards.status).toBe(400);
    const tooLong = await apiAs(() => t.app, (await login(t.app)).token, { 'accept-language': 'en' }).get(
      `/api/alarm/health?startTime=${R0}&endTime=${R0 + 32 * 24 * H}`,
    );
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe('The range can be at most 31 days long');
    expect((await api.get('/api/alarm/health?startTime=1')).status).toBe(400);
  });

  it('is read by every logged-in user, like the history', async () => {
    expect(
      (
        await api.post('/api/users', {
          username: 'shift2',
          password: 'Shift1234',
          name: '值班员',
          userLevel: 2,
        })
      ).status,
    ).toBe(200);
    const editor = apiAs(() => t.app, (await login(t.app, 'shift2', 'Shift1234')).token);
    expect((await editor.get(`/api/alarm/health?startTime=${R0}&endTime=${R1}`)).status).toBe(200);
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/api/alarm/health?startTime=${R0}&endTime=${R1}`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
