import { UNIT_CACHE_KEY, type Unit } from '@kilowatch/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useUnits } from '../../api/units.ts';
import { mockApi, page } from './test-utils.tsx';

const units: Unit[] = [
  { id: 1, symbol: 'kW', name: '千瓦', quantity: 'power' },
  { id: 2, symbol: 'kWh', name: '千瓦时', quantity: 'energy' },
];

const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
    {children}
  </QueryClientProvider>
);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('useUnits', () => {
  it('asks for 1000 units and keeps them under unitAll', async () => {
    const calls = mockApi({ 'GET /api/units': () => page(units, 2, 1, 1000) });
    const { result } = renderHook(() => useUnits(), { wrapper });
    await waitFor(() => expect(result.current.isSuccess && !result.current.isFetching).toBe(true));
    expect(result.current.data).toEqual(units);
    expect(JSON.parse(localStorage.getItem(UNIT_CACHE_KEY) ?? 'null')).toEqual(units);
    const call = calls.find((c) => c.path === '/api/units')!;
    expect(call.query.get('pageSize')).toBe('1000');
    expect(call.query.get('page')).toBe('1');
  });

  it('shows the cached list at once, then refreshes it', async () => {
    localStorage.setItem(UNIT_CACHE_KEY, JSON.stringify(units.slice(0, 1)));
    mockApi({ 'GET /api/units': () => page(units) });
    const { result } = renderHook(() => useUnits(), { wrapper });
    expect(result.current.data).toEqual(units.slice(0, 1));
    await waitFor(() => expect(result.current.data).toEqual(units));
    expect(JSON.parse(localStorage.getItem(UNIT_CACHE_KEY) ?? 'null')).toEqual(units);
  });

  it('ignores a damaged cache', async () => {
    localStorage.setItem(UNIT_CACHE_KEY, '{not json');
    mockApi({ 'GET /api/units': () => page(units) });
    const { result } = renderHook(() => useUnits(), { wrapper });
    expect(result.current.data).toBeUndefined();
    await waitFor(() => expect(result.current.data).toEqual(units));
  });
});
