import { useEffect, useState } from 'react';

/**
 * Sequence stamps of the real-time view (spec §4): every tick takes a new stamp, the calls of
 * that tick carry it (`?seq=`), and only answers carrying the latest stamp are shown.
 */

/**
 * A new stamp: Date.now() as a string, strictly after the previous one (two ticks in the same
 * millisecond still differ).
 * @example nextSeq('1700000000000', 1700000000000) // '1700000000001'
 */
export const nextSeq = (previous: string | null, now: number = Date.now()): string =>
  String(previous !== null && Number(previous) >= now ? Number(previous) + 1 : now);

/**
 * The current stamp of a ticking view. A new stamp at once when `resetKey` changes (another
 * resource, a restart after a settings change), then one every `periodMs`. Switching or
 * unmounting clears the old interval, so there is never more than one timer.
 */
export function useSeqTicker(resetKey: string | null, periodMs: number): string | null {
  const [state, setState] = useState(() => ({ resetKey, seq: resetKey === null ? null : nextSeq(null) }));
  let current = state;
  if (state.resetKey !== resetKey) {
    // Adjusting state while rendering (React's documented pattern): the first tick of the new
    // resource is this render, not one effect later.
    current = { resetKey, seq: resetKey === null ? null : nextSeq(state.seq) };
    setState(current);
  }
  useEffect(() => {
    if (resetKey === null) return;
    const timer = setInterval(
      () => setState((s) => ({ resetKey: s.resetKey, seq: nextSeq(s.seq) })),
      periodMs,
    );
    return () => clearInterval(timer);
  }, [resetKey, periodMs]);
  return current.seq;
}
