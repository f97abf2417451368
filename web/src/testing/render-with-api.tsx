import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App as AntApp } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { setNotifier } from '../lib/notify.ts';

export interface FetchCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

type Reply = { status?: number; body?: unknown } | undefined;

/**
 * Stubs `fetch` with a router: `handler` answers each call (`{ body }` is sent as `{ data: body }`
 * unless `status` is an error). Unanswered calls get 404. Returns the recorded calls.
 */
export function mockApi(handler: (call: FetchCall) => Reply): FetchCall[] {
  const calls: FetchCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      const call: FetchCall = {
        method: init?.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      calls.push(call);
      const reply = handler(call);
      const status = reply?.status ?? (reply ? 200 : 404);
      const payload = status >= 400 ? reply?.body : { data: reply?.body ?? null };
      return new Response(JSON.stringify(payload ?? { code: 'NOT_FOUND', message: 'not found' }), {
        status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return calls;
}

/** Records toasts instead of showing them. */
export function recordToasts() {
  const toasts: { kind: string; text: string }[] = [];
  setNotifier({
    success: (text) => toasts.push({ kind: 'success', text }),
    warning: (text) => toasts.push({ kind: 'warning', text }),
    error: (text) => toasts.push({ kind: 'error', text }),
  });
  return toasts;
}

export const page = <T,>(list: T[]) => ({ list, total: list.length, page: 1, pageSize: 10 });

/** Renders inside a fresh query client, antd's App and a memory router at `route`. */
export function renderScreen(ui: ReactNode, route = '/') {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <AntApp>
        <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
      </AntApp>
    </QueryClientProvider>
  );
  return { client, ...render(ui, { wrapper }) };
}
