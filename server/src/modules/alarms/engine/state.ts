import { ALARM_STATE, type AlarmActionType, type AlarmStateCode } from '@kilowatch/contract';

/**
 * An alarm's life after it is raised, per ISA-18.2 / IEC 62682: whether its condition is active and
 * whether an operator has acknowledged it are separate, so an alarm is
 *   unacknowledged (active, not acknowledged) → acknowledged (active, acknowledged) → normal, or
 *   unacknowledged → returned-unacknowledged (condition gone, nobody has seen it) → normal.
 * Shelving silences it until a chosen time; a raise inside a maintenance window is suppressed (kept
 * in history, never rung). Pure: the service applies these to stored rows.
 */

/** Shelving is for a shift's nuisance, not a way to hide an alarm: at most 7 days. */
export const MAX_SHELVE_MS = 7 * 86_400_000;

export interface AlarmStatus {
  active: boolean;
  acknowledged: boolean;
  /** Back to normal: out of the current lists, kept in history. */
  closed: boolean;
  shelvedUntil: number | null;
  suppressed: boolean;
  chattering: boolean;
  /** How many raises this alarm stands for (re-raises while open and chattering are grouped). */
  occurrences: number;
}

export type AlarmPhase = 'unacknowledged' | 'acknowledged' | 'returnedUnacknowledged' | 'normal';

export function phaseOf(s: AlarmStatus): AlarmPhase {
  if (s.closed) return 'normal';
  if (s.active) return s.acknowledged ? 'acknowledged' : 'unacknowledged';
  return 'returnedUnacknowledged';
}

/** The code lists and the bell filter by: silenced kinds first, so state 1 is exactly what rings. */
export function stateCode(s: AlarmStatus, now: number): AlarmStateCode {
  if (s.closed) return ALARM_STATE.normal;
  if (s.suppressed) return ALARM_STATE.suppressed;
  if (s.shelvedUntil !== null && s.shelvedUntil > now) return ALARM_STATE.shelved;
  return ALARM_STATE[phaseOf(s)];
}

/** Whether the bell should ring for it now: active, unseen, not shelved, not suppressed. */
export function rings(s: AlarmStatus, now: number): boolean {
  return (
    s.active &&
    !s.closed &&
    !s.acknowledged &&
    !s.suppressed &&
    !(s.shelvedUntil !== null && s.shelvedUntil > now)
  );
}

export function raised(options: { suppressed: boolean; chattering: boolean }): AlarmStatus {
  return {
    active: true,
    acknowledged: false,
    closed: false,
    shelvedUntil: null,
    suppressed: options.suppressed,
    chattering: options.chattering,
    occurrences: 1,
  };
}

/**
 * The condition came back while this alarm is still open (returned but unacknowledged, or flagged
 * chattering): the same alarm becomes active and unacknowledged again, one more occurrence, so one
 * monitor and thing never have two open alarms.
 */
export function reraised(s: AlarmStatus, options: { suppressed: boolean; chattering: boolean }): AlarmStatus {
  return {
    ...s,
    active: true,
    acknowledged: false,
    suppressed: options.suppressed,
    chattering: s.chattering || options.chattering,
    occurrences: s.occurrences + 1,
  };
}

/** The condition cleared: an acknowledged alarm is done, an unacknowledged one waits to be seen. */
export function returned(s: AlarmStatus): AlarmStatus {
  return { ...s, active: false, closed: s.closed || s.acknowledged };
}

/** A shelf that ran out: still active, so it rings again. */
export function unshelvedByTime(s: AlarmStatus, now: number): AlarmStatus {
  if (s.shelvedUntil === null || s.shelvedUntil > now) return s;
  return { ...s, shelvedUntil: null, acknowledged: s.active ? false : s.acknowledged };
}

export type ActionResult = { ok: true; status: AlarmStatus } | { ok: false; reason: ActionRefusal };
type ActionRefusal = 'closed' | 'alreadyAcknowledged' | 'notShelved' | 'shelveUntilInvalid' | 'notActive';

/** An operator's action on one alarm; a refusal says why, for the API's 409/400. */
export function applyAction(
  s: AlarmStatus,
  action: { type: AlarmActionType; until?: number },
  now: number,
): ActionResult {
  if (action.type === 'comment') return { ok: true, status: s };
  if (s.closed) return { ok: false, reason: 'closed' };
  switch (action.type) {
    case 'acknowledge':
      if (s.acknowledged) return { ok: false, reason: 'alreadyAcknowledged' };
      return { ok: true, status: { ...s, acknowledged: true, closed: !s.active } };
    case 'shelve': {
      const until = action.until;
      if (until === undefined || until <= now || until > now + MAX_SHELVE_MS) {
        return { ok: false, reason: 'shelveUntilInvalid' };
      }
      if (!s.active) return { ok: false, reason: 'notActive' };
      return { ok: true, status: { ...s, shelvedUntil: until } };
    }
    case 'unshelve':
      if (s.shelvedUntil === null || s.shelvedUntil <= now) return { ok: false, reason: 'notShelved' };
      return {
        ok: true,
        status: { ...s, shelvedUntil: null, acknowledged: s.active ? false : s.acknowledged },
      };
    case 'close':
      return { ok: true, status: { ...s, closed: true } };
  }
}

/**
 * Taken out of service (ISA-18.2): its watch stops, so an open alarm would never return or be rung
 * again; it is closed as it stands, whatever its state, and the trail says why.
 */
export function takenOutOfService(s: AlarmStatus): AlarmStatus {
  return { ...s, closed: true, shelvedUntil: null };
}
