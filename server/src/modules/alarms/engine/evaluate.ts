import {
  type AlarmCondition,
  type AlarmTiming,
  CHATTER_COUNT,
  CHATTER_MINUTES,
  type Comparison,
} from '@kilowatch/contract';

/**
 * The alarm engine's judgement, pure: one rule, the state of one (monitor, thing) pair, one point or
 * the passing of time in, the new state and the transitions out. No clock, database or I/O, so the
 * live engine, a restart's resume and the backtest over stored history all run this same code.
 *
 * Two clocks meet here. Conditions and delays run on the points' own times (a gateway's buffered
 * backlog raises at the moment it happened, not when it arrived); silence (no data) runs on the
 * server's clock, since a device that sends nothing sends no time either.
 */

export interface EngineRule {
  condition: AlarmCondition;
  timing: AlarmTiming;
}

export type PointValue = number | string;

export interface Track {
  /** Raised and not yet returned. */
  active: boolean;
  /** Whether the condition held at the newest point (timers use it between points). */
  holding: boolean;
  /** Since when `holding` has disagreed with `active` (a raise or a return waiting out its delay). */
  changeSince: number | null;
  /** Time of the newest point evaluated; points not newer are late and ignored. */
  lastAt: number | null;
  lastValue: PointValue | null;
  /** Server time the watch began or the newest point arrived: silence is measured from it. */
  lastHeard: number;
  /** Numeric points still needed for the rate of change, oldest first. */
  recent: [at: number, value: number][];
  /** Raise times within the chatter window. */
  raises: number[];
}

export type Transition =
  | { type: 'raise'; at: number; value: PointValue | null; chattering: boolean }
  | { type: 'return'; at: number; value: PointValue | null };

export interface Step {
  track: Track;
  transitions: Transition[];
}

/** A fresh watch, begun at server time `now` (a device that never reports is silent from here). */
export function newTrack(now: number): Track {
  return {
    active: false,
    holding: false,
    changeSince: null,
    lastAt: null,
    lastValue: null,
    lastHeard: now,
    recent: [],
    raises: [],
  };
}

/** A point of the watched metric, measured at `point.at`, arriving at server time `now`. */
export function onPoint(
  rule: EngineRule,
  track: Track,
  point: { at: number; value: PointValue },
  now: number,
): Step {
  const next = copy(track);
  const transitions: Transition[] = [];
  pointInPlace(rule, next, point, now, transitions);
  return { track: next, transitions };
}

/** Time passes at server time `now`: delays run out, silence becomes no data. */
export function onTick(rule: EngineRule, track: Track, now: number): Step {
  const next = copy(track);
  const transitions: Transition[] = [];
  tickInPlace(rule, next, now, transitions);
  return { track: next, transitions };
}

const copy = (track: Track): Track => ({ ...track, recent: [...track.recent], raises: [...track.raises] });

// `onPoint` and `onTick` copy the track and these change the copy. The owner of a track (the live
// runner, the backtest) changes it in place: on every ingested point a copy would cost more than
// the judgement (bench/alarm-ingest-bench.ts).

/** `onPoint` on the track itself; transitions are appended to `out`. */
export function pointInPlace(
  rule: EngineRule,
  track: Track,
  point: { at: number; value: PointValue },
  now: number,
  out: Transition[],
): void {
  if (track.lastAt !== null && point.at <= track.lastAt) return;
  // A delay that ran out between the previous point and this one takes effect at its own time,
  // with the value known then.
  settle(rule, track, point.at, out);
  track.lastAt = point.at;
  track.lastValue = point.value;
  track.lastHeard = Math.max(track.lastHeard, now);
  if (rule.condition.kind === 'rate') remember(rule.condition.seconds, track.recent, point);
  const holding = holds(rule, track, point.value);
  if (holding !== undefined) {
    if (holding !== track.holding) track.changeSince = holding === track.active ? null : point.at;
    track.holding = holding;
  }
  settle(rule, track, point.at, out);
}

/** `onTick` on the track itself; transitions are appended to `out`. */
export function tickInPlace(rule: EngineRule, track: Track, now: number, out: Transition[]): void {
  if (rule.condition.kind === 'noData') {
    const silentFrom = track.lastHeard + rule.condition.seconds * 1000;
    if (now >= silentFrom && !track.holding) {
      track.holding = true;
      track.changeSince = track.active ? null : silentFrom;
    }
  }
  settle(rule, track, now, out);
}

