import type { Db } from '../../../db/sql.ts';
import { iso, ms } from './time.ts';

// ---- timers: what of a watch's judgement lives between points (docs/cluster.md) -----------------

export interface TimerRecord {
  monitorId: number;
  ruleId: number;
  thingId: number;
  holding: boolean;
  /** When a delay under way began (epoch ms), null when none runs. */
  changeSince: number | null;
  lastAt: number | null;
  lastValue: number | string | null;
  /** Raise times within the chatter window (epoch ms). */
  raises: number[];
}

/** Writes a watch's timer state, replacing the one it had. */
export async function saveTimer(db: Db, timer: TimerRecord, stamp: string): Promise<void> {
  const values = {
    holding: timer.holding ? 1 : 0,
    change_since: timer.changeSince === null ? null : iso(timer.changeSince),
    last_at: timer.lastAt === null ? null : iso(timer.lastAt),
    last_value: timer.lastValue === null ? null : JSON.stringify(timer.lastValue),
    raises: JSON.stringify(timer.raises),
    updated_at: stamp,
  };
  await db
    .insertInto('alarm_timers')
    .values({ monitor_id: timer.monitorId, rule_id: timer.ruleId, thing_id: timer.thingId, ...values })
    .onConflict((oc) => oc.columns(['monitor_id', 'rule_id', 'thing_id']).doUpdateSet(values))
    .execute();
}

/** Every watch's timer state. */
export async function allTimers(db: Db): Promise<TimerRecord[]> {
  const rows = await db.selectFrom('alarm_timers').selectAll().execute();
  return rows.map((r) => ({
    monitorId: r.monitor_id,
    ruleId: r.rule_id,
    thingId: r.thing_id,
    holding: r.holding === 1,
    changeSince: ms(r.change_since),
    lastAt: ms(r.last_at),
    lastValue: r.last_value === null ? null : (JSON.parse(r.last_value) as number | string),
    raises: JSON.parse(r.raises) as number[],
  }));
}
