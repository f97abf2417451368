/**
 * Cooperative slices for long work on the main thread (docs/architecture.md#heavy-work): a loop
 * calls `pause()` between steps, which hands the event loop over (setImmediate: timers, sockets
 * and the alarm engine run) once the slice has run `budgetMs`. A step costs microseconds, so the
 * loop lags at most a slice plus one step; awaiting a promise that is already settled yields to
 * nothing, which is how a streamed export held the loop for seconds.
 */
const SLICE_MS = 8;

export type Pause = () => Promise<void>;

export function slicer(budgetMs = SLICE_MS): Pause {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < budgetMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}
