import { type AlarmCondition, CHATTER_COUNT } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import {
  backtest,
  type EngineRule,
  newTrack,
  onPoint,
  onTick,
  type PointValue,
  pointInPlace,
  type Track,
  type Transition,
} from './evaluate.ts';

const S = 1000;

function rule(condition: AlarmCondition, timing: Partial<EngineRule['timing']> = {}): EngineRule {
  return { condition, timing: { onDelay: 0, offDelay: 0, deadband: 0, ...timing } };
}

/** Feeds points (seconds, value) and ticks (seconds) in order; returns every transition with times in s. */
function run(r: EngineRule, events: ([number, PointValue] | number)[], track: Track = newTrack(0)) {
  const out: { type: string; at: number; value?: PointValue | null; chattering?: boolean }[] = [];
  const take = (ts: Transition[]) => {
    for (const t of ts) out.push({ ...t, at: t.at / S });
  };
  for (const e of events) {
    const step =
      typeof e === 'number'
        ? onTick(r, track, e * S)
        : onPoint(r, track, { at: e[0] * S, value: e[1] }, e[0] * S);
    take(step.transitions);
    track = step.track;
  }
  return { out, track };
}

const types = (out: { type: string; at: number }[]) => out.map((t) => `${t.type}@${t.at}`);

describe('conditions', () => {
  it.each([
    ['>', 80, [79, 80, 81], [false, false, true]],
    ['>=', 80, [79, 80, 81], [false, true, true]],
    ['<', 10, [9, 10, 11], [true, false, false]],
    ['<=', 10, [9, 10, 11], [true, true, false]],
    ['=', 3, [2, 3, 4], [false, true, false]],
    ['!=', 3, [3, 2, 3], [false, true, false]],
  ] as const)('threshold %s %d', (op, limit, values, expected) => {
    const r = rule({ kind: 'threshold', op, value: limit });
    const states = values.map((v) => run(r, [[1, v]]).track.active);
    expect(states).toEqual(expected);
  });

  it('range: inside and outside', () => {
    const inside = rule({ kind: 'range', inside: true, low: 10, high: 20 });
    const outside = rule({ kind: 'range', inside: false, low: 10, high: 20 });
    expect([9, 10, 20, 21].map((v) => run(inside, [[1, v]]).track.active)).toEqual([
      false,
      true,
      true,
      false,
    ]);
    expect([9, 10, 20, 21].map((v) => run(outside, [[1, v]]).track.active)).toEqual([
      true,
      false,
      false,
      true,
    ]);
  });

  it('rate of change over a window raises on a fast rise and returns when it slows', () => {
    // More than 5 per minute.
    const r = rule({ kind: 'rate', op: '>', value: 5, seconds: 60 });
    const { out } = run(r, [
      [0, 20],
      [30, 21],
      [60, 22], // +2 per minute
      [90, 26], // 26 - 21 over 60 s = +5: not more than 5
      [120, 30], // 30 - 22 = +8 per minute
      [180, 31], // 31 - 30 over the last 60 s
    ]);
    expect(types(out)).toEqual(['raise@120', 'return@180']);
  });

  it('onPoint leaves the track it was given as it was; the in-place step agrees with it', () => {
    const r = rule({ kind: 'rate', op: '>', value: 5, seconds: 60 });
    const { track } = run(r, [
      [0, 20],
      [30, 21],
      [60, 22],
    ]);
    const before = structuredClone(track);
    const step = onPoint(r, track, { at: 120 * S, value: 30 }, 120 * S);
    expect(track).toEqual(before);
    expect(step.transitions.map((t) => t.type)).toEqual(['raise']);
    const owned = structuredClone(before);
    const out: Transition[] = [];
    pointInPlace(r, owned, { at: 120 * S, value: 30 }, 120 * S, out);
    expect(owned).toEqual(step.track);
    expect(out).toEqual(step.transitions);
  });

  it('a single point gives no rate, and strings are ignored by numeric conditions', () => {
    const rate = rule({ kind: 'rate', op: '>', value: 0, seconds: 60 });
    expect(run(rate, [[0, 100]]).out).toEqual([]);
    const threshold = rule({ kind: 'threshold', op: '>', value: 1 });
    const { out, track } = run(threshold, [
      [0, 5],
      [10, 'offline'],
    ]);
    expect(types(out)).toEqual(['raise@0']);
    expect(track.active).toBe(true);
  });

  it('state values: a fire sensor in 报警 raises, back to 正常 returns; numbers compare as text', () => {
    const r = rule({ kind: 'state', values: ['报警', '3'] });
    expect(
      types(
        run(r, [
          [0, '正常'],
          [10, '报警'],
          [20, '正常'],
          [30, 3],
        ]).out,
      ),
    ).toEqual(['raise@10', 'return@20', 'raise@30']);
  });

  it('no data: silence raises on the server clock, the next point returns it', () => {
    const r = rule({ kind: 'noData', seconds: 60 });
    const { out } = run(r, [[0, 1], 30, 59, 60, 120, [130, 2], 150]);
    expect(types(out)).toEqual(['raise@60', 'return@130']);
  });

  it('no data: a device never heard from is silent from the start of the watch', () => {
    const r = rule({ kind: 'noData', seconds: 60 });
    expect(types(run(r, [59, 61], newTrack(0)).out)).toEqual(['raise@60']);
  });
});

