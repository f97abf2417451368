import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App as AntApp } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';

/** Test-only: renders a chart screen with a fresh query client, a router at `path` and antd's App. */
export function renderScreen(ui: ReactNode, path: string) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
  });
  const location = { current: '' };
  function Spy() {
    const l = useLocation();
    location.current = `${l.pathname}${l.search}`;
    return null;
  }
  const result = render(
    <QueryClientProvider client={client}>
      <AntApp>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="*" element={ui} />
          </Routes>
          <Spy />
        </MemoryRouter>
      </AntApp>
    </QueryClientProvider>,
  );
  return { ...result, client, location };
}

/** A promise resolved from outside (late answers). */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
