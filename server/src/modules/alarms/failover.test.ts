import type { LiveValue } from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../test/helpers.ts';
import type { DB } from '../../db/index.ts';
import { type Plant, seedPlant } from '../../ingest/testing.ts';
import { batchOf, type LiveBatch } from '../../live/index.ts';
import { type Api, apiAs } from '../things/testing.ts';
import { createAlarmRunner } from './runner.ts';

const silent = { error: () => {}, warn: () => {} };

/**
 * A replica dies and another takes its monitors (docs/cluster.md): two alarm runners on one
 * database, each with its own live hub, as two replicas are; the one that "dies" is dropped with no
 * flush and no cleanup, and the next one loads the partition as `onOwnershipChange` makes it do.
 * The judgement of a delay, deadband, shelf or maintenance window must carry over: each alarm raised
 * once, at its time, returned once, and notified once per event.
 */
describe.each(dialects())('alarm monitors taken over from a dead replica on %s', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let api: Api;
  let plant: Plant;
  let ruleId: number;

  type Hub = Set<(batch: LiveBatch) => void> & { latest?: Map<string, LiveValue> };
  /**
   * A replica's runner: it sees what its hub is given (a hub of its own unless one is shared, as
   * the cluster's live hub is), and owns every monitor while `owner.owns`.
   */
  function replica(listeners: Hub = new Set(), owner = { owns: true }) {
    const runner = createAlarmRunner({
      db,
      catalog: t.app.services.catalog,
      live: {
        subscribe(fn) {
          listeners.add(fn);
          return () => listeners.delete(fn);
        },
        latest: (series) => listeners.latest?.get(`${series.thingId}:${series.metric}`),
      },
      now: t.clock.now,
      log: silent,
      keepTimers: true,
      owns: () => owner.owns,
      tickMs: 3_600_000,
      recordNotifications: (tx, written) => t.app.services.alarmNotify.notifier.recordWritten(tx, written),
    });
    return {
      runner,
      /** A point of meter `thing` measured `offsetMs` from now. */
      async point(thingId: number, value: number, offsetMs = 0) {
        const v = { thingId, metric: 'P', ts: t.clock.now() + offsetMs, value } as LiveValue;
        listeners.latest ??= new Map();
        listeners.latest.set(`${thingId}:P`, v);
        for (const fn of listeners) fn(batchOf([v]));
        await runner.flush();
      },
      async tick() {
        runner.tick();
        await runner.flush();
      },
      /** Killed: it hears nothing more and its timers stop; nothing is flushed or given back. */
      die() {
        void runner.stop();
      },
    };
  }

  /** Replica A owning every monitor and B owning none yet, both hearing one hub, started. */
  async function handover() {
    const hub: Hub = new Set();
    const a = replica(hub);
    const bOwner = { owns: false };
    const b = replica(hub, bOwner);
    await a.runner.start();
    await b.runner.start();
    return { a, b, bOwner };
  }

  const rows = (thingId: number) =>
    db
      .selectFrom('alarm_history')
      .selectAll()
      .where('thing_id', '=', thingId)
      .where('rule_id', '=', ruleId)
      .execute();
  const outbox = async (alarmId: number) =>
    (
      await db.selectFrom('alarm_notify_outbox').select('event').where('alarm_id', '=', alarmId).execute()
    ).map((r) => r.event);
  const iso = (ms: number) => new Date(ms).toISOString();

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.app.db.db;
    // The replicas here are the suite's own; the app's runner and sender would compete with them.
    await t.app.services.alarmRunner.stop();
    await t.app.services.alarmNotify.notifier.stop();
    api = apiAs(() => t.app, (await login(t.app)).token);
    plant = await seedPlant(api, 5);
    const rule = await api.post('/api/alarm/rules', {
      name: '功率过高',
      ability: 'P',
      condition: { kind: 'threshold', op: '>', value: 80 },
      onDelay: 10,
      offDelay: 10,
      deadband: 2,
      severity: 'major',
      message: '{thing} 功率 {value} kW',
      categoryId: plant.categoryId,
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);
    ruleId = rule.body.data.id;
    expect((await api.post(`/api/alarm/rules/${ruleId}/state`, { action: 'enable' })).status).toBe(200);
    const applied = await api.post('/api/alarm/monitors/batch', {
      appliedType: 'rule',
      appliedId: ruleId,
      targets: plant.things.map((thing) => ({ type: 'thing', id: thing.id })),
    });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const stamp = iso(t.clock.now());
    await db
      .insertInto('alarm_notify_routes')
      .values({
        name: '值班',
        channel: 'webhook',
        severities: JSON.stringify(['major']),
        events: JSON.stringify(['raise', 'return']),
        url: 'http://127.0.0.1:9/hook',
        secret: '',
        timeout_ms: 5000,
        recipients: '[]',
        enabled: 1,
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
  });
  afterAll(async () => {
    await t.close();
  });

  it('resumes an on-delay and an off-delay where the dead replica left them, deadband included', async () => {
    const meter = plant.things[0]!.id;
    const a = replica();
    await a.runner.start();
    const t0 = t.clock.now();
    await a.point(meter, 95);
    t.clock.advance(4_000);
    await a.point(meter, 96);
    // Written when the delay began, not for the point that changed nothing.
    const timers = await db.selectFrom('alarm_timers').selectAll().where('thing_id', '=', meter).execute();
    expect(timers).toMatchObject([{ holding: 1, change_since: iso(t0), updated_at: iso(t0) }]);
    a.die();

    // B takes the partition 2 s later: the delay began at t0 on A, so the raise is due at t0 + 10 s,
    // not 10 s after B's first point.
    t.clock.advance(2_000);
    const b = replica();
    await b.runner.start();
    await b.point(meter, 97);
    expect(await rows(meter)).toHaveLength(0);
    t.clock.advance(4_000);
    await b.tick();
    const raised = await rows(meter);
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ alarm_at: iso(t0 + 10_000), active: 1, value: '97' });
    const alarmId = raised[0]!.id;

    // Within the deadband (> 78 while active) the alarm holds: no off-delay starts; then 70 starts it.
    t.clock.advance(2_000);
    await b.point(meter, 79);
    t.clock.advance(2_000);
    const t1 = t.clock.now();
    await b.point(meter, 70);
    b.die();

    t.clock.advance(3_000);
    const c = replica();
    await c.runner.start();
    // C hears 75 (still below the deadband): the return that began on B at t1 goes on.
    await c.point(meter, 75);
    t.clock.advance(7_000);
    await c.tick();
    const returned = await rows(meter);
    expect(returned).toHaveLength(1);
    expect(returned[0]).toMatchObject({ id: alarmId, active: 0, returned_at: iso(t1 + 10_000) });
    expect(await outbox(alarmId)).toEqual(['raise', 'return']);
    expect(
      await db.selectFrom('alarm_annunciations').select('id').where('history_id', '=', alarmId).execute(),
    ).toHaveLength(1);
    c.die();
  });

  it('a replica that takes over an active alarm neither raises it again nor returns it inside the deadband', async () => {
    const meter = plant.things[1]!.id;
    const a = replica();
    await a.runner.start();
    await a.point(meter, 95);
    t.clock.advance(10_000);
    await a.point(meter, 95);
    expect(await rows(meter)).toHaveLength(1);
    a.die();

    t.clock.advance(2_000);
    const b = replica();
    await b.runner.start();
    await b.point(meter, 99);
    t.clock.advance(2_000);
    await b.point(meter, 79);
    t.clock.advance(20_000);
    await b.point(meter, 79.5);
    await b.tick();
    const [alarm] = await rows(meter);
    expect(alarm).toMatchObject({ active: 1, returned_at: null });
    expect(await rows(meter)).toHaveLength(1);
    expect(await outbox(alarm!.id)).toEqual(['raise']);
    b.die();
  });

  it('keeps a shelf and a maintenance window across the takeover', async () => {
    const [, shelvedMeter, maintained] = plant.things;
    const a = replica();
    await a.runner.start();
    await a.point(shelvedMeter!.id, 95);
    t.clock.advance(10_000);
    await a.point(shelvedMeter!.id, 95);
    const [shelved] = await rows(shelvedMeter!.id);
    const until = t.clock.now() + 60_000;
    const acked = await api.post(`/api/alarm/history/${shelved!.id}/actions`, { action: 'acknowledge' });
    expect(acked.status, JSON.stringify(acked.body)).toBe(200);
    const shelf = await api.post(`/api/alarm/history/${shelved!.id}/actions`, { action: 'shelve', until });
    expect(shelf.status, JSON.stringify(shelf.body)).toBe(200);
    const window = await api.post('/api/alarm/maintenance', {
      targetType: 'thing',
      targetId: maintained!.id,
      start: t.clock.now() - 1000,
      end: t.clock.now() + 3_600_000,
      reason: '检修',
    });
    expect(window.status, JSON.stringify(window.body)).toBe(200);
    await a.point(maintained!.id, 95);
    a.die();

    t.clock.advance(2_000);
    const b = replica();
    await b.runner.start();
    await b.point(shelvedMeter!.id, 96);
    t.clock.advance(8_000);
    await b.point(maintained!.id, 96);
    // The maintenance window's raise is kept in history, suppressed; the shelf still holds.
    const [kept] = await rows(maintained!.id);
    expect(kept).toMatchObject({ suppressed: 1, alarm_at: iso(t.clock.now()) });
    expect((await rows(shelvedMeter!.id))[0]).toMatchObject({ shelved_until: iso(until) });
    // And the shelf runs out on the new owner's clock.
    t.clock.advance(60_000);
    await b.tick();
    expect((await rows(shelvedMeter!.id))[0]).toMatchObject({ shelved_until: null, active: 1 });
    expect(await rows(shelvedMeter!.id)).toHaveLength(1);
    b.die();
  });

  it('judges the values that arrived while nobody owned the monitor: no false raise, no missed one', async () => {
    const meter = plant.things[3]!.id;
    const { a, b, bOwner } = await handover();
    const t0 = t.clock.now();
    await a.point(meter, 95);
    t.clock.advance(2_000);
    a.die();
    // A is dead and B does not own the monitor yet: the value falls back below the limit.
    await b.point(meter, 60, 3_000);
    t.clock.advance(6_000);
    bOwner.owns = true;
    await b.runner.reload();
    await b.runner.flush();
    t.clock.advance(4_000);
    await b.tick();
    // The delay begun at t0 was cut at t0 + 5 s: nothing raises at t0 + 10 s.
    expect(await rows(meter)).toHaveLength(0);
    expect(
      await db.selectFrom('alarm_timers').selectAll().where('thing_id', '=', meter).executeTakeFirst(),
    ).toMatchObject({ holding: 0, change_since: null, last_at: iso(t0 + 5_000) });

    // Again, now the value goes above the limit in the gap and nothing else arrives after it.
    bOwner.owns = false;
    await b.runner.reload();
    const t1 = t.clock.now() + 1_000;
    await b.point(meter, 97, 1_000);
    t.clock.advance(3_000);
    bOwner.owns = true;
    await b.runner.reload();
    await b.runner.flush();
    t.clock.advance(8_000);
    await b.tick();
    expect(await rows(meter)).toMatchObject([{ alarm_at: iso(t1 + 10_000), value: '97' }]);
    b.die();
  });

  it('counts a no-data silence from the last value heard, not from the takeover', async () => {
    const meter = plant.things[4]!.id;
    const silence = await api.post('/api/alarm/rules', {
      name: '功率无数据',
      ability: 'P',
      condition: { kind: 'noData', seconds: 30 },
      onDelay: 0,
      offDelay: 0,
      deadband: 0,
      severity: 'major',
      message: '',
      categoryId: plant.categoryId,
    });
    expect(silence.status, JSON.stringify(silence.body)).toBe(200);
    const silenceId = silence.body.data.id as number;
    await api.post(`/api/alarm/rules/${silenceId}/state`, { action: 'enable' });
    await api.post('/api/alarm/monitors/batch', {
      appliedType: 'rule',
      appliedId: silenceId,
      targets: [{ type: 'thing', id: meter }],
    });
    const { a, b, bOwner } = await handover();
    const t0 = t.clock.now();
    await a.point(meter, 50);
    t.clock.advance(10_000);
    a.die();
    t.clock.advance(2_000);
    bOwner.owns = true;
    await b.runner.reload();
    await b.runner.flush();
    t.clock.advance(19_000);
    await b.tick();
    const raised = await db
      .selectFrom('alarm_history')
      .select('alarm_at')
      .where('rule_id', '=', silenceId)
      .where('thing_id', '=', meter)
      .execute();
    expect(raised).toEqual([{ alarm_at: iso(t0 + 30_000) }]);
    b.die();
  });
});