describe('delays and deadband', () => {
  const hot = { kind: 'threshold', op: '>', value: 80 } as const;

  it('on-delay: the condition must hold the whole delay; a dip restarts it', () => {
    const r = rule(hot, { onDelay: 30 });
    const { out } = run(r, [
      [0, 90],
      [20, 70], // dip before 30 s
      [30, 90],
      [50, 90],
      [60, 90], // held 30 s since 30
    ]);
    expect(types(out)).toEqual(['raise@60']);
  });

  it('on-delay runs out between points: raised at its own time by the tick or the next point', () => {
    const r = rule(hot, { onDelay: 15 });
    expect(types(run(r, [[0, 90], 10, 16]).out)).toEqual(['raise@15']);
    expect(
      types(
        run(r, [
          [0, 90],
          [20, 90],
        ]).out,
      ),
    ).toEqual(['raise@15']);
  });

  it('off-delay: the condition must stay clear; a return inside it keeps the alarm', () => {
    const r = rule(hot, { offDelay: 30 });
    const { out } = run(r, [
      [0, 90],
      [10, 70],
      [20, 90],
      [30, 70],
      [50, 70],
      [60, 70],
    ]);
    expect(types(out)).toEqual(['raise@0', 'return@60']);
  });

  it('deadband: an active > 80 alarm with deadband 2 returns only below 78', () => {
    const r = rule(hot, { deadband: 2 });
    const { out } = run(r, [
      [0, 81],
      [10, 79],
      [20, 78.5],
      [30, 78],
      [40, 80],
      [50, 81],
    ]);
    expect(types(out)).toEqual(['raise@0', 'return@30', 'raise@50']);
  });

  it('deadband on a range: outside 10..20 returns only inside 11..19', () => {
    const r = rule({ kind: 'range', inside: false, low: 10, high: 20 }, { deadband: 1 });
    const { out } = run(r, [
      [0, 21],
      [10, 19.5],
      [20, 19],
      [30, 9],
      [40, 10.5],
      [50, 11],
    ]);
    expect(types(out)).toEqual(['raise@0', 'return@20', 'raise@30', 'return@50']);
  });
});

describe('late points and chattering', () => {
  it('a point older than the last evaluated changes nothing', () => {
    const r = rule({ kind: 'threshold', op: '>', value: 80 });
    const { out, track } = run(r, [
      [100, 90],
      [110, 70],
      [105, 95],
      [110, 95],
    ]);
    expect(types(out)).toEqual(['raise@100', 'return@110']);
    expect(track.lastAt).toBe(110 * S);
  });

  it(`more than ${CHATTER_COUNT} raises in the window are flagged chattering`, () => {
    const r = rule({ kind: 'threshold', op: '>', value: 80 });
    const events: [number, number][] = [];
    for (let i = 0; i < CHATTER_COUNT + 2; i++) events.push([i * 20, 90], [i * 20 + 10, 70]);
    const raises = run(r, events).out.filter((t) => t.type === 'raise');
    expect(raises.map((t) => t.chattering)).toEqual([...Array(CHATTER_COUNT).fill(false), true, true]);
  });

  it('raises spread beyond the window are not chattering', () => {
    const r = rule({ kind: 'threshold', op: '>', value: 80 });
    const events: [number, number][] = [];
    for (let i = 0; i < CHATTER_COUNT + 2; i++) events.push([i * 300, 90], [i * 300 + 10, 70]);
    expect(run(r, events).out.some((t) => t.type === 'raise' && t.chattering)).toBe(false);
  });
});

describe('backtest', () => {
  it('replays stored points with delays and reports each alarm with its span', () => {
    const r = rule({ kind: 'threshold', op: '>', value: 80 }, { onDelay: 20, offDelay: 10 });
    const points = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90].map((t, i) => ({
      at: t * S,
      value: [70, 85, 86, 87, 88, 60, 60, 90, 90, 90][i]!,
    }));
    expect(backtest(r, points, 0, 100 * S)).toEqual([
      { raisedAt: 30 * S, returnedAt: 60 * S, value: 86, chattering: false },
      { raisedAt: 90 * S, returnedAt: null, value: 90, chattering: false },
    ]);
  });

  it('finds silences in history as no data', () => {
    const r = rule({ kind: 'noData', seconds: 60 });
    const points = [0, 10, 200, 210].map((t) => ({ at: t * S, value: 1 }));
    expect(backtest(r, points, 0, 300 * S)).toEqual([
      { raisedAt: 70 * S, returnedAt: 200 * S, value: 1, chattering: false },
      { raisedAt: 270 * S, returnedAt: null, value: 1, chattering: false },
    ]);
  });

  it('over 30 days of 10 s data, raises once per excursion above the limit', () => {
    // A slow wave crossing 80 about 825 times; each crossing lasts minutes, far beyond the delays.
    const r = rule({ kind: 'threshold', op: '>', value: 80 }, { onDelay: 30, offDelay: 30, deadband: 1 });
    const points = [];
    for (let t = 0; t < 30 * 8640; t++) points.push({ at: t * 10 * S, value: 75 + 10 * Math.sin(t / 50) });
    let crossings = 0;
    for (let i = 1; i < points.length; i++)
      if (points[i - 1]!.value <= 80 && points[i]!.value > 80) crossings++;
    const alarms = backtest(r, points, 0, 30 * 86_400 * S);
    expect(alarms).toHaveLength(crossings);
    for (const a of alarms.slice(0, -1)) expect(a.returnedAt! - a.raisedAt).toBeGreaterThan(60 * S);
  });
});
