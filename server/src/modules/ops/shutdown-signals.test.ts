import { afterEach, describe, expect, it, vi } from 'vitest';
import { shutdownOnSignals } from './shutdown.ts';

const log = { info: () => {}, error: () => {} };
let off: (() => void) | undefined;
afterEach(() => {
  off?.();
  vi.useRealTimers();
});

describe('shutdownOnSignals', () => {
  it('drains once on SIGTERM, ignores the same Ctrl-C arriving twice, then exits 0', async () => {
    const exit = vi.fn();
    let finish = () => {};
    const close = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const onSignal = vi.fn();
    off = shutdownOnSignals({ close, onSignal, timeoutMs: 10_000, log, exit });
    process.emit('SIGTERM');
    process.emit('SIGINT');
    expect(onSignal).toHaveBeenCalledTimes(1);
    expect(close).toHaveBeenCalledTimes(1);
    expect(exit).not.toHaveBeenCalled();
    finish();
    await vi.waitFor(() => expect(exit).toHaveBeenCalledWith(0));
  });

  it('exits 1 on a later second signal, on a failed close and after the timeout', async () => {
    vi.useFakeTimers();
    const exit = vi.fn();
    off = shutdownOnSignals({ close: () => new Promise(() => {}), timeoutMs: 30_000, log, exit });
    process.emit('SIGTERM');
    vi.advanceTimersByTime(2_500);
    expect(exit).not.toHaveBeenCalled();
    vi.setSystemTime(Date.now() + 2_500);
    process.emit('SIGINT');
    expect(exit).toHaveBeenLastCalledWith(1);
    off();

    const late = vi.fn();
    off = shutdownOnSignals({ close: () => new Promise(() => {}), timeoutMs: 30_000, log, exit: late });
    process.emit('SIGTERM');
    vi.advanceTimersByTime(30_001);
    expect(late).toHaveBeenCalledWith(1);
    off();

    vi.useRealTimers();
    const failed = vi.fn();
    off = shutdownOnSignals({
      close: async () => Promise.reject(new Error('db gone')),
      timeoutMs: 30_000,
      log,
      exit: failed,
    });
    process.emit('SIGTERM');
    await vi.waitFor(() => expect(failed).toHaveBeenCalledWith(1));
  });
});
