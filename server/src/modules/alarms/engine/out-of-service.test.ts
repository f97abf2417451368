import { ALARM_STATE } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { covers } from '../out-of-service.ts';
import { type EngineRule, newTrack, onPoint } from './evaluate.ts';
import {
  type AlarmStatus,
  applyAction,
  raised,
  returned,
  rings,
  stateCode,
  takenOutOfService,
} from './state.ts';

const NOW = 1_000_000;
const hot: EngineRule = {
  condition: { kind: 'threshold', op: '>', value: 80 },
  timing: { onDelay: 0, offDelay: 0, deadband: 0 },
};

function act(s: AlarmStatus, type: 'acknowledge' | 'shelve', until?: number): AlarmStatus {
  const result = applyAction(s, { type, until }, NOW);
  if (!result.ok) throw new Error(result.reason);
  return result.status;
}

describe('out of service (ISA-18.2)', () => {
  it('closes an open alarm from every state, and it rings no more', () => {
    const fresh = raised({ suppressed: false, chattering: false });
    const states: AlarmStatus[] = [
      fresh,
      act(fresh, 'acknowledge'),
      returned(fresh),
      act(fresh, 'shelve', NOW + 60_000),
      raised({ suppressed: true, chattering: false }),
    ];
    expect(states.map((s) => stateCode(s, NOW))).toEqual([1, 2, 3, 5, 6]);
    for (const s of states) {
      const out = takenOutOfService(s);
      expect(stateCode(out, NOW)).toBe(ALARM_STATE.normal);
      expect(out.shelvedUntil).toBeNull();
      expect(rings(out, NOW)).toBe(false);
      // Closed: nothing more an operator can do to it but comment.
      expect(applyAction(out, { type: 'acknowledge' }, NOW)).toEqual({ ok: false, reason: 'closed' });
    }
  });

  it('covers a rule on one thing through any monitor, or everything one monitor watches', () => {
    const pairEntry = { ruleId: 1, thingId: 7, monitorId: null };
    expect(covers(pairEntry, { monitorId: 3, ruleId: 1, thingId: 7 })).toBe(true);
    expect(covers(pairEntry, { monitorId: 4, ruleId: 1, thingId: 7 })).toBe(true);
    expect(covers(pairEntry, { monitorId: 3, ruleId: 1, thingId: 8 })).toBe(false);
    expect(covers(pairEntry, { monitorId: 3, ruleId: 2, thingId: 7 })).toBe(false);
    const monitorEntry = { ruleId: null, thingId: null, monitorId: 3 };
    expect(covers(monitorEntry, { monitorId: 3, ruleId: 1, thingId: 7 })).toBe(true);
    expect(covers(monitorEntry, { monitorId: 3, ruleId: 2, thingId: 9 })).toBe(true);
    expect(covers(monitorEntry, { monitorId: 4, ruleId: 1, thingId: 7 })).toBe(false);
  });

  it('returned to service, the watch starts afresh: a condition still holding raises a new alarm', () => {
    // In service: raised at 10 s. Out of service, the watch is dropped with its track.
    const before = onPoint(hot, newTrack(0), { at: 10_000, value: 95 }, 10_000);
    expect(before.transitions).toMatchObject([{ type: 'raise', at: 10_000 }]);
    // Back in service at 60 s: a new track, and the first point over the limit raises.
    const after = onPoint(hot, newTrack(60_000), { at: 61_000, value: 95 }, 61_000);
    expect(after.transitions).toMatchObject([{ type: 'raise', at: 61_000, chattering: false }]);
  });
});
