import type { AlarmStatus } from './engine/state.ts';

/** An alarm's state flags for tests written as the engine writes them: returned, acknowledged, closed by default. */
export const testStatus = (change: Partial<AlarmStatus> = {}): AlarmStatus => ({
  active: false,
  acknowledged: true,
  closed: true,
  shelvedUntil: null,
  suppressed: false,
  chattering: false,
  occurrences: 1,
  ...change,
});
