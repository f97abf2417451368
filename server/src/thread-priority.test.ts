import { readdirSync } from 'node:fs';
import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { yieldToMainThread } from './thread-priority.ts';

const niceOfThreads = () =>
  readdirSync('/proc/self/task').map((t) => ({ tid: Number(t), nice: getPriority(Number(t)) }));

/** A worker thread that stays until terminated, once it runs. */
async function startWorker(): Promise<Worker> {
  const worker = new Worker('setInterval(() => {}, 1000)', { eval: true });
  await new Promise((resolve) => worker.once('online', resolve));
  return worker;
}

describe.runIf(process.platform === 'linux')('yieldToMainThread', () => {
  const stops: (() => void)[] = [];
  const workers: Worker[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) stop();
    for (const w of workers.splice(0)) await w.terminate();
  });

  it('gives every thread but the main one the nice value, and those started later too', async () => {
    workers.push(await startWorker());
    const mainBefore = getPriority(process.pid);
    const errors: Error[] = [];
    // Above whatever the test runner's threads already have (nice values never go back down here).
    const nice = Math.min(19, Math.max(...niceOfThreads().map((t) => t.nice)) + 1);
    stops.push(yieldToMainThread(nice, (e) => errors.push(e)));

    const now = niceOfThreads();
    expect(now.find((t) => t.tid === process.pid)?.nice).toBe(mainBefore);
    expect(now.filter((t) => t.tid !== process.pid).every((t) => t.nice >= nice)).toBe(true);

    const before = new Set(now.map((t) => t.tid));
    workers.push(await startWorker());
    const fresh = () => niceOfThreads().filter((t) => !before.has(t.tid));
    expect(fresh().length).toBeGreaterThan(0);
    await expect.poll(() => fresh().every((t) => t.nice >= nice), { timeout: 3000 }).toBe(true);
    expect(getPriority(process.pid)).toBe(mainBefore);
    expect(errors).toEqual([]);
  });

  it('leaves every thread as it is with 0', async () => {
    workers.push(await startWorker());
    const before = niceOfThreads();
    stops.push(yieldToMainThread(0, (e) => expect.fail(e.message)));
    expect(niceOfThreads().filter((t) => before.some((b) => b.tid === t.tid))).toEqual(before);
  });
});
