import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../lib/session.ts';
import { mockApi, page } from '../testing/render-with-api.tsx';
import { useThingSearch, useThingsOfCategory } from './things.ts';

// Issue 21: device pickers listed 1#, 10#, 11#, 2#. The pickers' hooks answer natural order
// whatever order the list arrives in (a cached page, an older server).
const thing = (id: number, name: string) => ({ id, name, identifier: `T${id}`, categoryId: 7 });

beforeEach(() => {
  useSession.setState({ token: null, refreshToken: null, roles: ['admin'], routes: [] });
  mockApi((c) => {
    if (c.path === '/api/thing/things')
      return {
        body: page([
          thing(1, '10#空压机'),
          thing(2, '2#空压机'),
          thing(3, '1#空压机'),
          thing(4, '11#空压机'),
        ]),
      };
    return undefined;
  });
});
afterEach(() => vi.unstubAllGlobals());

function mount<T>(hook: () => T) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(hook, { wrapper });
}

const natural = ['1#空压机', '2#空压机', '10#空压机', '11#空压机'];

describe('device pickers', () => {
  it('search answers (diagram, overview palette, video binding) in natural order', async () => {
    const { result } = mount(() => useThingSearch('空压机'));
    await waitFor(() => expect(result.current.data?.map((t) => t.name)).toEqual(natural));
  });

  it("a category's devices (report components, alarm backtest) in natural order", async () => {
    const { result } = mount(() => useThingsOfCategory(7));
    await waitFor(() => expect(result.current.data?.map((t) => t.name)).toEqual(natural));
  });
});
