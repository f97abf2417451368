import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const polls = vi.hoisted(() => ({ calls: [] as number[] }));
vi.mock('../lib/call.ts', () => ({
  call: async (endpoint: { path: string }, { query }: { query?: { resourceId: number } }) => {
    if (endpoint.path === '/api/query/live/ticket') return { ticket: 'k', expiresIn: 30 };
    if (!query) throw new Error(`unexpected call of ${endpoint.path}`);
    polls.calls.push(query.resourceId);
    return [{ thingId: query.resourceId, operation: 'P', name: 'P', unit: 'kW', value: 7, ts: 1_000 }];
  },
}));
const { LIVE_FALLBACK_POLL_MS, LIVE_RETRY_MS, useLiveWithFallback } = await import('./live.ts');

class FakeEventSource {
  static opened: FakeEventSource[] = [];
  listeners = new Map<string, ((e?: unknown) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, fn: (e?: unknown) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  emit(type: string, data?: unknown) {
    for (const fn of this.listeners.get(type) ?? []) fn({ data: JSON.stringify(data) });
  }
  close() {}
}

const newest = () => FakeEventSource.opened.at(-1) as FakeEventSource;

beforeEach(() => {
  vi.useFakeTimers();
  FakeEventSource.opened = [];
  polls.calls = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function mount(ids: number[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(() => useLiveWithFallback(ids), { wrapper });
}

describe('useLiveWithFallback', () => {
  it('tells idle (nothing to follow) from connecting, open and lost', async () => {
    const idle = mount([]);
    await act(() => vi.advanceTimersByTimeAsync(5 * LIVE_RETRY_MS.max));
    expect(idle.result.current.status).toBe('idle');
    expect(FakeEventSource.opened).toHaveLength(0);

    const { result } = mount([1]);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(result.current.status).toBe('connecting');
    act(() => newest().emit('open'));
    expect(result.current.status).toBe('open');
    act(() => newest().emit('error'));
    expect(result.current.status).toBe('retrying');
  });

  it('does not poll while the stream is up', async () => {
    const { result } = mount([1, 2]);
    await act(() => vi.advanceTimersByTimeAsync(0));
    act(() => newest().emit('open'));
    act(() => newest().emit('values', [{ thingId: 1, metric: 'P', ts: 5_000, value: 3 }]));
    await act(() => vi.advanceTimersByTimeAsync(3 * LIVE_FALLBACK_POLL_MS));
    expect(polls.calls).toEqual([]);
    expect(result.current.status).toBe('open');
    expect(result.current.values.get(1)?.get('P')?.value).toBe(3);
  });

  it('polls while the stream is down, and stops once it is back', async () => {
    const { result } = mount([1, 2]);
    await act(() => vi.advanceTimersByTimeAsync(0));
    act(() => newest().emit('open'));
    act(() => newest().emit('error'));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(result.current.polling).toBe(true);
    expect(polls.calls.toSorted()).toEqual([1, 2]);
    // Still polling through the back-off's reconnect attempts.
    await act(() => vi.advanceTimersByTimeAsync(LIVE_RETRY_MS.first));
    expect(result.current.status).toBe('connecting');
    await act(() => vi.advanceTimersByTimeAsync(LIVE_FALLBACK_POLL_MS));
    expect(polls.calls).toHaveLength(4);
    expect(result.current.values.get(2)?.get('P')?.value).toBe(7);

    act(() => newest().emit('open'));
    act(() => newest().emit('values', [{ thingId: 2, metric: 'P', ts: 9_000, value: 8 }]));
    await act(() => vi.advanceTimersByTimeAsync(3 * LIVE_FALLBACK_POLL_MS));
    expect(polls.calls).toHaveLength(4);
    expect(result.current.polling).toBe(false);
    // The stream's newer value wins over the poll's older one.
    expect(result.current.values.get(2)?.get('P')?.value).toBe(8);
  });
});
