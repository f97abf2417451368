import {
  type AlarmHealth,
  BAD_ACTORS_TOP,
  FLOOD_ALARMS,
  HEALTH_LIST_MAX,
  HEALTH_PERIOD_MS,
  rateBand,
  type Severity,
  STANDING_MS,
} from '@kilowatch/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/sql.ts';

/**
 * Alarm system health per ISA-18.2 / EEMUA 191 (docs/alarms.md "System health"): how many
 * annunciations the operator was shown per 10 minutes, the floods, the standing and chattering
 * alarms and the bad actors, over a range. Every annunciation counts (an alarm's raise, and each
 * re-raise grouped into the open alarm, recorded in `alarm_annunciations`), so a chattering alarm
 * heads the rate and the bad actors as often as it flapped; the distinct alarms are counted beside.
 * Suppressed annunciations (maintenance) were never shown: counted apart.
 */

const iso = (ms: number) => new Date(ms).toISOString();

/** Annunciations per 10-minute period from `start`; the last period may be cut short by `end`. */
export function periodCounts(times: readonly number[], start: number, end: number): number[] {
  const counts = new Array<number>(Math.max(0, Math.ceil((end - start) / HEALTH_PERIOD_MS))).fill(0);
  for (const at of times) {
    if (at < start || at >= end) continue;
    const i = Math.floor((at - start) / HEALTH_PERIOD_MS);
    counts[i] = (counts[i] ?? 0) + 1;
  }
  return counts;
}

/**
 * Floods: every alarm that opens a 10-minute window holding more than FLOOD_ALARMS alarms belongs
 * to a flood with the alarms of that window; overlapping windows make one flood. A sliding window,
 * so a burst across the boundary of two fixed periods is still seen. `times` sorted ascending.
 */
export function findFloods(times: readonly number[]): { start: number; end: number; count: number }[] {
  const floods: { first: number; last: number }[] = [];
  let j = 0;
  for (let i = 0; i < times.length; i++) {
    if (j < i) j = i;
    while (j < times.length && times[j]! < times[i]! + HEALTH_PERIOD_MS) j++;
    if (j - i <= FLOOD_ALARMS) continue;
    const open = floods.at(-1);
    if (open && i <= open.last) open.last = Math.max(open.last, j - 1);
    else floods.push({ first: i, last: j - 1 });
  }
  return floods.map((f) => ({ start: times[f.first]!, end: times[f.last]!, count: f.last - f.first + 1 }));
}

interface HealthAlarmRow {
  id: number;
  rule_id: number;
  rule_name: string;
  thing_id: number;
  thing_name: string;
  severity: string;
  alarm_at: string;
  occurrences: number;
}

const healthAlarm = (r: HealthAlarmRow) => ({
  id: r.id,
  ruleId: r.rule_id,
  ruleName: r.rule_name,
  thingId: r.thing_id,
  thingName: r.thing_name,
  severity: r.severity as Severity,
  alarmAt: r.alarm_at,
  occurrences: r.occurrences,
});

const alarmColumns = [
  'h.id',
  'h.rule_id',
  'h.rule_name',
  'h.thing_id',
  'h.thing_name',
  'h.severity',
  'h.alarm_at',
  'h.occurrences',
] as const;

