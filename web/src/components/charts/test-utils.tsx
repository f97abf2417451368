import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { App as AntApp } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';

// Captured before any test fakes timers: settling waits on the real clock.
const realTimeout = globalThis.setTimeout;
let current: QueryClient | undefined;

/**
 * Lets the screen last rendered by renderScreen settle: waits until its queries and mutations are
 * idle and the page has not changed for a few turns of the event loop. A fixed number of turns
 * was not enough on a loaded machine, where answers and renders arrive later.
 */
export async function settle({ quietTurns = 5, maxTurns = 2000 } = {}) {
  let mutated = true;
  const observer = new MutationObserver(() => {
    mutated = true;
  });
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  try {
    await act(async () => {
      let quiet = 0;
      for (let turn = 0; turn < maxTurns && quiet < quietTurns; turn++) {
        await new Promise((r) => realTimeout(r, 2));
        const idle = !current || (current.isFetching() === 0 && current.isMutating() === 0);
        quiet = idle && !mutated ? quiet + 1 : 0;
        mutated = false;
      }
    });
  } finally {
    observer.disconnect();
  }
}

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
  current = client;
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