/** Flips `active` once the disagreement has lasted its delay, dated when the delay ran out. */
function settle(rule: EngineRule, track: Track, now: number, out: Transition[]): void {
  if (track.holding === track.active) {
    track.changeSince = null;
    return;
  }
  if (track.changeSince === null) return;
  const delay = (track.holding ? rule.timing.onDelay : rule.timing.offDelay) * 1000;
  const at = track.changeSince + delay;
  if (at > now) return;
  track.active = track.holding;
  track.changeSince = null;
  if (track.active) {
    const windowStart = at - CHATTER_MINUTES * 60_000;
    track.raises = track.raises.filter((t) => t > windowStart);
    out.push({ type: 'raise', at, value: track.lastValue, chattering: track.raises.length >= CHATTER_COUNT });
    track.raises.push(at);
  } else {
    out.push({ type: 'return', at, value: track.lastValue });
  }
}

/** Whether the condition holds at this point; undefined when the point says nothing about it. */
function holds(rule: EngineRule, track: Track, value: PointValue): boolean | undefined {
  const c = rule.condition;
  const band = track.active ? rule.timing.deadband : 0;
  switch (c.kind) {
    case 'noData':
      return false;
    case 'state':
      return c.values.includes(String(value));
    case 'threshold':
      return typeof value === 'number' ? compare(c.op, value, c.value, band) : undefined;
    case 'range': {
      if (typeof value !== 'number') return undefined;
      return c.inside
        ? value >= c.low - band && value <= c.high + band
        : value < c.low + band || value > c.high - band;
    }
    case 'rate': {
      const rate = rateOf(track.recent, c.seconds);
      return rate === undefined ? undefined : compare(c.op, rate, c.value, band);
    }
  }
}

/**
 * `value op limit`, with the deadband applied towards normal: an active `> 80` alarm with a deadband
 * of 2 stays active down to 78 exclusive. Equality has no direction, so no band.
 */
function compare(op: Comparison, value: number, limit: number, band: number): boolean {
  switch (op) {
    case '>':
      return value > limit - band;
    case '>=':
      return value >= limit - band;
    case '<':
      return value < limit + band;
    case '<=':
      return value <= limit + band;
    case '=':
      return value === limit;
    case '!=':
      return value !== limit;
  }
}

/** Keeps the points a rate needs: those in the window plus the newest one before it. */
function remember(seconds: number, recent: Track['recent'], point: { at: number; value: PointValue }): void {
  if (typeof point.value !== 'number') return;
  recent.push([point.at, point.value]);
  const windowStart = point.at - seconds * 1000;
  let first = 0;
  while (first + 1 < recent.length && recent[first + 1]![0] <= windowStart) first++;
  if (first > 0) recent.splice(0, first);
}

/** Change per `seconds` from the newest point at or before the window's start (or the oldest kept). */
function rateOf(recent: Track['recent'], seconds: number): number | undefined {
  if (recent.length < 2) return undefined;
  const [t0, v0] = recent[0]!;
  const [t1, v1] = recent[recent.length - 1]!;
  return ((v1 - v0) / (t1 - t0)) * seconds * 1000;
}

export interface BacktestAlarm {
  raisedAt: number;
  returnedAt: number | null;
  value: PointValue | null;
  chattering: boolean;
}

/**
 * What the rule would have raised over stored points (sorted by time): the same engine, with time
 * advanced to each point before it is evaluated and to `end` after the last, so delays and silence
 * behave as they would have live.
 */
export function backtest(
  rule: EngineRule,
  points: readonly { at: number; value: PointValue }[],
  start: number,
  end: number,
): BacktestAlarm[] {
  const alarms: BacktestAlarm[] = [];
  const apply = (transitions: Transition[]) => {
    for (const t of transitions) {
      if (t.type === 'raise')
        alarms.push({ raisedAt: t.at, returnedAt: null, value: t.value, chattering: t.chattering });
      else {
        const open = alarms[alarms.length - 1];
        if (open && open.returnedAt === null) open.returnedAt = t.at;
      }
    }
  };
  const track = newTrack(start);
  const transitions: Transition[] = [];
  for (const point of points) {
    if (point.at < start || point.at > end) continue;
    tickInPlace(rule, track, point.at, transitions);
    pointInPlace(rule, track, point, point.at, transitions);
    if (transitions.length > 0) {
      apply(transitions);
      transitions.length = 0;
    }
  }
  tickInPlace(rule, track, end, transitions);
  apply(transitions);
  return alarms;
}
