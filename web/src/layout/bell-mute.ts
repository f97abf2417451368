/**
 * "Mute until a new alarm" (issue 11), kept in memory only: muting remembers the ids in the bell's
 * list at that moment; the mute lasts while every id the bell lists is one of them, and ends when
 * an id not seen then appears (a new alarm, or one coming back from a shelf). Alarms leaving the
 * list (acknowledged) keep it muted.
 */
export type BellMute = ReadonlySet<number> | null;

/** The mute taken now over the ids the bell lists. */
export const muteOver = (ids: readonly number[]): BellMute => new Set(ids);

/** The mute after the bell's list changed to `ids`: null (ringing again) once an unseen id shows. */
export const muteAfter = (mute: BellMute, ids: readonly number[]): BellMute =>
  mute !== null && ids.every((id) => mute.has(id)) ? mute : null;
