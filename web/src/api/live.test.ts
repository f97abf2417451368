import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const http = vi.hoisted(() => ({ token: 'a' as string | null }));
vi.mock('../lib/http.ts', async (original) => ({
  ...(await original<typeof import('../lib/http.ts')>()),
  currentAccessToken: async () => http.token,
}));
const { LIVE_RETRY_MS, subscribeLive } = await import('./live.ts');

class FakeEventSource {
  static opened: FakeEventSource[] = [];
  listeners = new Map<string, (() => void)[]>();
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, fn: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  emit(type: string) {
    for (const fn of this.listeners.get(type) ?? []) fn();
  }
  close() {
    this.closed = true;
  }
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('subscribeLive', () => {
  it('reopens with the current token when the server ends the stream, backing off on errors', async () => {
    const stop = subscribeLive([3, 1], { onValues: () => {} });
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeEventSource.opened.map((s) => s.url)).toEqual(['/api/query/live?thingIds=3%2C1&token=a']);
    http.token = 'b';
    FakeEventSource.opened[0]?.emit('end');
    expect(FakeEventSource.opened[0]?.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(LIVE_RETRY_MS.first);
    expect(FakeEventSource.opened[1]?.url).toContain('token=b');
    // A second failure in a row waits twice as long.
    FakeEventSource.opened[1]?.emit('error');
    await vi.advanceTimersByTimeAsync(LIVE_RETRY_MS.first);
    expect(FakeEventSource.opened).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(LIVE_RETRY_MS.first);
    expect(FakeEventSource.opened).toHaveLength(3);
    stop();
    expect(FakeEventSource.opened[2]?.closed).toBe(true);
  });

  it('leaves no timer behind when stopped while waiting to reopen', async () => {
    const stop = subscribeLive([1], { onValues: () => {} });
    await vi.advanceTimersByTimeAsync(0);
    FakeEventSource.opened[0]?.emit('error');
    expect(vi.getTimerCount()).toBe(1);
    stop();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(LIVE_RETRY_MS.max);
    expect(FakeEventSource.opened).toHaveLength(1);
  });
});
