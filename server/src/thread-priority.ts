import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

const TASKS = '/proc/self/task';
/** Threads appear after the start: libuv's pool on first use, a worker pool's on its first task. */
const LOOK_EVERY_MS = 1000;

/**
 * Under full ingest the server's threads outnumber the machine's 2 cores: the main thread
 * (HTTP, MQTT, the writer's slices, every answer), the parse worker, DuckDB's threads and libuv's
 * pool running its inserts and reads, V8's helpers. Linux shares the cores out evenly, so a
 * realtime read that arrives while the main thread waits for a core waits with it. Every other
 * thread of the process runs at `nice` (0–19, higher yields more): the main thread gets a core
 * whenever it has work, the others take what it leaves (bench/README.md "The main thread
 * first"). `nice` 0 leaves every thread as it is.
 *
 * Linux only: there a nice value belongs to a thread; elsewhere setpriority would lower the whole
 * process, the main thread included. Raising the nice value of the process's own threads needs
 * no privilege (lowering it again would).
 * Returns the function that stops looking.
 */
export function yieldToMainThread(nice: number, onError: (error: Error) => void): () => void {
  if (process.platform !== 'linux' || nice === 0) return () => {};
  const look = () => {
    for (const entry of readdirSync(TASKS)) {
      const tid = Number(entry);
      if (tid === process.pid) continue;
      try {
        if (getPriority(tid) < nice) setPriority(tid, nice);
      } catch (error) {
        // A thread that ended between the listing and the call.
        if ((error as { info?: { code?: string } }).info?.code === 'ESRCH') continue;
        clearInterval(timer);
        onError(error as Error);
        return;
      }
    }
  };
  const timer = setInterval(look, LOOK_EVERY_MS);
  timer.unref();
  look();
  return () => clearInterval(timer);
}
