import { describe, expect, it } from 'vitest';
import {
  type AlarmStatus,
  applyAction,
  MAX_SHELVE_MS,
  phaseOf,
  raised,
  reraised,
  returned,
  rings,
  stateCode,
  unshelvedByTime,
} from './state.ts';

const NOW = 1_000_000;
const fresh = () => raised({ suppressed: false, chattering: false });

function act(s: AlarmStatus, type: Parameters<typeof applyAction>[1]['type'], until?: number): AlarmStatus {
  const result = applyAction(s, { type, until }, NOW);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.status;
}

describe('the ISA-18.2 states', () => {
  it('unacknowledged → acknowledged → normal when the condition returns', () => {
    let s = fresh();
    expect(phaseOf(s)).toBe('unacknowledged');
    expect(rings(s, NOW)).toBe(true);
    s = act(s, 'acknowledge');
    expect(phaseOf(s)).toBe('acknowledged');
    expect(rings(s, NOW)).toBe(false);
    s = returned(s);
    expect(phaseOf(s)).toBe('normal');
  });

  it('unacknowledged → returned-unacknowledged → normal when acknowledged', () => {
    let s = returned(fresh());
    expect(phaseOf(s)).toBe('returnedUnacknowledged');
    expect(rings(s, NOW)).toBe(false);
    s = act(s, 'acknowledge');
    expect(phaseOf(s)).toBe('normal');
  });

  it('a re-raise while returned-unacknowledged reopens the same alarm, one more occurrence', () => {
    const s = reraised(returned(fresh()), { suppressed: false, chattering: true });
    expect(phaseOf(s)).toBe('unacknowledged');
    expect(s.occurrences).toBe(2);
    expect(s.chattering).toBe(true);
  });

  it('a suppressed raise is kept but never rings', () => {
    const s = raised({ suppressed: true, chattering: false });
    expect(phaseOf(s)).toBe('unacknowledged');
    expect(rings(s, NOW)).toBe(false);
  });
});

describe('operator actions', () => {
  it('shelving silences until the chosen time; then it rings again if still active', () => {
    const s = act(act(fresh(), 'acknowledge'), 'shelve', NOW + 3_600_000);
    expect(rings(s, NOW + 1000)).toBe(false);
    const later = unshelvedByTime(s, NOW + 3_600_000);
    expect(later.shelvedUntil).toBeNull();
    expect(rings(later, NOW + 3_600_000)).toBe(true);
    expect(unshelvedByTime(s, NOW + 1000)).toBe(s);
  });

  it('a shelf that ran out on a returned alarm leaves it returned', () => {
    const s = returned(act(fresh(), 'shelve', NOW + 1000));
    const later = unshelvedByTime(s, NOW + 1000);
    expect(phaseOf(later)).toBe('returnedUnacknowledged');
    expect(rings(later, NOW + 1000)).toBe(false);
  });

  it('unshelve by hand rings again if still active', () => {
    const s = act(act(act(fresh(), 'acknowledge'), 'shelve', NOW + 60_000), 'unshelve');
    expect(s.shelvedUntil).toBeNull();
    expect(rings(s, NOW)).toBe(true);
  });

  it.each([
    ['in the past', NOW - 1],
    ['now', NOW],
    ['beyond 7 days', NOW + MAX_SHELVE_MS + 1],
    ['missing', undefined],
  ])('refuses a shelf until %s', (_, until) => {
    expect(applyAction(fresh(), { type: 'shelve', until }, NOW)).toEqual({
      ok: false,
      reason: 'shelveUntilInvalid',
    });
  });

  it('refuses what makes no sense in the state', () => {
    const acknowledged = act(fresh(), 'acknowledge');
    expect(applyAction(acknowledged, { type: 'acknowledge' }, NOW)).toEqual({
      ok: false,
      reason: 'alreadyAcknowledged',
    });
    expect(applyAction(fresh(), { type: 'unshelve' }, NOW)).toEqual({ ok: false, reason: 'notShelved' });
    expect(applyAction(returned(fresh()), { type: 'shelve', until: NOW + 1000 }, NOW)).toEqual({
      ok: false,
      reason: 'notActive',
    });
    const closed = act(fresh(), 'close');
    for (const type of ['acknowledge', 'shelve', 'unshelve', 'close'] as const) {
      expect(applyAction(closed, { type, until: NOW + 1000 }, NOW)).toEqual({ ok: false, reason: 'closed' });
    }
  });

  it('a comment changes no state and is allowed even on a closed alarm', () => {
    const closed = act(fresh(), 'close');
    expect(act(closed, 'comment')).toEqual(closed);
    expect(phaseOf(closed)).toBe('normal');
  });
});

describe('state codes', () => {
  it('state 1 is exactly what rings', () => {
    const cases: AlarmStatus[] = [
      fresh(),
      act(fresh(), 'acknowledge'),
      returned(fresh()),
      act(fresh(), 'close'),
      act(fresh(), 'shelve', NOW + 1000),
      raised({ suppressed: true, chattering: false }),
      reraised(returned(fresh()), { suppressed: false, chattering: false }),
    ];
    expect(cases.map((s) => stateCode(s, NOW))).toEqual([1, 2, 3, 4, 5, 6, 1]);
    for (const s of cases) expect(stateCode(s, NOW) === 1).toBe(rings(s, NOW));
  });
});