/** The health of the alarm system over [start, end), judged at `now` where the range reaches past it. */
export async function alarmHealth(db: Db, start: number, end: number, now: number): Promise<AlarmHealth> {
  const from = iso(start);
  const to = iso(end);
  const inRange = db
    .selectFrom('alarm_annunciations as n')
    .innerJoin('alarm_history as h', 'h.id', 'n.history_id')
    .where('n.at', '>=', from)
    .where('n.at', '<', to);
  const shown = inRange.where('n.suppressed', '=', 0);
  const chatteringShown = shown.where('h.chattering', '=', 1);

  const [shownRows, counts, actors, chatterers, chatter] = await Promise.all([
    shown.select('n.at').orderBy('n.at').execute(),
    inRange
      .select((eb) => [
        eb.fn.sum<number | string | null>('n.suppressed').as('suppressed'),
        eb.fn
          .count<number | string>(
            eb.case().when('n.suppressed', '=', 0).then(eb.ref('n.history_id')).else(null).end(),
          )
          .distinct()
          .as('alarms'),
      ])
      .executeTakeFirstOrThrow(),
    shown
      .select((eb) => [
        'n.rule_id',
        'n.thing_id',
        eb.fn.max('h.rule_name').as('rule_name'),
        eb.fn.max('h.thing_name').as('thing_name'),
        eb.fn.countAll<number | string>().as('n'),
        eb.fn.count<number | string>('n.history_id').distinct().as('alarms'),
      ])
      .groupBy(['n.rule_id', 'n.thing_id'])
      .orderBy(sql`count(*)`, 'desc')
      .orderBy('n.rule_id')
      .orderBy('n.thing_id')
      .limit(BAD_ACTORS_TOP)
      .execute(),
    chatteringShown
      .select((eb) => [...alarmColumns, eb.fn.countAll<number | string>().as('annunciations')])
      .groupBy([...alarmColumns])
      .orderBy(sql`count(*)`, 'desc')
      .orderBy('h.alarm_at')
      .orderBy('h.id')
      .limit(HEALTH_LIST_MAX)
      .execute(),
    chatteringShown
      .select((eb) => [
        eb.fn.count<number | string>('n.history_id').distinct().as('alarms'),
        eb.fn.countAll<number | string>().as('n'),
      ])
      .executeTakeFirstOrThrow(),
  ]);

  // Standing: raised at least 24 h before the judging time and not yet ended by then. An alarm ends
  // when it returns, or when an operator closes it while still active (no return is recorded then).
  const at = Math.min(end, now);
  const atIso = iso(at);
  const standingBase = db
    .selectFrom('alarm_history as h')
    .where('h.suppressed', '=', 0)
    .where('h.alarm_at', '<=', iso(at - STANDING_MS))
    .where((eb) =>
      eb.or([
        eb('h.returned_at', '>', atIso),
        eb.and([eb('h.returned_at', 'is', null), eb('h.closed', '=', 0)]),
        eb.and([
          eb('h.returned_at', 'is', null),
          eb('h.closed', '=', 1),
          eb.exists(
            eb
              .selectFrom('alarm_actions as a')
              .select('a.id')
              .whereRef('a.history_id', '=', 'h.id')
              .where('a.action', '=', 'close')
              .where('a.at', '>', atIso),
          ),
        ]),
      ]),
    );
  const [standingRows, standingCount] = await Promise.all([
    standingBase.select(alarmColumns).orderBy('h.alarm_at').orderBy('h.id').limit(HEALTH_LIST_MAX).execute(),
    standingBase.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);

  const times = shownRows.map((r) => Date.parse(r.at));
  const periods = periodCounts(times, start, end);
  const begun = Math.max(
    1,
    Math.min(periods.length, Math.ceil((Math.min(end, now) - start) / HEALTH_PERIOD_MS)),
  );
  const total = times.length;
  const average = total / begun;
  const floodPeriods = periods.slice(0, begun).filter((n) => n > FLOOD_ALARMS).length;
  return {
    startTime: start,
    endTime: end,
    total,
    alarms: Number(counts.alarms),
    suppressed: Number(counts.suppressed ?? 0),
    periods,
    average: Math.round(average * 100) / 100,
    max: periods.reduce((a, b) => Math.max(a, b), 0),
    band: rateBand(average),
    floodPeriodsPercent: Math.round((floodPeriods / begun) * 10_000) / 100,
    floods: findFloods(times).map((f) => ({ start: iso(f.start), end: iso(f.end), count: f.count })),
    standingAt: atIso,
    standing: standingRows.map(healthAlarm),
    standingCount: Number(standingCount.n),
    chattering: chatterers.map((r) => ({ ...healthAlarm(r), annunciations: Number(r.annunciations) })),
    chatteringCount: Number(chatter.alarms),
    chatteringAnnunciations: Number(chatter.n),
    badActors: actors.map((a) => ({
      ruleId: a.rule_id,
      ruleName: String(a.rule_name ?? ''),
      thingId: a.thing_id,
      thingName: String(a.thing_name ?? ''),
      count: Number(a.n),
      alarms: Number(a.alarms),
      share: total === 0 ? 0 : Math.round((Number(a.n) / total) * 10_000) / 10_000,
    })),
  };
}
