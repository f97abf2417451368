import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../test/helpers.ts';
import { type Api, apiAs } from '../things/testing.ts';
import type { AlarmStatus } from './engine/state.ts';
import * as repo from './repository/index.ts';
import { testStatus } from './testing.ts';

const H = 3_600_000;
/** The chart's range: 8 hours of one day. */
const S = Date.parse('2026-11-21T08:00:00Z');
const E = S + 8 * H;

const status = testStatus;

// Issue 21: charts draw the alarms of their things; GET /api/alarm/spans answers them for a range.
describe.each(dialects())('alarm spans for charts on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  const ids: Record<string, number> = {};

  async function alarm(
    thingId: number,
    alarmAt: number,
    change: Partial<AlarmStatus> & { returnedAt?: number | null } = {},
  ): Promise<number> {
    const { returnedAt = alarmAt + 60_000, ...s } = change;
    return repo.insertHistory(
      t.app.db.db,
      {
        monitorId: 1,
        ruleId: 11,
        ruleName: '排气温度高',
        templateName: '',
        thingId,
        thingName: `空压机${thingId}`,
        resourceType: 'thing',
        resourceId: thingId,
        resourceName: `空压机${thingId}`,
        severity: 'major',
        message: '排气温度 > 105 ℃',
        value: '107',
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
    ids.inside = await alarm(1, S + H);
    await repo.insertAction(
      t.app.db.db,
      {
        historyId: ids.inside,
        action: 'acknowledge',
        userId: null,
        username: 'admin',
        comment: '查看中',
        until: null,
      },
      new Date(S + H + 30_000).toISOString(),
    );
    await repo.insertMaintenance(
      t.app.db.db,
      { targetType: 'thing', targetId: 1, start: S + 3 * H, end: S + 4 * H, reason: '更换滤芯' },
      new Date(S).toISOString(),
      'admin',
    );
    // Raised before the range, returned inside it: drawn from the range's start.
    ids.across = await alarm(2, S - H, { returnedAt: S + 30 * 60_000 });
    // Still active, raised an hour before the end.
    ids.active = await alarm(1, E - H, {
      active: true,
      acknowledged: false,
      closed: false,
      returnedAt: null,
    });
    // Not drawn: returned before the range, raised at its (excluded) end, another thing's,
    // suppressed, closed by hand without returning before the range.
    await alarm(1, S - 2 * H, { returnedAt: S - H });
    await alarm(1, E);
    await alarm(3, S + H);
    await alarm(1, S + 2 * H, { suppressed: true });
    await alarm(2, S - 3 * H, { returnedAt: null });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the alarms of the things that stood in the range, oldest first', async () => {
    const res = await api.get(`/api/alarm/spans?thingIds=1,2&start=${S}&end=${E}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { list, truncated } = res.body.data;
    expect(truncated).toBe(false);
    expect(list.map((a: { id: number }) => a.id)).toEqual([ids.across, ids.inside, ids.active]);
    expect(list[1]).toMatchObject({
      thingId: 1,
      thingName: '空压机1',
      ruleName: '排气温度高',
      severity: 'major',
      value: '107',
      alarmAt: S + H,
      returnedAt: S + H + 60_000,
      active: false,
    });
    expect(list[2]).toMatchObject({ returnedAt: null, active: true });
  });

  it('rejects a bad id list or range with a 400 in the user’s language', async () => {
    for (const query of [`thingIds=1,x&start=${S}&end=${E}`, `thingIds=1&start=${E}&end=${S}`]) {
      const res = await api.get(`/api/alarm/spans?${query}`);
      expect(res.status, query).toBe(400);
    }
    const many = Array.from({ length: 201 }, (_, i) => i + 1).join(',');
    expect((await api.get(`/api/alarm/spans?thingIds=${many}&start=${S}&end=${E}`)).status).toBe(400);
  });

  it("lists one device's events over the range, newest first", async () => {
    const res = await api.get(`/api/alarm/things/1/events?start=${S}&end=${E}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { list, truncated } = res.body.data;
    expect(truncated).toBe(false);
    const rows = list.map((e: { at: number; kind: string; alarmId: number | null; title: string }) => [
      e.at - S,
      e.kind,
      e.alarmId,
      e.title,
    ]);
    // Not listed: the other things' alarms, and thing 1's raised at the range's end or returned
    // before its start. The suppressed one is listed: it did happen, in maintenance.
    expect(rows).toEqual([
      [7 * H, 'raised', ids.active, '排气温度高'],
      [4 * H, 'maintenanceEnd', null, '更换滤芯'],
      [3 * H, 'maintenanceStart', null, '更换滤芯'],
      [2 * H + 60_000, 'returned', expect.any(Number), '排气温度高'],
      [2 * H, 'raised', expect.any(Number), '排气温度高'],
      [H + 60_000, 'returned', ids.inside, '排气温度高'],
      [H + 30_000, 'acknowledge', ids.inside, '排气温度高'],
      [H, 'raised', ids.inside, '排气温度高'],
    ]);
    expect(list.find((e: { kind: string }) => e.kind === 'acknowledge')).toMatchObject({
      username: 'admin',
      comment: '查看中',
      severity: 'major',
    });
    expect((await api.get(`/api/alarm/things/1/events?start=${E}&end=${S}`)).status).toBe(400);
  });

  it('needs a login', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/alarm/spans?thingIds=1&start=${S}&end=${E}` });
    expect(res.statusCode).toBe(401);
  });
});
