import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The stream tickets the server hands out, in turn; null: the ticket call fails. */
const tickets = vi.hoisted(() => ({ next: ['t1'] as (string | null)[], asked: [] as string[] }));
vi.mock('../lib/call.ts', () => ({
  call: async (endpoint: { method: string; path: string }) => {
    tickets.asked.push(`${endpoint.method} ${endpoint.path}`);
    const ticket = tickets.next.shift();
    if (!ticket) throw new Error('no ticket');
    return { ticket, expiresIn: 30 };
  },
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
  it('opens with a fresh ticket each time, never the access token, backing off on errors', async () => {
    tickets.next = ['t1', 't2', 't3'];
    tickets.asked = [];
    const stop = subscribeLive([3, 1], { onValues: () => {} });
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeEventSource.opened.map((s) => s.url)).toEqual(['/api/query/live?thingIds=3%2C1&ticket=t1']);
    expect(tickets.asked).toEqual(['POST /api/query/live/ticket']);
    FakeEventSource.opened[0]?.emit('end');
    expect(FakeEventSource.opened[0]?.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(LIVE_RETRY_MS.first);
    expect(FakeEventSource.opened[1]?.url).toContain('ticket=t2');
    expect(FakeEventSource.opened.some((s) => s.url.includes('token'))).toBe(false);
    // A second failure in a row waits twice as long.
    FakeEventSource.opened[1]?.emit('error');
    await vi.advanceTimersByTimeAsync(LIVE_RETRY_MS.first);
    expect(FakeEventSource.opened).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(LIVE_RETRY_MS.first);
    expect(FakeEventSource.opened).toHaveLength(3);
    stop();
    expect(FakeEventSource.opened[2]?.closed).toBe(true);
  });

  it('retries when no ticket can be had, without opening a stream', async () => {
    tickets.next = [null, 't9'];
    const stop = subscribeLive([1], { onValues: () => {} });
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeEventSource.opened).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(LIVE_RETRY_MS.first);
    expect(FakeEventSource.opened.map((s) => s.url)).toEqual(['/api/query/live?thingIds=1&ticket=t9']);
    stop();
  });

  it('leaves no timer behind when stopped while waiting to reopen', async () => {
    tickets.next = ['t1'];
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
